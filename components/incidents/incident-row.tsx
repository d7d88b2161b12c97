"use client";

import Link from "next/link";
import { formatRunTime } from "@/components/history/run-time";
import { cn } from "@/components/lib/cn";
import { useHydrated } from "@/components/ui/use-hydrated";
import type { RouterOutputs } from "@/server/api/root";
import { pagePaths } from "@/server/domain/urls";
import { describeLastChange, runName, summarizeIncident } from "./display";
import { IncidentRegressions } from "./incident-regressions";
import { IncidentStateBadge } from "./state-badge";

export type InboxIncident = RouterOutputs["incident"]["inbox"]["incidents"][number];

/**
 * The inbox's columns at `sm` and wider: a checkbox (for those who may triage), the incident, what moved,
 * the first run, when it opened and who changed it last. Below `sm` each row is a card: the checkbox
 * beside a column of the rest.
 */
export function inboxGrid(selectable: boolean): string {
  return selectable
    ? "grid grid-cols-[1.5rem_minmax(0,1fr)] gap-x-3 gap-y-1.5 sm:grid-cols-[1.5rem_10.5rem_minmax(0,1fr)_minmax(0,12rem)_minmax(0,13rem)] sm:gap-x-4"
    : "grid grid-cols-1 gap-y-1.5 sm:grid-cols-[10.5rem_minmax(0,1fr)_minmax(0,12rem)_minmax(0,13rem)] sm:gap-x-4";
}

/**
 * One incident of the inbox: its number and state, what moved (endpoints, the largest change), the run
 * where the step began, when it opened and who changed it last; a checkbox for bulk triage (admins) and
 * its regressions, shown on demand.
 */
export function IncidentRow({
  slug,
  incident,
  selectable,
  selected,
  onSelect,
  expanded,
  onExpand,
}: {
  slug: string;
  incident: InboxIncident;
  selectable: boolean;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  expanded: boolean;
  onExpand: (expanded: boolean) => void;
}) {
  const summary = summarizeIncident(incident.regressions);
  const last = describeLastChange(incident);
  const run = incident.firstRun;
  const regionId = `incident-${incident.number}-regressions`;
  const hydrated = useHydrated();
  return (
    <li
      data-testid="incident-row"
      data-number={incident.number}
      className="border-border border-b px-3 py-3 last:border-b-0 sm:px-4"
    >
      <div className={inboxGrid(selectable)}>
        {selectable && (
          <div className="row-span-5 pt-0.5 sm:row-span-1">
            <input
              type="checkbox"
              checked={selected}
              disabled={!hydrated}
              onChange={(event) => onSelect(event.target.checked)}
              aria-label={`Select incident #${incident.number}`}
              className="accent-accent h-4 w-4"
            />
          </div>
        )}
        <div className="flex flex-wrap items-center gap-2">
          <Link
            href={pagePaths.incident(slug, incident.number)}
            className="text-accent font-semibold hover:underline"
            data-testid="incident-link"
          >
            Incident #{incident.number}
          </Link>
          <IncidentStateBadge state={incident.state} />
        </div>
        <div className="min-w-0 text-sm" data-testid="incident-summary">
          <p className="[overflow-wrap:anywhere]">
            <span className="font-medium">{summary.endpoints.join(", ") || "—"}</span>
            {summary.moreEndpoints > 0 && <span className="text-text-muted"> +{summary.moreEndpoints} more</span>}
            <span className="text-text-muted">
              {" "}
              · {summary.changes} {summary.changes === 1 ? "change" : "changes"}
            </span>
          </p>
          {summary.largest && (
            <p className="text-text-muted">
              largest: {summary.largest.series} {summary.largest.metric}{" "}
              <span className="text-text whitespace-nowrap tabular-nums" data-column="values">
                {summary.largest.values}
              </span>{" "}
              <span className="text-bad font-semibold whitespace-nowrap tabular-nums" data-column="delta">
                {summary.largest.delta}
              </span>
            </p>
          )}
        </div>
        <div className="min-w-0 text-sm" data-column="first-run">
          <span className="text-text-muted text-xs sm:hidden">first run </span>
          <Link href={pagePaths.run(slug, run.id)} className="text-accent hover:underline">
            {runName(run)}
          </Link>
          <span className="text-text-muted block text-xs max-sm:inline">
            <span className="max-sm:hidden">{formatRunTime(run.startedAt)}</span>
            <span className="sm:hidden"> · {formatRunTime(run.startedAt)}</span>
            {run.gitCommit && (
              <>
                {" "}
                · <code>{run.gitCommit.slice(0, 7)}</code>
              </>
            )}
          </span>
        </div>
        <div className="text-text-muted min-w-0 text-xs" data-column="changed">
          <span className="block">
            opened <span className="text-text">{formatRunTime(incident.createdAt)}</span>
          </span>
          <span className="block [overflow-wrap:anywhere]" title="Who changed its state last">
            {last === null ? (
              "not triaged yet"
            ) : (
              <>
                {last.by} · {last.at}
              </>
            )}
          </span>
        </div>
      </div>
      <div className={cn("mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs", selectable && "ml-9 sm:ml-10")}>
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={regionId}
          onClick={() => onExpand(!expanded)}
          className="text-accent hover:underline"
        >
          {expanded ? "Hide" : "Show"} its {summary.changes} {summary.changes === 1 ? "regression" : "regressions"}
        </button>
        {incident.comparePath && (
          <Link href={incident.comparePath} className="text-accent hover:underline">
            before vs after
          </Link>
        )}
        {incident.returned.count > 0 && (
          <span className="text-good">
            {incident.returned.count} of {incident.returned.of} series back
          </span>
        )}
      </div>
      {expanded && (
        <div id={regionId} className={cn("mt-3", selectable && "sm:ml-10")}>
          <IncidentRegressions
            slug={slug}
            regressions={incident.regressions}
            label={`Regressions of incident #${incident.number}`}
          />
        </div>
      )}
    </li>
  );
}
