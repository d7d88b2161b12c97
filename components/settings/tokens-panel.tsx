"use client";

import { useCallback, useEffect, useState } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { adminFetch, isProblem } from "./admin-token";
import type { ApiProblem } from "./admin-token";
import { Problem } from "./problem";

interface TokenRow {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** Upload tokens of the project: list, create (the secret is shown once), revoke. */
export function TokensPanel({ project, token }: { project: string; token: string }) {
  const base = `/api/v1/projects/${encodeURIComponent(project)}/tokens`;
  const [tokens, setTokens] = useState<TokenRow[] | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [name, setName] = useState("ci");

  const load = useCallback(async () => {
    const result = await adminFetch<{ tokens: TokenRow[] }>(token, base);
    if (isProblem(result)) setProblem(result);
    else setTokens(result.tokens);
  }, [base, token]);

  useEffect(() => {
    let cancelled = false;
    void adminFetch<{ tokens: TokenRow[] }>(token, base).then((result) => {
      if (cancelled) return;
      if (isProblem(result)) setProblem(result);
      else setTokens(result.tokens);
    });
    return () => {
      cancelled = true;
    };
  }, [base, token]);

  async function create() {
    const result = await adminFetch<{ name: string; token: string }>(token, base, { method: "POST", body: JSON.stringify({ name }) });
    if (isProblem(result)) return setProblem(result);
    setCreated(result);
    setProblem(null);
    await load();
  }

  async function revoke(id: string) {
    const result = await adminFetch(token, `${base}/${id}`, { method: "DELETE" });
    if (isProblem(result)) return setProblem(result);
    await load();
  }

  return (
    <div className="space-y-3" data-testid="tokens-panel">
      {problem && <Problem problem={problem} />}
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
        <button type="button" onClick={() => void create()} className="rounded-md border border-border px-3 py-1.5 text-sm">
          Create token
        </button>
      </div>
      {tokens && tokens.length === 0 && <p className="text-sm text-text-muted">No tokens yet.</p>}
      {tokens && tokens.length > 0 && (
        <ul className="divide-y divide-border rounded-md border border-border text-sm">
          {tokens.map((row) => (
            <li key={row.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
              <span>
                <code>{row.prefix}…</code> {row.name}{" "}
                <span className="text-xs text-text-muted">
                  created {row.createdAt.slice(0, 10)}
                  {row.lastUsedAt ? `, last used ${row.lastUsedAt.slice(0, 10)}` : ", never used"}
                </span>
              </span>
              {row.revokedAt ? (
                <span className="text-xs text-text-muted">revoked {row.revokedAt.slice(0, 10)}</span>
              ) : (
                <button type="button" onClick={() => void revoke(row.id)} className="rounded border border-border px-2 py-0.5 text-xs hover:text-bad">
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
