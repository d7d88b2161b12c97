"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { CopyButton } from "@/components/ui/copy-button";
import { Problem } from "./problem";

/** The day of a timestamp, as the list shows it (2026-11-01). */
const day = (date: Date) => date.toISOString().slice(0, 10);

/** Upload tokens of the project: list, create (the secret is shown once), revoke. */
export function TokensPanel({ project }: { project: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState("ci");
  // Mounted only once the admin token is entered: never cached across tokens, and a refusal is final.
  const tokens = useQuery(trpc.token.list.queryOptions({ project }, { staleTime: 0, gcTime: 0, retry: false }));
  const reload = () => queryClient.invalidateQueries(trpc.token.list.queryFilter({ project }));
  const create = useMutation(trpc.token.create.mutationOptions({ onSuccess: reload }));
  const revoke = useMutation(trpc.token.revoke.mutationOptions({ onSuccess: reload }));
  const problem = create.error ?? revoke.error ?? tokens.error;
  const created = create.data;

  return (
    <div className="space-y-3" data-testid="tokens-panel">
      {problem && <Problem error={problem} />}
      {created && (
        <div role="status" className="rounded-md border border-good p-3 text-sm">
          <p className="font-medium">Token “{created.name}” created. Copy it now: it is not shown again.</p>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <code className="break-all rounded bg-surface-muted px-2 py-1" data-testid="new-token">
              {created.token}
            </code>
            <CopyButton text={created.token} label="the new token" />
          </div>
        </div>
      )}
      <div className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col text-xs">
          name
          <input value={name} onChange={(event) => setName(event.target.value)} className="rounded border border-border bg-surface px-2 py-1 text-sm" />
        </label>
        <button type="button" onClick={() => create.mutate({ project, name })} disabled={create.isPending} className="rounded-md border border-border px-3 py-1.5 text-sm disabled:opacity-60">
          Create token
        </button>
      </div>
      {tokens.data && tokens.data.length === 0 && <p className="text-sm text-text-muted">No tokens yet.</p>}
      {tokens.data && tokens.data.length > 0 && (
        <ul className="divide-y divide-border rounded-md border border-border text-sm">
          {tokens.data.map((row) => (
            <li key={row.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
              <span>
                <code>{row.prefix}…</code> {row.name}{" "}
                <span className="text-xs text-text-muted">
                  created {day(row.createdAt)}
                  {row.lastUsedAt ? `, last used ${day(row.lastUsedAt)}` : ", never used"}
                </span>
              </span>
              {row.revokedAt ? (
                <span className="text-xs text-text-muted">revoked {day(row.revokedAt)}</span>
              ) : (
                <button type="button" onClick={() => revoke.mutate({ project, id: row.id })} className="rounded border border-border px-2 py-0.5 text-xs hover:text-bad">
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
