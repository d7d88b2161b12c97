import type { PrismaClient } from "../generated/prisma/client";
import { listRuns } from "./runs";

/**
 * The project overview (`/projects/{p}`): per endpoint (and for the run aggregate) the latest
 * numbers, a p95 sparkline of the last SERIES_LENGTH runs that include it, and a trend arrow; plus
 * the most recent runs.
 *
 * Query strategy: the last SERIES_LENGTH results of EVERY endpoint come from one statement, a
 * LATERAL join of the project's endpoints onto `results`, each a bounded range scan of the
 * (project_id, endpoint_id, started_at DESC) index, so it reads endpoints × 30 index entries however
 * long the history is. A ROW_NUMBER() OVER (PARTITION BY endpoint_id …) window would read and rank
 * every result of the project first: on PostgreSQL 15 with 5,000 runs × 20 endpoints, ~1 ms against
 * ~180 ms. The aggregate's series walks the runs index instead (last 30 runs, then their aggregate
 * row by run_id): PostgreSQL does not use the results index's order under `endpoint_id IS NULL`.
 */

export const SERIES_LENGTH = 30;
/** The trend compares the latest p95 with the median of up to this many previous runs… */
export const TREND_WINDOW = 10;
/** …and calls it a change beyond ±5%. */
export const TREND_THRESHOLD = 0.05;
export const RECENT_RUNS = 10;

export interface SeriesResult {
  runId: string;
  startedAt: Date;
  requests: number | null;
  errorRate: number | null;
  throughput: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
}

/** A sparkline point: x is the run's start time (epoch ms), y the value or null when missing. */
export interface SeriesPoint {
  x: number;
  y: number | null;
}

export type Trend =
  | { kind: "insufficient"; reason: string }
  | {
      kind: "change";
      /** up: the latest p95 is > 5% above the median (worse for latency); down: > 5% below; flat: within. */
      direction: "up" | "down" | "flat";
      latestMs: number;
      medianMs: number;
      /** (latest − median) / median. */
      relativeDelta: number;
      /** How many previous runs the median is of (1..TREND_WINDOW). */
      previousRuns: number;
    };

/** The median of a non-empty list (mean of the middle two for an even count). */
export function medianOf(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? upper) + upper) / 2;
}

/**
 * The trend arrow's rule: the latest p95 against the median of the previous up-to-TREND_WINDOW runs
 * (runs without a p95 are skipped). The median, not the mean, so one noisy run does not flip it.
 * `newestFirst` are the p95 values of the runs that include the endpoint, newest first.
 */
export function p95TrendOf(newestFirst: readonly (number | null)[]): Trend {
  const [latest, ...rest] = newestFirst;
  if (latest === undefined) return { kind: "insufficient", reason: "no runs yet" };
  if (latest === null) return { kind: "insufficient", reason: "the latest run has no p95" };
  const previous = rest.slice(0, TREND_WINDOW).filter((value): value is number => value !== null);
  const median = medianOf(previous);
  if (median === null) return { kind: "insufficient", reason: "need 2 runs with a p95, have 1" };
  if (median === 0) {
    return latest === 0
      ? { kind: "change", direction: "flat", latestMs: latest, medianMs: 0, relativeDelta: 0, previousRuns: previous.length }
      : { kind: "insufficient", reason: "the previous median is 0 ms, so no relative change" };
  }
  const relativeDelta = (latest - median) / median;
  const direction = relativeDelta > TREND_THRESHOLD ? "up" : relativeDelta < -TREND_THRESHOLD ? "down" : "flat";
  return { kind: "change", direction, latestMs: latest, medianMs: median, relativeDelta, previousRuns: previous.length };
}

/** Sparkline points, oldest → newest, from results given newest first (as the query returns them). */
export function toP95Series(newestFirst: readonly Pick<SeriesResult, "startedAt" | "p95Ms">[]): SeriesPoint[] {
  return newestFirst
    .slice(0, SERIES_LENGTH)
    .map((result) => ({ x: result.startedAt.getTime(), y: result.p95Ms }))
    .reverse();
}

export interface EndpointSummary {
  /** Null for the aggregate ("all endpoints"). */
  id: number | null;
  name: string;
  protocol: string | null;
  latest: SeriesResult;
  /** Whether the project's latest run measured this endpoint (older endpoints are kept, marked). */
  isInLatestRun: boolean;
  series: SeriesPoint[];
  trend: Trend;
}

/** Builds an endpoint's summary from its results, newest first; null when it has none. */
export function summarizeSeries(
  endpoint: { id: number | null; name: string; protocol: string | null },
  newestFirst: readonly SeriesResult[],
  latestRunId: string | null,
): EndpointSummary | null {
  const latest = newestFirst[0];
  if (!latest) return null;
  return {
    ...endpoint,
    latest,
    isInLatestRun: latest.runId === latestRunId,
    series: toP95Series(newestFirst),
    trend: p95TrendOf(newestFirst.map((result) => result.p95Ms)),
  };
}

interface SeriesRow extends SeriesResult {
  endpointId: number | null;
  name: string | null;
  protocol: string | null;
}

/** The last SERIES_LENGTH results of every endpoint of the project and of its aggregate, newest first per endpoint. */
async function findRecentSeries(db: PrismaClient, projectId: string): Promise<SeriesRow[]> {
  return db.$queryRaw<SeriesRow[]>`
    SELECT e.id AS "endpointId", e.name, e.protocol,
           r.run_id AS "runId", r.started_at AS "startedAt", r.requests, r.error_rate AS "errorRate",
           r.throughput, r.p50_ms AS "p50Ms", r.p95_ms AS "p95Ms", r.p99_ms AS "p99Ms"
      FROM endpoints e
      CROSS JOIN LATERAL (
        SELECT run_id, started_at, requests, error_rate, throughput, p50_ms, p95_ms, p99_ms
          FROM results
         WHERE project_id = e.project_id AND endpoint_id = e.id
         ORDER BY started_at DESC, id DESC
         LIMIT ${SERIES_LENGTH}
      ) r
     WHERE e.project_id = ${projectId}
    UNION ALL
    SELECT NULL, NULL, NULL,
           a.run_id, a.started_at, a.requests, a.error_rate, a.throughput, a.p50_ms, a.p95_ms, a.p99_ms
      FROM (
        SELECT id FROM runs
         WHERE project_id = ${projectId}
         ORDER BY started_at DESC, id DESC
         LIMIT ${SERIES_LENGTH}
      ) latest
      JOIN results a ON a.run_id = latest.id AND a.endpoint_id IS NULL`;
}

/**
 * Everything the overview page shows, in three queries (project, series, recent runs). Null when
 * the project does not exist.
 */
export async function getProjectOverview(db: PrismaClient, projectSlug: string) {
  const project = await db.project.findUnique({
    where: { slug: projectSlug },
    select: { id: true, slug: true, name: true, repoUrl: true, defaultBranch: true },
  });
  if (!project) return null;

  const [rows, recent] = await Promise.all([
    findRecentSeries(db, project.id),
    listRuns(db, project.id, { limit: RECENT_RUNS }),
  ]);

  // Rows arrive grouped by endpoint, newest first within each (the ORDER BY of each LATERAL scan);
  // sort again anyway, since UNION ALL promises no order.
  const byEndpoint = new Map<number | null, { name: string; protocol: string | null; results: SeriesResult[] }>();
  for (const { endpointId, name, protocol, ...result } of rows) {
    const entry = byEndpoint.get(endpointId) ?? { name: name ?? "All endpoints", protocol, results: [] };
    entry.results.push({ ...result, startedAt: new Date(result.startedAt) });
    byEndpoint.set(endpointId, entry);
  }
  for (const entry of byEndpoint.values()) entry.results.sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime());

  const latestRunId = recent.runs[0]?.id ?? null;
  const aggregateEntry = byEndpoint.get(null);
  const aggregate = aggregateEntry
    ? summarizeSeries({ id: null, name: "All endpoints", protocol: null }, aggregateEntry.results, latestRunId)
    : null;
  const endpoints = [...byEndpoint.entries()]
    .flatMap(([id, entry]) => {
      if (id === null) return [];
      const summary = summarizeSeries({ id, name: entry.name, protocol: entry.protocol }, entry.results, latestRunId);
      return summary ? [summary] : [];
    })
    // Endpoints of the latest run first, then those no longer measured; by name within each.
    .sort((a, b) => Number(b.isInLatestRun) - Number(a.isInLatestRun) || a.name.localeCompare(b.name, "en"));

  return {
    /** When this was read: the "now" of the page's "3 h ago". */
    generatedAt: new Date(),
    project: { slug: project.slug, name: project.name, repoUrl: project.repoUrl, defaultBranch: project.defaultBranch },
    endpoints,
    aggregate,
    recentRuns: recent.runs,
    hasMoreRuns: recent.nextCursor !== null,
  };
}
