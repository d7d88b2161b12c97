/**
 * The trend page zoomed out (docs/rollups.md): when a range holds more than RUN_LEVEL_MAX_RUNS runs, it
 * is drawn as buckets read from the rollups (trend-rollups.ts) at the finest grain that fits the
 * chart, instead of reading every run. What the run-level page shows beside the chart is read here in
 * bounded statements: the latest runs (an index scan of LATEST_RUNS rows), the marked runs' times, the
 * testbeds (from the weekly rollups) and the custom metrics' units.
 */
import { placeMarkers } from "../../domain/series/trend-markers";
import type { MarkerSource, TrendMarker } from "../../domain/series/trend-markers";
import { RUN_LEVEL_MAX_RUNS, chooseGrain, toBucketPoint, toMetricBucketPoints } from "../../domain/series/trend-rollup";
import type { BucketPoint, MetricBucketPoint, RollupGrain } from "../../domain/series/trend-rollup";
import { LATEST_RUNS, toTrendPoints } from "../../domain/series/trend-series";
import type { TrendPoint } from "../../domain/series/trend-series";
import type { Better } from "../../domain/run";
import { Prisma } from "../../generated/prisma/client";
import type { ReadDb } from "../../db";
import type { HistoryScope } from "./endpoint-page";
import { readMetricUnits, readTrendRows } from "./trend-history-sql";
import { pendingScopeSource, readRollupBuckets, seriesCondition } from "./trend-rollups";

export interface BucketTrend {
  grain: RollupGrain;
  /** Runs under the filters, summed over the buckets (a range's first bucket is whole: it may begin before the range). */
  totalRuns: number;
  points: BucketPoint[];
  /** Whether any bucket has a pooled histogram (its percentiles of every request are drawn then). */
  hasPooledPercentiles: boolean;
  metrics: { key: string; unit: string | null; better: Better | null; points: MetricBucketPoint[] }[];
  /** The latest runs, newest first, for the table (read run by run). */
  latest: TrendPoint[];
  /** Markers of runs (and times) inside the drawn span, at their time. */
  markers: TrendMarker[];
}

/**
 * How many runs a scope's range holds, counted from the weekly rollups (the pending weeks' raw rows
 * counted in the same statement): whether the page is zoomed out (isZoomedOut). Counts only: no
 * statistics or histograms are read to decide.
 */
export async function countScopeRuns(db: ReadDb, scope: HistoryScope): Promise<number> {
  const since = scope.since ? Prisma.sql`date_trunc('week', ${scope.since}::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'` : null;
  const [row] = await db.$queryRaw<{ runs: number }[]>`
    WITH pending AS MATERIALIZED (SELECT DISTINCT week_start FROM trend_rollup_pending WHERE project_id = ${scope.projectId})
    SELECT (
      SELECT coalesce(sum(t.runs), 0) FROM trend_rollups t
      WHERE ${seriesCondition(scope, "t")} AND t.grain = 'week' ${since ? Prisma.sql`AND t.bucket_start >= ${since}` : Prisma.empty}
        AND t.bucket_start NOT IN (SELECT week_start FROM pending)
    )::int + (
      SELECT count(*) ${pendingScopeSource(scope, since ? Prisma.sql`AND r.started_at >= ${since}` : Prisma.empty)}
    )::int AS runs`;
  return row?.runs ?? 0;
}

/** Whether a range of `runs` runs is more than the run-level view reads (RUN_LEVEL_MAX_RUNS; tests pin a lower one). */
export function isZoomedOut(runs: number, runLevelMaxRuns = RUN_LEVEL_MAX_RUNS): boolean {
  return runs > runLevelMaxRuns;
}

/** The zoomed-out view of a scope (isZoomedOut): its weekly buckets, then the finest grain that fits. */
export async function readBucketTrend(
  db: ReadDb,
  scope: HistoryScope,
  maxPoints: number,
  markerSources: readonly MarkerSource[],
  markedRunIds: readonly string[],
): Promise<BucketTrend> {
  const weeks = await readRollupBuckets(db, scope, "week");
  const totalRuns = weeks.reduce((sum, bucket) => sum + bucket.runs, 0);
  const grain = chooseGrain(weeks[0]!.firstRunAt, weeks.at(-1)!.lastRunAt, maxPoints);
  const buckets = grain === "week" ? weeks : await readRollupBuckets(db, scope, grain);

  const [latest, marked, units] = await Promise.all([
    readLatestRuns(db, scope, totalRuns),
    readMarkedRuns(db, scope, markedRunIds),
    readMetricUnits(db, scope),
  ]);
  const first = buckets[0]!.bucketStart.getTime();
  const last = buckets.at(-1)!.lastRunAt.getTime();
  const metricPoints = toMetricBucketPoints(buckets, grain);
  return {
    grain,
    totalRuns,
    points: buckets.map((bucket) => toBucketPoint(bucket, grain)),
    hasPooledPercentiles: buckets.some((bucket) => bucket.histogram !== null),
    metrics: units.flatMap((unit) => {
      const points = metricPoints.get(unit.key);
      return points ? [{ ...unit, points }] : [];
    }),
    latest,
    // Placed by time: a marker on a run at the run's start, one between runs at its own time.
    markers: [
      ...placeMarkers(markerSources.filter((marker) => marker.runId !== null), marked),
      ...markerSources.flatMap((marker): TrendMarker[] =>
        marker.runId === null && marker.at.getTime() >= first && marker.at.getTime() <= last
          ? [{ runId: null, kind: marker.kind, text: marker.text, time: marker.at.getTime(), order: 0 }]
          : [],
      ),
    ]
      .filter((marker) => marker.time >= first)
      .sort((a, b) => a.time - b.time),
  };
}

/** The scope's rows of results (alias r), joined to runs (ru) for the filters. */
const scopeSource = (scope: HistoryScope) => Prisma.sql`
  FROM results r JOIN runs ru ON ru.id = r.run_id
  WHERE ${seriesCondition(scope, "r")} ${scope.since ? Prisma.sql`AND r.started_at >= ${scope.since}` : Prisma.empty}`;

/** How many of the endpoint's newest results the latest runs are first looked for among (see readLatestRuns). */
const LATEST_RUNS_SCAN = LATEST_RUNS * 50;

/**
 * The latest LATEST_RUNS runs, newest first, numbered back from the total. The endpoint's newest
 * LATEST_RUNS_SCAN results are walked on their index (a subquery kept whole by OFFSET 0), each checked
 * against the run filters; only when fewer than LATEST_RUNS of them match (filters that pick a rare
 * series) is its whole history walked. The bound is what keeps the plan on the index: a subquery is
 * planned to be read whole, so unbounded it was planned as a sequential scan of every result of the
 * project and a sort whenever that looked cheaper (the aggregate at 2.4M results: 2.3 s, as
 * `endpoint_id IS NULL` gives the planner no equality to drop from the order; an endpoint with stale
 * statistics: 4 s). The inner and outer orders match, so the walk stops at the LATEST_RUNS-th match
 * instead of sorting every row it read (1,000 runs looked up: 390 ms). As a plain join, a
 * prepared statement's generic plan guesses `testbed IS NOT DISTINCT FROM $n` matches one run and
 * starts from the runs table, reading the series' whole history (630 ms on 45,000 runs).
 */
async function readLatestRuns(db: ReadDb, scope: HistoryScope, totalRuns: number): Promise<TrendPoint[]> {
  // The aggregate's order names endpoint_id, as its index does: `endpoint_id IS NULL` is no equality the
  // planner drops from an order (an endpoint's `= $n` is, and named above it would no longer match).
  const byEndpoint = scope.endpointId === null ? Prisma.sql`r.endpoint_id, ` : Prisma.empty;
  const walk = (scan: number | null) => db.$queryRaw<{ id: number }[]>`
    SELECT r.id FROM (
      SELECT r.id, r.run_id, r.started_at, r.project_id, r.endpoint_id FROM results r
       WHERE r.project_id = ${scope.projectId}
         AND ${scope.endpointId === null ? Prisma.sql`r.endpoint_id IS NULL` : Prisma.sql`r.endpoint_id = ${scope.endpointId}`}
         ${scope.since ? Prisma.sql`AND r.started_at >= ${scope.since}` : Prisma.empty}
       ORDER BY ${byEndpoint}r.started_at DESC, r.run_id DESC ${scan === null ? Prisma.sql`OFFSET 0` : Prisma.sql`LIMIT ${scan}`}
    ) r
    -- Each run looked up by its key as the history is walked newest first, until LATEST_RUNS match: a
    -- plain join was planned as a hash join over every run of the project (90-125 ms at 48,000 runs).
    CROSS JOIN LATERAL (SELECT 1 FROM runs ru WHERE ru.id = r.run_id AND ${seriesCondition(scope, "r")} OFFSET 0) ru
    ORDER BY ${byEndpoint}r.started_at DESC, r.run_id DESC LIMIT ${LATEST_RUNS}`;
  const newest = await walk(LATEST_RUNS_SCAN);
  const ids = newest.length === LATEST_RUNS ? newest : await walk(null);
  const rows = await readTrendRows(db, ids.map((row) => row.id));
  return toTrendPoints(ids.flatMap(({ id }, index) => {
    const row = rows.get(id);
    return row ? [{ row, order: totalRuns - index }] : [];
  }));
}

/**
 * The marked runs of the scope with their start times; a marker at a time is placed at the first of
 * these at or after it, so each time marker also brings the scope's first run at or after it.
 */
async function readMarkedRuns(db: ReadDb, scope: HistoryScope, runIds: readonly string[]) {
  if (runIds.length === 0) return [];
  return db.$queryRaw<{ runId: string; startedAt: Date; order: number }[]>`
    SELECT r.run_id AS "runId", r.started_at AS "startedAt", 0 AS "order" ${scopeSource(scope)}
      AND r.run_id = ANY(${runIds as string[]}) ORDER BY r.started_at`;
}

/** The testbeds of the endpoint's (or the aggregate's) runs of a tool, most runs first, from the weekly rollups and the pending weeks' raw rows. */
export async function listRollupTestbeds(db: ReadDb, scope: HistoryScope): Promise<{ testbed: string | null; runs: number }[]> {
  const byTool: HistoryScope = { projectId: scope.projectId, endpointId: scope.endpointId, since: null, branches: null, label: null, tool: scope.tool };
  return db.$queryRaw<{ testbed: string | null; runs: number }[]>`
    WITH pending AS MATERIALIZED (SELECT DISTINCT week_start FROM trend_rollup_pending WHERE project_id = ${scope.projectId})
    SELECT testbed, sum(runs)::int AS runs FROM (
      SELECT t.testbed, t.runs FROM trend_rollups t
       WHERE ${seriesCondition(byTool, "t")} AND t.grain = 'week' AND t.bucket_start NOT IN (SELECT week_start FROM pending)
      UNION ALL
      SELECT ru.testbed, 1 ${pendingScopeSource(byTool)}
    ) counted GROUP BY testbed ORDER BY runs DESC, testbed LIMIT 20`;
}
