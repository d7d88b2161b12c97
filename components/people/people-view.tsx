"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { formatUtcTimestamp } from "@/components/runs/display";
import { Problem } from "@/components/settings/problem";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, Td, Th } from "@/components/ui/table";
import { pagePaths } from "@/server/domain/urls";

/**
 * The server's people (server admins only): everyone who signed in with the identity provider, with their
 * groups and last sign-in; make or unmake a server admin, disable (their sessions stop at once) or enable
 * again. Nobody has a row until their first sign-in, so a server without OIDC configured shows none.
 */
export function PeopleView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const users = useQuery(trpc.user.list.queryOptions(undefined, { staleTime: 0, gcTime: 0, retry: false }));
  const update = useMutation(trpc.user.update.mutationOptions({ onSuccess: () => queryClient.invalidateQueries(trpc.user.list.queryFilter()) }));

  const code = users.error?.data?.code;
  if (code === "UNAUTHORIZED" || code === "FORBIDDEN") {
    return (
      <EmptyState title="Server admins only">
        {users.error?.message}{" "}
        {code === "UNAUTHORIZED" && (
          <a href={pagePaths.signIn(pagePaths.people())} className="underline">
            Sign in
          </a>
        )}
      </EmptyState>
    );
  }
  if (users.error) return <Problem error={users.error} />;
  if (!users.data) return <p className="text-sm text-text-muted">Loading…</p>;
  if (users.data.users.length === 0) {
    return (
      <EmptyState title="Nobody has signed in yet">
        People appear here after their first sign-in with your identity provider, which needs OpenID Connect configured:
        set <code>BENCHTRACK_OIDC_ISSUER</code> with its client id and secret (docs/access.md). The admin token keeps working meanwhile.
      </EmptyState>
    );
  }

  return (
    <div className="space-y-3">
      {update.error && <Problem error={update.error} />}
      <Table label="People" stacked>
        <thead>
          <tr>
            <Th>Name</Th>
            <Th>Email</Th>
            <Th>Groups</Th>
            <Th>Last sign-in</Th>
            <Th>Server admin</Th>
            <Th>Status</Th>
          </tr>
        </thead>
        <tbody>
          {users.data.users.map((user) => (
            <tr key={user.id} data-testid="person-row" className={user.disabled ? "text-text-muted" : undefined}>
              <Td label="Name" wrap className="font-medium">
                {user.name ?? <span className="text-text-muted">(no name)</span>}
              </Td>
              <Td label="Email" wrap className="[overflow-wrap:anywhere]">
                {user.email ?? <span className="text-text-muted">(none verified)</span>}
              </Td>
              <Td label="Groups" wrap>
                {user.groups.length === 0 ? <span className="text-text-muted">none</span> : <span className="flex flex-wrap gap-1">{user.groups.map((group) => <Badge key={group}>{group}</Badge>)}</span>}
              </Td>
              <Td label="Last sign-in" className="text-xs tabular-nums">
                {formatUtcTimestamp(user.lastSignInAt) ?? "never"}
              </Td>
              <Td label="Server admin">
                <label className="inline-flex items-center gap-1.5 text-xs">
                  <input
                    type="checkbox"
                    checked={user.serverAdmin}
                    disabled={update.isPending}
                    onChange={(event) => update.mutate({ id: user.id, changes: { serverAdmin: event.target.checked } })}
                    aria-label={`${user.name ?? user.email ?? user.id} is a server admin`}
                  />
                  {user.serverAdmin ? "yes" : "no"}
                </label>
              </Td>
              <Td label="Status">
                <span className="inline-flex items-center gap-2">
                  {user.disabled ? <Badge tone="bad">disabled {user.disabledAt?.slice(0, 10)}</Badge> : <Badge tone="good">active</Badge>}
                  <button
                    type="button"
                    disabled={update.isPending}
                    onClick={() => update.mutate({ id: user.id, changes: { disabled: !user.disabled } })}
                    className="rounded border border-border px-2 py-0.5 text-xs hover:text-bad disabled:opacity-60"
                  >
                    {user.disabled ? "Enable" : "Disable"}
                  </button>
                </span>
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
      {users.data.more && <p className="text-xs text-text-muted">The 1,000 most recent sign-ins are listed.</p>}
      <p className="text-xs text-text-muted">
        Disabling someone stops their sessions at their next request and refuses their sign-in. Project roles are granted per project, in its Settings → Members and roles.
      </p>
    </div>
  );
}
