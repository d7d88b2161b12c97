"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { cn } from "@/components/lib/cn";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Badge } from "@/components/ui/badge";
import { CopyButton } from "@/components/ui/copy-button";
import type { TokenScope } from "@/server/domain/access/roles";
import { DEFAULT_TOKEN_SCOPES } from "@/server/domain/access/roles";
import { DEFAULT_TOKEN_NAME } from "@/server/schemas/tokens";
import { Problem } from "./problem";
import type { ExpiryChoice, TokenRow } from "./tokens-view";
import { EXPIRY_CHOICES, describeCreation, describeExpiry, describeLastUse, expiryInput, scopeChoices, tokenSnippet } from "./tokens-view";

const SCOPE_CHOICES = scopeChoices();
const FIELD = "h-8 rounded border border-border bg-surface px-2 text-sm";

/** Tomorrow's date (UTC), the earliest a custom expiry may be: "2026-12-01". */
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/**
 * The project's tokens: create one with its name, scopes and expiry (the secret is shown once, with what
 * to run with it), list them with what each may do, until when, when last used and who made it; revoke.
 */
export function TokensPanel({ project }: { project: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState(DEFAULT_TOKEN_NAME);
  const [scopes, setScopes] = useState<readonly TokenScope[]>(DEFAULT_TOKEN_SCOPES);
  const [expiry, setExpiry] = useState<ExpiryChoice>("never");
  const [date, setDate] = useState("");
  // Mounted only once the admin is signed in: never cached across sessions, and a refusal is final.
  const tokens = useQuery(trpc.token.list.queryOptions({ project }, { staleTime: 0, gcTime: 0, retry: false }));
  const reload = () => queryClient.invalidateQueries(trpc.token.list.queryFilter({ project }));
  const create = useMutation(trpc.token.create.mutationOptions({ onSuccess: reload }));
  const revoke = useMutation(trpc.token.revoke.mutationOptions({ onSuccess: reload }));
  const problem = create.error ?? revoke.error ?? tokens.error;
  const created = create.data;
  const toggle = (scope: TokenScope, on: boolean) => setScopes((current) => (on ? [...current, scope] : current.filter((kept) => kept !== scope)));

  return (
    <div className="space-y-3" data-testid="tokens-panel">
      <p className="text-xs text-text-muted">
        A token acts on this project only, with the scopes it was given: CI&apos;s needs <em>upload</em> only. Its secret is shown once, when it
        is made.
      </p>
      {problem && <Problem error={problem} />}
      {created && (
        <div role="status" className="space-y-2 rounded-md border border-good p-3 text-sm">
          <p className="font-medium">Token “{created.name}” created. Copy it now: it is not shown again.</p>
          <div className="flex flex-wrap items-center gap-2">
            <code className="break-all rounded bg-surface-muted px-2 py-1" data-testid="new-token">
              {created.token}
            </code>
            <CopyButton text={created.token} label="the new token" />
          </div>
          <pre className="overflow-x-auto rounded-md bg-surface-muted p-3 text-xs" data-testid="new-token-snippet">
            <code>{tokenSnippet(window.location.origin, project, created.token, created.scopes)}</code>
          </pre>
        </div>
      )}
      <form
        className="space-y-2"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate({ project, name, scopes: [...scopes], ...expiryInput(expiry, date) });
        }}
      >
        <div className="flex flex-wrap items-end gap-3">
          <label className="flex flex-col text-xs">
            name
            <input value={name} onChange={(event) => setName(event.target.value)} required maxLength={100} className={FIELD} data-testid="token-name" />
          </label>
          <label className="flex flex-col text-xs">
            expires
            <select value={expiry} onChange={(event) => setExpiry(event.target.value as ExpiryChoice)} className={FIELD} data-testid="token-expiry">
              {EXPIRY_CHOICES.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
          </label>
          {expiry === "custom" && (
            <label className="flex flex-col text-xs">
              on (00:00 UTC)
              <input type="date" value={date} min={tomorrow()} onChange={(event) => setDate(event.target.value)} required className={FIELD} data-testid="token-expiry-date" />
            </label>
          )}
        </div>
        <fieldset className="space-y-1">
          <legend className="text-xs">may</legend>
          {SCOPE_CHOICES.map((choice) => (
            <label key={choice.scope} className="flex items-baseline gap-2 text-sm">
              <input type="checkbox" checked={scopes.includes(choice.scope)} onChange={(event) => toggle(choice.scope, event.target.checked)} data-testid={`token-scope-${choice.scope}`} />
              <span>
                <code>{choice.scope}</code> <span className="text-text-muted">— {choice.opens}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={create.isPending || scopes.length === 0} className="rounded-md border border-border px-3 py-1.5 text-sm disabled:opacity-60">
          Create token
        </button>
      </form>
      {tokens.data && tokens.data.length === 0 && <p className="text-sm text-text-muted">No tokens yet.</p>}
      {tokens.data && tokens.data.length > 0 && (
        <ul className="divide-y divide-border rounded-md border border-border text-sm">
          {tokens.data.map((row) => (
            <TokenListItem key={row.id} row={row} now={tokens.dataUpdatedAt} onRevoke={() => revoke.mutate({ project, id: row.id })} revoking={revoke.isPending} />
          ))}
        </ul>
      )}
    </div>
  );
}

/** One token; `now`: when the list was read, the moment its "in 29 d" and "3 h ago" are told from. */
function TokenListItem({ row, now, onRevoke, revoking }: { row: TokenRow; now: number; onRevoke: () => void; revoking: boolean }) {
  const expiry = describeExpiry(row, now);
  return (
    <li className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 px-3 py-2" data-testid="token-row">
      <div className={cn("min-w-0 flex-1 basis-60 space-y-0.5", row.status === "revoked" && "opacity-60")}>
        <p className="flex flex-wrap items-center gap-1.5">
          <span className="font-medium [overflow-wrap:anywhere]">{row.name}</span>
          <code className="text-xs text-text-muted">{row.prefix}…</code>
          {row.scopes.map((scope) => (
            <Badge key={scope} tone="accent">
              {scope}
            </Badge>
          ))}
        </p>
        <p className="text-xs text-text-muted">
          {row.status === "revoked" && row.revokedAt ? (
            <span className="text-bad">revoked {row.revokedAt.toISOString().slice(0, 10)}</span>
          ) : (
            <span className={cn(expiry.isExpired && "font-medium text-bad")} data-testid="token-expiry-text">
              {expiry.text}
            </span>
          )}{" "}
          · <span data-testid="token-last-use">{describeLastUse(row.lastUsedAt, now)}</span> · {describeCreation(row)}
        </p>
      </div>
      {row.status !== "revoked" && (
        <button type="button" onClick={onRevoke} disabled={revoking} className="shrink-0 rounded border border-border px-2 py-0.5 text-xs hover:text-bad disabled:opacity-60">
          Revoke
        </button>
      )}
    </li>
  );
}
