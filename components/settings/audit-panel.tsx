"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { EmptyState } from "@/components/ui/empty-state";
import type { RouterOutputs } from "@/server/api/root";

type AuditEntry = RouterOutputs["settings"]["audit"][number];

const ACTIONS: Record<string, string> = {
  "run.delete": "Run deleted",
  "project.delete": "Project deleted",
  "retention.delete": "Retention sweep",
  "member.grant": "Role granted",
  "member.update": "Role changed",
  "member.remove": "Role removed",
  "project.visibility": "Visibility changed",
};

/** A value of a from → to change in words (null: none, or for visibility the server's default). */
const changeWord = (value: unknown, none: string) => (typeof value === "string" ? value : none);

/** The detail in words: what went ("1 run, 12 results…"). */
function describeDetail(entry: AuditEntry): string {
  const detail = entry.detail;
  const role = detail.role as { from?: unknown; to?: unknown } | undefined;
  if (entry.action.startsWith("member.") && typeof role === "object" && role !== null) {
    return `${String(detail.kind)} ${String(detail.subject)}: ${changeWord(role.from, "none")} → ${changeWord(role.to, "none")}`;
  }
  if (entry.action === "project.visibility") return `${changeWord(detail.from, "server default")} → ${changeWord(detail.to, "server default")}`;
  const parts: string[] = [];
  const count = (key: string, word: string) => {
    const value = detail[key];
    if (typeof value === "number" && value > 0) parts.push(`${value} ${word}${value === 1 ? "" : "s"}`);
  };
  count("runs", "run");
  count("changes", "change");
  count("baselinePins", "pin");
  count("shareLinksRevoked", "share link revoked");
  const incidents = detail.incidents;
  if (Array.isArray(incidents) && incidents.length > 0) parts.push(`incident${incidents.length === 1 ? "" : "s"} ${incidents.map((n) => `#${String(n)}`).join(", ")} removed`);
  return parts.join(", ");
}

/** The project's audit entries, newest first: read-only (the admin's; GET /api/v1/projects/:project/audit). */
export function AuditPanel({ project }: { project: string }) {
  const trpc = useTRPC();
  const entries = useQuery(trpc.settings.audit.queryOptions({ project, limit: 20 }));
  if (!entries.data) return <p className="text-sm text-text-muted">{entries.error ? entries.error.message : "Loading…"}</p>;
  if (entries.data.length === 0) return <EmptyState title="Nothing recorded yet">Deletions (runs, retention sweeps) are recorded here.</EmptyState>;
  return (
    <ul className="divide-y divide-border text-sm" data-testid="audit-list">
      {entries.data.map((entry) => (
        <li key={entry.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5 py-1.5">
          <time dateTime={entry.at} className="tabular-nums text-text-muted">
            {entry.at.slice(0, 16).replace("T", " ")} UTC
          </time>
          <span className="font-medium">{ACTIONS[entry.action] ?? entry.action}</span>
          {entry.targetId && entry.action === "run.delete" && <code className="text-xs">{entry.targetId}</code>}
          <span className="text-text-muted">{describeDetail(entry)}</span>
          <span className="ml-auto text-xs text-text-muted">by {entry.actor}</span>
        </li>
      ))}
    </ul>
  );
}
