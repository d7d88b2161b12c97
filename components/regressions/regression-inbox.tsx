import Link from "next/link";
import { StatusActions } from "@/components/regressions/status-actions";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { cn } from "@/components/lib/cn";
import { STACKED_LEAD, STACKED_PAIR_ROW, Table, Td, Th } from "@/components/ui/table";
import type { RouterOutputs } from "@/server/api/root";
import { formatDeltaPct, formatPValue } from "@/server/domain/format";
import { metricDefinition } from "@/server/domain/metrics";
import { countNouns, formatSeriesMetric, metricShortName, seriesDisplayName, seriesKindOf, seriesKindsOf, wordsOf } from "@/server/domain/series-kind";
import type { SeriesKinds } from "@/server/domain/series-kind";
import { pagePaths } from "@/server/domain/urls";
import { groupIntoIncidents } from "./incidents";

type Inbox = RouterOutputs["regression"]["inbox"];
type Regression = Inbox["regressions"][number];

export const INBOX_STATUSES = ["open", "acknowledged", "dismissed", "all"] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];

/** The regressions inbox: steps detected on the default branch, regressions then improvements. */
export function RegressionInbox({ inbox }: { inbox: Inbox }) {
  const { project, status, regressions, improvements } = inbox;
  const incidentCount = groupIntoIncidents(regressions).length;
  const rows = [...regressions, ...improvements];
  // Each change in its own words (server/domain/series-kind.ts); the page's, from its rows or the project's runs.
  const kind: SeriesKinds = rows.length > 0 ? seriesKindsOf(rows.map(protocolOf)) : project.hasOnlyBenchmarks ? "benchmark" : "endpoint";
  const words = wordsOf(kind);
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-xl font-semibold">Regressions</h1>
          <p className="text-sm text-text-muted">
            Steps detected in each {words.noun}&apos;s history on <code>{project.defaultBranch}</code> (change points, per label), newest
            first.
          </p>
        </div>
        <nav aria-label="Status" className="flex gap-1 text-sm">
          {INBOX_STATUSES.map((value) => (
            <Link
              key={value}
              href={pagePaths.regressions(project.slug, value === "open" ? undefined : `status=${value}`)}
              aria-current={value === status ? "page" : undefined}
              className="rounded border border-border px-2 py-0.5 text-text-muted aria-[current=page]:border-accent aria-[current=page]:text-text"
            >
              {value}
            </Link>
          ))}
        </nav>
      </div>
      <Card title={`Regressions (${regressions.length}${incidentCount > 0 ? ` in ${incidentCount} ${incidentCount === 1 ? "incident" : "incidents"}` : ""})`}>
        {regressions.length === 0 ? (
          <EmptyState title={status === "open" ? "No open regressions" : `No ${status === "all" ? "" : `${status} `}regressions`}>
            Each upload on {project.defaultBranch} is checked: a lasting step up in {words.latency} (at least 6 runs on each side) opens
            one here.
          </EmptyState>
        ) : (
          <RegressionTable slug={project.slug} rows={regressions} kind={kind} testId="regressions" />
        )}
      </Card>
      <Card title={`Improvements (${improvements.length})`}>
        {improvements.length === 0 ? (
          <p className="text-sm text-text-muted">No lasting improvements detected{status === "all" ? "" : ` (${status})`}.</p>
        ) : (
          <RegressionTable slug={project.slug} rows={improvements} kind={kind} testId="improvements" />
        )}
      </Card>
    </div>
  );
}

/** A change's endpoint protocol ("benchmark" for a benchmark); null for the aggregate's. */
function protocolOf(row: Regression): string | null {
  return row.endpoint?.protocol ?? null;
}

/** A custom metric's unit is not known here ("metrics.<key>"): its value is shown as a number. */
function unitOf(metric: string): string | null {
  return metricDefinition(metric)?.unit ?? null;
}

function runName(row: Regression): string {
  return [row.firstRun.label, row.firstRun.round !== null ? `#${row.firstRun.round}` : null].filter(Boolean).join(" ") || "run";
}

function runContext(row: Regression): string {
  return `${row.firstRun.startedAt.toISOString().slice(0, 10)}${row.firstRun.gitCommit ? ` @ ${row.firstRun.gitCommit.slice(0, 7)}` : ""}`;
}

const COLUMNS = 8;

/**
 * Below `sm` each change is a section of its incident's card, what a reviewer weighs first on top:
 * endpoint and metric, Δ and p, before → after; then when, its status, and the links and actions.
 */
const PHONE = {
  endpoint: "max-sm:order-1 max-sm:[overflow-wrap:anywhere]",
  metric: "max-sm:order-2 max-sm:text-right max-sm:font-medium",
  delta: `max-sm:order-3 ${STACKED_LEAD}`,
  p: "max-sm:order-4 max-sm:self-end",
  values: "max-sm:order-5 max-sm:col-span-2 max-sm:text-left",
  detected: "max-sm:order-6 max-sm:text-xs",
  status: "max-sm:order-7 max-sm:text-right",
  links: "max-sm:order-8 max-sm:col-span-2",
} as const;

/** One table, one body per incident: a heading row (the run where it began, how wide) and its changes; a card per incident below `sm`. */
function RegressionTable({ slug, rows, kind, testId }: { slug: string; rows: Regression[]; kind: SeriesKinds; testId: string }) {
  const incidents = groupIntoIncidents(rows);
  return (
    <Table label="Detected changes by incident, newest first" stacked>
      <thead>
        <tr>
          <Th>Detected</Th>
          <Th>{wordsOf(kind).nounTitle}</Th>
          <Th>Metric</Th>
          <Th numeric>Before → after</Th>
          <Th numeric>Δ</Th>
          <Th numeric>p</Th>
          <Th>Status</Th>
          <Th>Links</Th>
        </tr>
      </thead>
      {incidents.map((incident) => {
        const first = incident.rows[0]!;
        const firstKind = seriesKindOf(protocolOf(first));
        return (
          <tbody key={incident.firstRunId} data-testid={testId}>
            <tr data-testid="incident" className="bg-surface-muted">
              <th scope="rowgroup" colSpan={COLUMNS} className="px-3 py-2 text-left text-sm font-normal">
                <span className="font-medium">
                  {incident.rows.length} {incident.rows.length === 1 ? "change" : "changes"} on{" "}
                  {countNouns(incident.endpoints.length, seriesKindsOf(incident.rows.map(protocolOf)))}
                </span>{" "}
                starting at{" "}
                <Link href={pagePaths.run(slug, first.firstRunId)} className="text-accent hover:underline">
                  {runName(first)}
                </Link>{" "}
                <span className="text-xs text-text-muted">{runContext(first)}</span>
                <span className="text-text-muted">
                  {" "}
                  · largest: {seriesDisplayName(first.endpoint?.name ?? null, firstKind)} {metricShortName(first.metric, firstKind)}{" "}
                  {formatDeltaPct(first.deltaPct)}
                </span>
              </th>
            </tr>
            {incident.rows.map((row) => (
              <RegressionRow key={row.id} slug={slug} row={row} />
            ))}
          </tbody>
        );
      })}
    </Table>
  );
}

function RegressionRow({ slug, row }: { slug: string; row: Regression }) {
  const unit = unitOf(row.metric);
  const kind = seriesKindOf(protocolOf(row));
  const endpoint = seriesDisplayName(row.endpoint?.name ?? null, kind);
  const metric = metricShortName(row.metric, kind);
  return (
    <tr id={`regression-${row.id}`} data-testid="regression-row" className={STACKED_PAIR_ROW}>
      <Td label="detected" className={cn("text-text-muted", PHONE.detected)} data-column="detected">
        {row.createdAt.toISOString().slice(0, 16).replace("T", " ")}
      </Td>
      <Td className={cn("font-medium", PHONE.endpoint)} data-column="endpoint">
        {endpoint}
      </Td>
      <Td className={PHONE.metric} data-column="metric">
        {metric}
      </Td>
      <Td numeric label="before → after" className={PHONE.values} data-column="values">
        {formatSeriesMetric(row.metric, unit, row.beforeValue, kind)} → {formatSeriesMetric(row.metric, unit, row.afterValue, kind)}
      </Td>
      <Td numeric className={cn(row.kind === "regression" ? "text-bad" : "text-good", PHONE.delta)} data-column="delta">
        {formatDeltaPct(row.deltaPct)}
      </Td>
      <Td numeric className={PHONE.p} data-column="p">
        {formatPValue(row.pValue)}
      </Td>
      <Td className={PHONE.status} data-column="status">
        <span className={row.status === "open" ? "font-medium text-bad" : "text-text-muted"}>{row.status}</span>
        {row.statusChangedBy && <span className="block text-xs text-text-muted">by {row.statusChangedBy}</span>}
      </Td>
      <Td className={PHONE.links} data-column="links">
        <span className="flex flex-col gap-1 max-sm:flex-row max-sm:flex-wrap max-sm:items-center max-sm:gap-x-3">
          <span className="flex gap-2 text-xs max-sm:gap-3">
            {row.links.comparePath && (
              <Link href={row.links.comparePath} className="text-accent hover:underline" aria-label={`Before vs after: ${endpoint} ${metric}`}>
                before vs after
              </Link>
            )}
            <Link href={row.links.trendPath} className="text-accent hover:underline" aria-label={`Trend: ${endpoint} ${metric}`}>
              trend
            </Link>
          </span>
          <StatusActions project={slug} id={row.id} status={row.status} />
        </span>
      </Td>
    </tr>
  );
}
