"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { formatRunTime } from "@/components/charts/time-axis";
import { EmptyState } from "@/components/ui/empty-state";
import type { RouterOutputs } from "@/server/api/root";
import type { AuditAction } from "@/server/domain/audit/actions";
import { AUDIT_ACTIONS, AUDIT_ACTION_WORDS } from "@/server/domain/audit/actions";
import { describeAuditEntry, isAuditAction } from "@/server/domain/audit/describe-entry";

type AuditEntry = RouterOutputs["settings"]["audit"]["entries"][number];

/** Entries per page. */
const PAGE_SIZE = 25;

/**
 * The project's audit trail, newest first: when, who, what, and each changed field from → to
 * (describeAuditEntry); a filter by action, and "Older" for the next page
 * (GET /api/v1/projects/:project/audit, the same pages).
 */
export function AuditPanel({ project }: { project: string }) {
  const [action, setAction] = useState<AuditAction | "">("");
  // The cursor of each page shown after the first (a page's nextBefore).
  const [cursors, setCursors] = useState<string[]>([]);
  return (
    <div className="space-y-2">
      <label className="flex items-center gap-2 text-sm">
        <span className="text-text-muted">Show</span>
        <select
          value={action}
          onChange={(event) => {
            const value = event.target.value;
            setAction(isAuditAction(value) ? value : "");
            setCursors([]);
          }}
          className="rounded border border-border bg-surface px-2 py-1"
          data-testid="audit-action-filter"
        >
          <option value="">every action</option>
          {AUDIT_ACTIONS.map((name) => (
            <option key={name} value={name}>
              {name} — {AUDIT_ACTION_WORDS[name]}
            </option>
          ))}
        </select>
      </label>
      <ul className="divide-y divide-border text-sm" data-testid="audit-list">
        {[undefined, ...cursors].map((before, index) => (
          <AuditPage
            key={before ?? "first"}
            project={project}
            action={action}
            before={before}
            isLast={index === cursors.length}
            onOlder={(next) => setCursors((shown) => [...shown, next])}
          />
        ))}
      </ul>
    </div>
  );
}

function AuditPage({
  project,
  action,
  before,
  isLast,
  onOlder,
}: {
  project: string;
  action: AuditAction | "";
  before: string | undefined;
  isLast: boolean;
  onOlder: (next: string) => void;
}) {
  const trpc = useTRPC();
  const page = useQuery(
    trpc.settings.audit.queryOptions({ project, limit: PAGE_SIZE, ...(before !== undefined && { before }), ...(action !== "" && { action }) }),
  );
  if (!page.data) return <li className="py-1.5 text-text-muted">{page.error ? page.error.message : "Loading…"}</li>;
  if (page.data.entries.length === 0 && before === undefined) {
    return (
      <li className="py-1.5">
        <EmptyState title="Nothing recorded yet">
          Changes to settings, tokens, the webhook, share links, incidents, annotations, baseline pins and deletions are recorded here.
        </EmptyState>
      </li>
    );
  }
  const next = page.data.nextBefore;
  return (
    <>
      {page.data.entries.map((entry) => (
        <AuditRow key={entry.id} entry={entry} />
      ))}
      {isLast && next !== null && (
        <li className="py-2">
          <button type="button" onClick={() => onOlder(next)} className="rounded-md border border-border px-3 py-1 text-sm hover:bg-surface-muted" data-testid="audit-older">
            Older
          </button>
        </li>
      )}
    </>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const { headline, changes, facts } = describeAuditEntry(entry);
  return (
    <li className="grid gap-x-3 gap-y-0.5 py-2 sm:grid-cols-[9.5rem_1fr]" data-testid="audit-entry" data-action={entry.action}>
      <time dateTime={entry.at} className="tabular-nums text-text-muted">
        {formatRunTime(new Date(entry.at))}
      </time>
      <div className="min-w-0 space-y-0.5">
        <p>
          <span className="font-medium">{entry.actor}</span> <span>{headline}</span>{" "}
          <code className="text-xs text-text-muted">{entry.action}</code>
          {facts.length > 0 && <span className="text-text-muted"> · {facts.join(" · ")}</span>}
        </p>
        {changes.length > 0 && (
          <ul className="space-y-0.5 text-xs">
            {changes.map((change) => (
              <li key={change.field} className="break-words">
                <span className="text-text-muted">{change.field}:</span> <del className="text-text-muted">{change.from}</del> →{" "}
                <ins className="no-underline">{change.to}</ins>
              </li>
            ))}
          </ul>
        )}
      </div>
    </li>
  );
}
