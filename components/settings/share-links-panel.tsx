"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { formatUtcTimestamp } from "@/components/runs/display";
import { CopyButton } from "@/components/ui/copy-button";
import type { RouterOutputs } from "@/server/api/root";
import { Problem } from "./problem";

type ShareLinkRow = RouterOutputs["share"]["list"][number];

/** What a link opens, in words: one run, or a comparison of so many runs against so many. */
function describeScope(scope: ShareLinkRow["scope"]): string {
  if (scope.kind === "run") return `Run ${scope.runId}`;
  const count = (side: string) => side.split(",").filter(Boolean).length;
  const runs = (n: number) => `${n} run${n === 1 ? "" : "s"}`;
  return `Comparison: ${runs(count(scope.base))} vs ${runs(count(scope.head))}${scope.tool === null ? "" : ` (${scope.tool})`}, and their runs`;
}

const STATUS_LOOK: Record<ShareLinkRow["status"], string> = {
  open: "text-good",
  expired: "text-text-muted",
  revoked: "text-bad",
};

/**
 * The project's share links (admin): what each opens, who minted it and when, until when it opens, and
 * Revoke. Links minted before links were stored are in no list (docs/sharing.md).
 */
export function ShareLinksPanel({ project }: { project: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // Mounted only once the admin is signed in: never cached across sessions, and a refusal is final.
  const links = useQuery(trpc.share.list.queryOptions({ project }, { staleTime: 0, gcTime: 0, retry: false }));
  const revoke = useMutation(trpc.share.revoke.mutationOptions({ onSuccess: () => queryClient.invalidateQueries(trpc.share.list.queryFilter({ project })) }));
  const problem = revoke.error ?? links.error;

  return (
    <div className="space-y-3" data-testid="share-links-panel">
      <p className="text-xs text-text-muted">
        Read-only links to one comparison or one run, minted with a page&apos;s Share button or by CI for a private server&apos;s PR comments.
        A revoked link opens nothing from then on.
      </p>
      {problem && <Problem error={problem} />}
      {links.data && links.data.length === 0 && <p className="text-sm text-text-muted">No share links yet.</p>}
      {links.data && links.data.length > 0 && (
        <ul className="divide-y divide-border rounded-md border border-border text-sm">
          {links.data.map((link) => (
            <li key={link.id} className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 px-3 py-2" data-testid="share-link-row">
              <div className="min-w-0 flex-1 basis-60 space-y-0.5">
                <a href={link.page} className="block font-medium [overflow-wrap:anywhere] hover:underline" data-testid="share-link-scope">
                  {describeScope(link.scope)}
                </a>
                <p className="text-xs text-text-muted">
                  <code className="break-all">{link.url}</code>
                </p>
                <p className="text-xs text-text-muted">
                  created {formatUtcTimestamp(link.createdAt)} by {link.createdBy} ·{" "}
                  {link.status === "revoked" ? (
                    <span className={STATUS_LOOK.revoked}>revoked {formatUtcTimestamp(link.revokedAt)}</span>
                  ) : (
                    <span className={STATUS_LOOK[link.status]}>
                      {link.status === "expired" ? "expired" : "open until"} {formatUtcTimestamp(link.expiresAt)}
                    </span>
                  )}
                </p>
              </div>
              {link.status === "open" && (
                <div className="flex shrink-0 items-center gap-2">
                  <CopyButton text={link.url} label="the share link" idleText="Copy link" />
                  <button
                    type="button"
                    onClick={() => revoke.mutate({ project, id: link.id })}
                    disabled={revoke.isPending}
                    className="rounded border border-border px-2 py-0.5 text-xs hover:text-bad disabled:opacity-60"
                    data-testid="share-link-revoke"
                  >
                    Revoke
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
