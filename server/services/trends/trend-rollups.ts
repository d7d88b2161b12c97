/**
 * Rollups as SQL (docs/rollups.md): keeping the trend_rollups table in step with the raw results, and
 * the trend page's read of a series' buckets. Bucket arithmetic and merging are the domain's
 * (server/domain/series/trend-rollup.ts).
 *
 * Maintenance: a transaction that adds (or deletes) runs records the UTC weeks they touch as pending
 * (markRunsPending, in that transaction), and enqueues the project's "refresh-rollups" job. The job
 * (refreshRollups) recomputes each pending week's day and week buckets of every series whole from
 * the raw rows, and removes exactly the pending rows it read, in one transaction under the project's
 * advisory lock: idempotent, and two jobs (two replicas) never interleave on one project.
 *
 * Freshness: the read (readRollupBuckets) takes, in ONE statement (one snapshot), the stored buckets of
 * the weeks that are not pending and the pending weeks' buckets computed from the raw rows. A run
 * committed with its pending week is therefore in the first view after its upload, and a job that
 * commits between two reads cannot make one read see the old rollup without the pending mark.
 */
import {
  ROLLUP_GRAINS,
  rollupHistogramSchema,
  rollupMetricsSchema,
  rollupStatsSchema,
} from "../../domain/series/trend-rollup";
import type { RollupBucket, RollupGrain } from "../../domain/series/trend-rollup";
import { isPoolableHistogram, poolHistograms } from "../../domain/stats/pooled-percentile";
import type { HistogramBucket } from "../../domain/run";
import { Prisma } from "../../generated/prisma/client";
import type { PrismaClient } from "../../generated/prisma/client";
import type { ReadDb } from "../../db";
import { branchCondition } from "./endpoint-page";
import type { HistoryScope } from "./endpoint-page";

type Db = PrismaClient | Prisma.TransactionClient;

/** A week is the unit of recomputation: its days lie inside it (UTC, from Monday 00:00). */
const WEEK_SQL = (column: Prisma.Sql) => Prisma.sql`(date_trunc('week', ${column} AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;
const bucketSql = (grain: Prisma.Sql, column: Prisma.Sql) => Prisma.sql`(date_trunc(${grain}, ${column} AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;

/** Pending weeks recomputed per transaction: one week of a 10M-row project is ~20,000 results. */
const WEEKS_PER_TRANSACTION = 8;

/** The columns a bucket summarises, as SQL over the finite values (NaN and ±Infinity left out, never counted). */
const STAT_COLUMNS: readonly [name: string, column: string][] = [
  ["p50Ms", "p50_ms"],
  ["p90Ms", "p90_ms"],
  ["p95Ms", "p95_ms"],
  ["p99Ms", "p99_ms"],
  ["meanMs", "mean_ms"],
  ["maxMs", "max_ms"],
  ["errorRate", "error_rate"],
  ["throughput", "throughput"],
];
const finite = (column: string) =>
  `CASE WHEN r.${column} IN ('NaN'::float8, 'Infinity'::float8, '-Infinity'::float8) THEN NULL ELSE r.${column} END`;
const statJson = (name: string, column: string) =>
  `'${name}', CASE WHEN count(${finite(column)}) > 0 THEN jsonb_build_object('n', count(${finite(column)}), 'sum', sum(${finite(column)}), 'min', min(${finite(column)}), 'max', max(${finite(column)})) END`;
/** The stat columns a bucket reads of each result (the base rows carry only what is summarised: a narrower sort). */
const BASE_STAT_COLUMNS = Prisma.raw(STAT_COLUMNS.map(([, column]) => `r.${column}`).join(", "));
/** Names and columns come from the constant list above, never from input. */
const STATS_SQL = Prisma.raw(`jsonb_strip_nulls(jsonb_build_object(${STAT_COLUMNS.map(([name, column]) => statJson(name, column)).join(", ")}))`);

/**
 * Every bucket of `grains` of the results `source` gives (FROM … WHERE naming results r and runs ru),
 * one row per series and bucket, in the table's columns, plus `histograms`: the runs' histograms when
 * every run of the bucket has one (pooled by the caller). Custom metrics (a run's, for the aggregate)
 * join by series and bucket. The one definition of a bucket: the job stores it, the read computes
 * pending weeks with it.
 */
function bucketsSql(source: Prisma.Sql, grains: readonly RollupGrain[]): Prisma.Sql {
  const grainList = Prisma.join(grains.map((grain) => Prisma.sql`(${grain}::text)`));
  return Prisma.sql`
    WITH base AS MATERIALIZED (
      SELECT r.project_id, r.run_id, r.endpoint_id, r.started_at, r.requests, r.failures, r.histogram, ${BASE_STAT_COLUMNS},
             ru.tool, ru.label, ru.git_branch AS branch, ru.testbed,
             jsonb_build_array(r.endpoint_id, ru.tool, ru.label, ru.git_branch, ru.testbed)::text AS series_key
      ${source}
    ),
    grains(grain) AS (VALUES ${grainList}),
    latency AS (
      SELECT r.project_id, r.series_key, r.endpoint_id, r.tool, r.label, r.branch, r.testbed, g.grain,
             ${bucketSql(Prisma.sql`g.grain`, Prisma.sql`r.started_at`)} AS bucket_start,
             count(*)::int AS runs, sum(r.requests)::float8 AS requests, sum(r.failures)::float8 AS failures,
             min(r.started_at) AS first_run_at, max(r.started_at) AS last_run_at,
             ${STATS_SQL} AS stats,
             CASE WHEN bool_and(r.histogram IS NOT NULL) THEN jsonb_agg(r.histogram) END AS histograms
      FROM base r CROSS JOIN grains g
      GROUP BY r.project_id, r.series_key, r.endpoint_id, r.tool, r.label, r.branch, r.testbed, g.grain, bucket_start
    ),
    metric_stats AS (
      SELECT b.series_key, g.grain, ${bucketSql(Prisma.sql`g.grain`, Prisma.sql`b.started_at`)} AS bucket_start, m.key,
             jsonb_build_object('n', count(*), 'sum', sum(m.value), 'min', min(m.value), 'max', max(m.value)) AS stat
      FROM base b
      JOIN metrics m ON m.run_id = b.run_id AND m.endpoint_id IS NOT DISTINCT FROM b.endpoint_id
      CROSS JOIN grains g
      WHERE m.value NOT IN ('NaN'::float8, 'Infinity'::float8, '-Infinity'::float8)
      GROUP BY b.series_key, g.grain, 3, m.key
    ),
    metric_buckets AS (
      SELECT series_key, grain, bucket_start, jsonb_object_agg(key, stat) AS metrics FROM metric_stats GROUP BY 1, 2, 3
    )
    SELECT l.*, coalesce(mb.metrics, '{}'::jsonb) AS metrics
    FROM latency l LEFT JOIN metric_buckets mb USING (series_key, grain, bucket_start)`;
}

/**
 * Records the weeks of these runs' results as pending: call it in the transaction that inserts the
 * runs (after their results) or deletes them (before), so the mark commits exactly with the change.
 */
export async function markRunsPending(tx: Db, projectId: string, runIds: readonly string[]): Promise<void> {
  if (runIds.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO trend_rollup_pending (project_id, week_start)
    SELECT DISTINCT ${projectId}, ${WEEK_SQL(Prisma.sql`r.started_at`)}
    FROM results r WHERE r.run_id = ANY(${runIds as string[]}) AND r.project_id = ${projectId}`;
}

/** Every week of a project's history marked pending: a history written around the upload path (a bulk load, a restore). */
export async function markProjectPending(db: Db, projectId: string): Promise<number> {
  return db.$executeRaw`
    INSERT INTO trend_rollup_pending (project_id, week_start)
    SELECT DISTINCT ${projectId}, ${WEEK_SQL(Prisma.sql`r.started_at`)} FROM results r WHERE r.project_id = ${projectId}`;
}

/** The projects with pending weeks (the backfill the migration marks, a job that never ran): queued when workers start. */
export async function listProjectsWithPendingRollups(db: PrismaClient): Promise<string[]> {
  const rows = await db.$queryRaw<{ projectId: string }[]>`SELECT DISTINCT project_id AS "projectId" FROM trend_rollup_pending`;
  return rows.map((row) => row.projectId);
}

interface BucketRow {
  series_key: string;
  grain: RollupGrain;
  bucket_start: Date;
  runs: number;
  requests: number | null;
  failures: number | null;
  first_run_at: Date;
  last_run_at: Date;
  stats: unknown;
  metrics: unknown;
  histogram_parts?: unknown;
}

/** One transaction's work: recompute up to WEEKS_PER_TRANSACTION weeks with marks up to `upTo`; how many weeks it did (0: none left). */
async function refreshSomeWeeks(db: PrismaClient, projectId: string, upTo: number): Promise<number> {
  return db.$transaction(
    async (tx) => {
      // One job per project at a time: a second (another replica's) waits here, then finds the weeks done.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`trend-rollups:${projectId}`}, 0))`;
      const pending = await tx.$queryRaw<{ id: number; week: Date }[]>`
        SELECT id, week_start AS week FROM trend_rollup_pending
         WHERE project_id = ${projectId} AND id <= ${upTo}
           AND week_start IN (SELECT DISTINCT week_start FROM trend_rollup_pending WHERE project_id = ${projectId} AND id <= ${upTo}
                              ORDER BY week_start LIMIT ${WEEKS_PER_TRANSACTION})`;
      if (pending.length === 0) return 0;
      const weeks = [...new Set(pending.map((row) => row.week.toISOString()))];

      // Eight weeks of a 10M-row project (~150,000 results, ~300,000 rows over both grains) sorted in
      // memory (83 MB), not through temporary files; and no JIT, whose compiling took 1.3 s of the
      // planner's overestimate of the runs per week (5.7 s per transaction, seeded 476,190 runs).
      await tx.$executeRaw`SET LOCAL work_mem = '128MB'`;
      await tx.$executeRaw`SET LOCAL jit = off`;
      // Whole buckets from the raw rows: delete the weeks' buckets, insert them again.
      await tx.$executeRaw`DELETE FROM trend_rollups WHERE project_id = ${projectId} AND ${WEEK_SQL(Prisma.sql`bucket_start`)} = ANY(${weeks}::timestamptz[])`;
      // The weeks' runs by runs (project_id, started_at) ranges, each run's results by run_id (LATERAL,
      // kept from being flattened by OFFSET 0: joined flat, the planner hashed every result of the
      // project, a sequential scan of the whole history per transaction).
      const source = Prisma.sql`
        FROM unnest(${weeks}::timestamptz[]) w(week_start)
        JOIN runs ru ON ru.project_id = ${projectId} AND ru.started_at >= w.week_start AND ru.started_at < w.week_start + interval '7 days'
        CROSS JOIN LATERAL (SELECT * FROM results r WHERE r.run_id = ru.id OFFSET 0) r
        WHERE r.project_id = ${projectId}`;
      // One pass: the buckets inserted, and those whose every run has a histogram returned, to pool.
      const withHistograms = await tx.$queryRaw<{ series_key: string; grain: string; bucket_start: Date; histograms: unknown }[]>`
        WITH b AS MATERIALIZED (${bucketsSql(source, ROLLUP_GRAINS)}),
        stored AS (
          INSERT INTO trend_rollups (project_id, series_key, endpoint_id, tool, label, branch, testbed, grain, bucket_start,
                                     runs, requests, failures, first_run_at, last_run_at, stats, metrics)
          SELECT project_id, series_key, endpoint_id, tool, label, branch, testbed, grain, bucket_start,
                 runs, requests, failures, first_run_at, last_run_at, stats, metrics
          FROM b
          -- Written in the order the trend page reads them (a grain of an endpoint of a tool, by branch):
          -- a zoomed-out read of 4,370 weekly rows touched 4,993 pages when they lay among the day rows.
          ORDER BY grain, endpoint_id, tool, branch, label, testbed, bucket_start
        )
        SELECT series_key, grain, bucket_start, histograms FROM b WHERE histograms IS NOT NULL`;
      if (withHistograms.length > 0) {
        const pooled = withHistograms.map((row) => ({
          series_key: row.series_key,
          grain: row.grain,
          bucket_start: row.bucket_start.toISOString(),
          ...poolStoredHistogramsAs(row.histograms),
        }));
        // Only buckets whose every run had one: their run count equals the histograms pooled. (A
        // data-modifying CTE's rows are not visible to its own statement: updated in the next one.)
        await tx.$executeRaw`
          UPDATE trend_rollups t SET histogram = p.histogram
          FROM jsonb_to_recordset(${JSON.stringify(pooled)}::jsonb) AS p(series_key text, grain text, bucket_start timestamptz, runs int, histogram jsonb)
          WHERE t.project_id = ${projectId} AND t.series_key = p.series_key AND t.grain = p.grain
            AND t.bucket_start = p.bucket_start AND t.runs = p.runs`;
      }
      // Exactly the pending rows read: a mark committed since (a new upload) stays for the next job.
      await tx.$executeRaw`DELETE FROM trend_rollup_pending WHERE id = ANY(${pending.map((row) => row.id)}::int[])`;
      return weeks.length;
    },
    { timeout: 10 * 60_000, maxWait: 60_000 },
  );
}

const poolStoredHistogramsAs = (value: unknown) => {
  const { runs, buckets } = poolStoredHistograms(value);
  return { runs, histogram: buckets };
};

/**
 * A bucket's runs' histograms (a JSON array of HistogramBucket[]) pooled, with how many runs gave one
 * that pools (isPoolableHistogram): a bucket whose count falls short of its runs keeps no histogram.
 */
function poolStoredHistograms(value: unknown): { runs: number; buckets: HistogramBucket[] } {
  const stored = Array.isArray(value) ? value : [];
  const histograms: HistogramBucket[][] = [];
  for (const histogram of stored) {
    const parsed = rollupHistogramSchema.safeParse(histogram);
    if (parsed.success && isPoolableHistogram(parsed.data)) histograms.push(parsed.data);
  }
  // Some runs' would not pool: the bucket keeps none (its run count is not the runs pooled), so none is pooled.
  return { runs: histograms.length, buckets: histograms.length === stored.length ? poolHistograms(histograms) : [] };
}

/**
 * The "refresh-rollups" job: recompute every week of a project pending when it starts, a few weeks per
 * transaction, until none of them is left. Returns the weeks recomputed. Marks committed meanwhile are
 * the next job's (each came with one, coalesced into the project's waiting job): under a steady stream
 * of uploads, a job that took them too recomputed the same week back to back and never ended.
 */
export async function refreshRollups(db: PrismaClient, projectId: string): Promise<{ weeks: number }> {
  const [{ upTo = null } = {}] = await db.$queryRaw<{ upTo: number | null }[]>`
    SELECT max(id) AS "upTo" FROM trend_rollup_pending WHERE project_id = ${projectId}`;
  if (upTo === null) return { weeks: 0 };
  let weeks = 0;
  for (;;) {
    const done = await refreshSomeWeeks(db, projectId, upTo);
    if (done === 0) return { weeks };
    weeks += done;
  }
}

/**
 * A history scope's series as a condition: on the rollups (alias t, the series' own columns) or on the
 * raw results (alias r, joined to runs as ru): its endpoint (or the aggregate) and the run filters asked.
 */
export function seriesCondition(scope: HistoryScope, alias: "t" | "r"): Prisma.Sql {
  const columns =
    alias === "t"
      ? { project: "t.project_id", endpoint: "t.endpoint_id", branch: "t.branch", label: "t.label", tool: "t.tool", testbed: "t.testbed" }
      : { project: "r.project_id", endpoint: "r.endpoint_id", branch: "ru.git_branch", label: "ru.label", tool: "ru.tool", testbed: "ru.testbed" };
  const column = (name: keyof typeof columns) => Prisma.raw(columns[name]);
  return Prisma.sql`${column("project")} = ${scope.projectId}
    AND ${scope.endpointId === null ? Prisma.sql`${column("endpoint")} IS NULL` : Prisma.sql`${column("endpoint")} = ${scope.endpointId}`}
    ${branchCondition(column("branch"), scope.branches)}
    ${scope.label !== null ? Prisma.sql`AND ${column("label")} = ${scope.label}` : Prisma.empty}
    ${scope.tool !== null ? Prisma.sql`AND ${column("tool")} = ${scope.tool}` : Prisma.empty}
    ${scope.testbed !== undefined ? Prisma.sql`AND ${column("testbed")} IS NOT DISTINCT FROM ${scope.testbed.name}` : Prisma.empty}`;
}

/**
 * The raw rows of a scope's pending weeks (FROM … WHERE for bucketsSql): driven by the pending weeks
 * (a CTE `pending` of the statement), each a range of the results history index, so no pending week
 * reads nothing.
 */
export function pendingScopeSource(scope: HistoryScope, since: Prisma.Sql = Prisma.empty): Prisma.Sql {
  // LATERAL, kept from being flattened (OFFSET 0): one index range per pending week. Flattened, the
  // planner started from the runs matching the filters (the series' whole history) to find that
  // nothing was pending: 1.2 s of a 1.5 s read on 45,000 runs.
  return Prisma.sql`
    FROM pending p
    CROSS JOIN LATERAL (
      SELECT * FROM results r
      WHERE r.project_id = ${scope.projectId}
        AND ${scope.endpointId === null ? Prisma.sql`r.endpoint_id IS NULL` : Prisma.sql`r.endpoint_id = ${scope.endpointId}`}
        AND r.started_at >= p.week_start AND r.started_at < p.week_start + interval '7 days'
      OFFSET 0
    ) r
    JOIN runs ru ON ru.id = r.run_id
    WHERE ${seriesCondition(scope, "r")} ${since}`;
}

/** The scope's pending weeks, as the CTE `pending` the read statements start with. */
const pendingCte = (projectId: string) =>
  Prisma.sql`pending AS MATERIALIZED (SELECT DISTINCT week_start FROM trend_rollup_pending WHERE project_id = ${projectId})`;

/** A column's stats of several series merged in SQL (ROLLUP_COLUMNS' names come from the constant list, never from input). */
const mergedStatSql = (name: string) => {
  const field = (key: string) => `(stats -> '${name}' ->> '${key}')::float8`;
  return `'${name}', CASE WHEN sum(${field("n")}) > 0 THEN jsonb_build_object('n', sum(${field("n")}), 'sum', sum(${field("sum")}), 'min', min(${field("min")}), 'max', max(${field("max")})) END`;
};
const MERGED_STATS_SQL = Prisma.raw(`jsonb_strip_nulls(jsonb_build_object(${STAT_COLUMNS.map(([name]) => mergedStatSql(name)).join(", ")}))`);

/**
 * A scope's buckets of one grain, oldest first, its series (branches, labels, tools…) merged per bucket
 * in the database: the stored buckets of the weeks not pending, and the pending weeks' from the raw rows,
 * in one statement (see the module comment). Histograms come as the parts' lists, pooled here. With a
 * range, its first bucket is whole (it may begin before the range).
 */
export async function readRollupBuckets(db: ReadDb, scope: HistoryScope, grain: RollupGrain): Promise<RollupBucket[]> {
  const since = scope.since ? bucketSql(Prisma.sql`${grain}::text`, Prisma.sql`${scope.since}::timestamptz`) : null;
  const rows = await db.$queryRaw<BucketRow[]>`
    WITH ${pendingCte(scope.projectId)},
    fresh AS (${bucketsSql(pendingScopeSource(scope, since ? Prisma.sql`AND r.started_at >= ${since}` : Prisma.empty), [grain])}),
    parts AS (
      SELECT t.bucket_start, t.runs, t.requests, t.failures, t.first_run_at, t.last_run_at, t.stats, t.metrics,
             CASE WHEN t.histogram IS NOT NULL THEN jsonb_build_array(t.histogram) END AS histograms
      FROM trend_rollups t
      WHERE ${seriesCondition(scope, "t")} AND t.grain = ${grain} ${since ? Prisma.sql`AND t.bucket_start >= ${since}` : Prisma.empty}
        AND ${WEEK_SQL(Prisma.sql`t.bucket_start`)} NOT IN (SELECT week_start FROM pending)
      UNION ALL
      SELECT bucket_start, runs, requests, failures, first_run_at, last_run_at, stats, metrics, histograms FROM fresh
    ),
    metric_parts AS (
      SELECT p.bucket_start, e.key,
             jsonb_build_object('n', sum((e.value ->> 'n')::float8), 'sum', sum((e.value ->> 'sum')::float8),
                                'min', min((e.value ->> 'min')::float8), 'max', max((e.value ->> 'max')::float8)) AS stat
      FROM parts p CROSS JOIN LATERAL jsonb_each(p.metrics) e
      -- Most parts have no custom metric: not expanded at all (a function call per part otherwise).
      WHERE p.metrics <> '{}'::jsonb
      GROUP BY p.bucket_start, e.key
    ),
    metric_buckets AS (SELECT bucket_start, jsonb_object_agg(key, stat) AS metrics FROM metric_parts GROUP BY bucket_start)
    SELECT p.bucket_start, sum(p.runs)::int AS runs, sum(p.requests) AS requests, sum(p.failures) AS failures,
           min(p.first_run_at) AS first_run_at, max(p.last_run_at) AS last_run_at, ${MERGED_STATS_SQL} AS stats,
           coalesce(min(mb.metrics::text)::jsonb, '{}'::jsonb) AS metrics,
           CASE WHEN bool_and(p.histograms IS NOT NULL) THEN jsonb_agg(p.histograms) END AS histogram_parts
    FROM parts p LEFT JOIN metric_buckets mb USING (bucket_start)
    GROUP BY p.bucket_start
    ORDER BY p.bucket_start`;
  return rows.map(toRollupBucket);
}

function toRollupBucket(row: BucketRow): RollupBucket {
  // Each part's list of histograms (a stored bucket's pooled one, a pending week's runs' own), pooled.
  const parts = Array.isArray(row.histogram_parts) ? (row.histogram_parts as unknown[]).flatMap((part): unknown[] => (Array.isArray(part) ? (part as unknown[]) : [part])) : null;
  const pooled = parts === null ? null : poolStoredHistograms(parts);
  // Every part's, or none: a percentile pooled from some of the bucket's runs is not the bucket's.
  const histogram = pooled !== null && pooled.runs === parts!.length ? pooled.buckets : null;
  return {
    bucketStart: row.bucket_start,
    runs: row.runs,
    requests: row.requests,
    failures: row.failures,
    firstRunAt: row.first_run_at,
    lastRunAt: row.last_run_at,
    stats: rollupStatsSchema.parse(row.stats),
    metrics: rollupMetricsSchema.parse(row.metrics),
    histogram,
  };
}
