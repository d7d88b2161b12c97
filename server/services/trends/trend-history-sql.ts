import type { ReadDb } from "../../db";
/**
 * The trend page's reads of an endpoint's (or the run aggregate's) history, as SQL: the candidates run
 * selection chooses from, the whole rows of the chosen runs, the custom metrics' series and their units,
 * and what a tooltip says of a metric point's run. What to read is decided by endpoint-trends.ts and
 * trend-metrics.ts, what to keep by the domain (server/domain/series/trend-series.ts).
 *
 * Queries follow the indexes (docs/architecture.md, "Indexes follow the pages' queries"): results
 * (project_id, endpoint_id, started_at DESC), which INCLUDEs the columns run selection reads (an
 * index-only scan), and metrics (project_id, key, endpoint_id, started_at DESC); joined to runs only
 * for the label/branch/tool filters and for the tooltip fields of the runs actually drawn.
 */
import { LATEST_RUNS, PRESELECT_BUCKETS_PER_POINT } from "../../domain/series/trend-series";
import type { MetricRow, TrendRow } from "../../domain/series/trend-series";
import type { HistoryCandidate, HistoryRow } from "../../domain/series/trend-history";
import type { NamedRun } from "../../domain/compare/run-names";
import type { Better } from "../../domain/run";
import { Prisma } from "../../generated/prisma/client";
import { branchCondition, endpointCondition } from "./endpoint-page";
import type { HistoryScope } from "./endpoint-page";

/** A run of the history as the first read gives it: what run selection looks at, and where the run stands (the same whether read by SQL or from the cache). */
export type CandidateRow = HistoryCandidate;

/**
 * FROM … WHERE of a history on table `r`, joined to runs (`ru`) only when a branch, label or tool is asked.
 * The join names the runs' project too (implied, since a result's run is its project's), so a selective
 * branch (a pull request's) can be read from runs (project_id, git_branch, started_at DESC) and then each
 * run's result by results (run_id): on 100,000 runs, 15 ms instead of 110 ms (docs/trends.md, "Indexes").
 */
function historySource(table: "results" | "metrics", scope: HistoryScope): Prisma.Sql {
  const hasRunFilter = scope.branches !== null || scope.label !== null || scope.tool !== null || scope.testbed !== undefined;
  return Prisma.sql`
    FROM ${Prisma.raw(table)} r
    ${hasRunFilter ? Prisma.sql`JOIN runs ru ON ru.id = r.run_id AND ru.project_id = ${scope.projectId}` : Prisma.empty}
    WHERE r.project_id = ${scope.projectId}
      AND ${endpointCondition(scope.endpointId)}
      ${scope.since ? Prisma.sql`AND r.started_at >= ${scope.since}` : Prisma.empty}
      ${branchCondition(Prisma.sql`ru.git_branch`, scope.branches)}
      ${scope.label !== null ? Prisma.sql`AND ru.label = ${scope.label}` : Prisma.empty}
      ${scope.tool !== null ? Prisma.sql`AND ru.tool = ${scope.tool}` : Prisma.empty}
      ${testbedCondition(scope.testbed)}`;
}

/**
 * `IS NULL` or `=`, not `IS NOT DISTINCT FROM $n`: the planner has no estimate for the latter, guesses
 * 0.5% of the runs, and may then read each run's results through results (run_id), the table's heap,
 * instead of the endpoint's range of the covering index joined to the runs.
 */
function testbedCondition(testbed: HistoryScope["testbed"]): Prisma.Sql {
  if (testbed === undefined) return Prisma.empty;
  return testbed.name === null ? Prisma.sql`AND ru.testbed IS NULL` : Prisma.sql`AND ru.testbed = ${testbed.name}`;
}

/**
 * The filtered history's candidates for run selection, oldest first, and its length: every run when it
 * has at most 2 × PRESELECT_BUCKETS_PER_POINT × maxPoints, else the first and the last runs, the latest
 * LATEST_RUNS, each position bucket's lowest and highest p95, and each pinned line's extremes (ties
 * included: the domain keeps the first). The marked runs come too, flagged as not candidates, and the
 * first run at or after each marked time (where a marker between runs is drawn). One
 * statement over the covering index; positions are numbered by (started_at, run_id), as everywhere.
 */
export async function readTrendCandidates(
  db: ReadDb,
  scope: HistoryScope,
  maxPoints: number,
  marked: { runIds: readonly string[]; times: readonly string[] },
): Promise<{ rows: CandidateRow[]; total: number }> {
  const buckets = PRESELECT_BUCKETS_PER_POINT * maxPoints;
  const readWhole = 2 * buckets;
  const rows = await db.$queryRaw<(CandidateRow & { total: number })[]>`
    WITH h AS MATERIALIZED (
      SELECT numbered.*, (n - 1) * ${buckets} / total AS bucket FROM (
        SELECT r.id, r.run_id, r.started_at, r.p95_ms, r.p99_ms, r.max_ms, r.error_rate, r.throughput,
               (row_number() OVER (ORDER BY r.started_at, r.run_id))::int AS n, (count(*) OVER ())::int AS total
        ${historySource("results", scope)}
      ) numbered
    ),
    buckets AS (
      SELECT bucket, min(p95_ms) AS low, max(p95_ms) AS high FROM h WHERE total > ${readWhole} GROUP BY bucket
    ),
    extremes AS (
      SELECT max(p99_ms) AS p99, max(max_ms) AS max, max(error_rate) AS errors,
             max(throughput) AS fastest, min(throughput) AS slowest
      FROM h
    ),
    -- The first run of each extreme (an error rate of 0 everywhere has one, not thousands).
    picks AS MATERIALIZED (
      SELECT unnest(ARRAY[min(h.n) FILTER (WHERE h.p95_ms = b.low), min(h.n) FILTER (WHERE h.p95_ms = b.high)]) AS n
      FROM h JOIN buckets b USING (bucket) GROUP BY h.bucket
      UNION
      SELECT unnest(ARRAY[
        min(n) FILTER (WHERE p99_ms = e.p99), min(n) FILTER (WHERE max_ms = e.max),
        min(n) FILTER (WHERE error_rate = e.errors), min(n) FILTER (WHERE throughput = e.fastest),
        min(n) FILTER (WHERE throughput = e.slowest)])
      FROM h CROSS JOIN extremes e
    ),
    flagged AS (
      SELECT h.*, (h.total <= ${readWhole} OR h.n = 1 OR h.n > h.total - ${LATEST_RUNS} OR p.n IS NOT NULL) AS is_candidate
      FROM h LEFT JOIN (SELECT DISTINCT n FROM picks) p ON p.n = h.n
    )
    SELECT id, run_id AS "runId", started_at AS "startedAt", p95_ms AS "p95Ms", p99_ms AS "p99Ms", max_ms AS "maxMs",
           error_rate AS "errorRate", throughput, n AS "order", total, is_candidate AS "isCandidate"
    FROM flagged
    WHERE is_candidate OR run_id = ANY(${marked.runIds as string[]})
       OR n IN (SELECT (SELECT min(h.n) FROM h WHERE h.started_at >= t::timestamptz) FROM unnest(${marked.times as string[]}::text[]) t)
    ORDER BY n`;
  return { rows: rows.map(({ total: _total, ...row }) => row), total: rows[0]?.total ?? 0 };
}

/**
 * The compact reads send a history as one text, a line per run: result id, start (epoch ms), p95, p99,
 * max, error rate, throughput (float8 as PostgreSQL prints it, shortest round-trip: empty for null, NaN
 * and ±Infinity by name), then the run id, last because it is free text. Text, not JSON: building a
 * JSON array per run cost twice as much on the server (48,000 runs).
 */
const PACKED_FIELDS = 7;

const packedColumns = Prisma.sql`concat_ws(',', r.id, round(date_part('epoch', r.started_at) * 1000)::bigint,
  coalesce(r.p95_ms::text, ''), coalesce(r.p99_ms::text, ''), coalesce(r.max_ms::text, ''),
  coalesce(r.error_rate::text, ''), coalesce(r.throughput::text, ''), r.run_id)`;

/** A history's packed lines, oldest first (the history's order: start, then run id). */
const packedHistory = Prisma.sql`string_agg(${packedColumns}, E'\n' ORDER BY r.started_at, r.run_id)`;

function unpackLines(text: string | null): string[][] {
  if (!text) return [];
  return text.split("\n").map((line) => {
    const fields: string[] = [];
    let from = 0;
    for (let k = 0; k < PACKED_FIELDS; k++) {
      const comma = line.indexOf(",", from);
      fields.push(line.slice(from, comma));
      from = comma + 1;
    }
    fields.push(line.slice(from));
    return fields;
  });
}

const toFloat = (field: string): number | null => (field === "" ? null : Number(field));

function toHistoryRow(fields: readonly string[]): HistoryRow {
  const [id, startedAtMs, p95Ms, p99Ms, maxMs, errorRate, throughput, runId] = fields as [string, string, string, string, string, string, string, string];
  return {
    id: Number(id),
    runId,
    startedAtMs: Number(startedAtMs),
    values: { p95Ms: toFloat(p95Ms), p99Ms: toFloat(p99Ms), maxMs: toFloat(maxMs), errorRate: toFloat(errorRate), throughput: toFloat(throughput) },
  };
}

/** A series' testbeds and how many results each has (the page's testbed select): one per testbed, most first. */
export type TestbedCount = { testbed: string | null; runs: number };

/** The project's history version as a statement sees it: what it read is the history at that version. */
const versionOf = (projectId: string) => Prisma.sql`(SELECT history_version FROM projects WHERE id = ${projectId})`;

/**
 * The whole filtered history (range "all"), compact and oldest first, with the testbeds of the
 * endpoint's runs of the scope's tool (every one, most results first: the page lists 20) and the
 * project's history version: one statement, so all three are of one snapshot. The history is one index
 * range scan of results_history_idx; the testbeds one more, joined to runs.
 */
export async function readWholeHistory(
  db: ReadDb,
  scope: HistoryScope,
): Promise<{ version: number | null; rows: HistoryRow[]; testbeds: TestbedCount[] }> {
  const [read] = await db.$queryRaw<{ version: number | null; history: string | null; testbeds: [string | null, number][] | null }[]>`
    SELECT ${versionOf(scope.projectId)} AS version,
           (SELECT ${packedHistory} ${historySource("results", scope)}) AS history,
           (SELECT json_agg(json_build_array(t.testbed, t.runs) ORDER BY t.runs DESC, t.testbed) FROM (
              SELECT ru.testbed, count(*)::int AS runs FROM results r JOIN runs ru ON ru.id = r.run_id
               WHERE r.project_id = ${scope.projectId} AND ${endpointCondition(scope.endpointId)}
                 ${scope.tool !== null ? Prisma.sql`AND ru.tool = ${scope.tool}` : Prisma.empty}
               GROUP BY ru.testbed) t) AS testbeds`;
  return {
    version: read?.version ?? null,
    rows: unpackLines(read?.history ?? null).map(toHistoryRow),
    testbeds: (read?.testbeds ?? []).map(([testbed, runs]) => ({ testbed, runs })),
  };
}

/** A run's row appended to a history, with the run's fields the page's filters look at. */
export interface AppendedRow extends HistoryRow {
  tool: string;
  testbed: string | null;
  branch: string | null;
  label: string | null;
}

/**
 * What moved the project's history version after `version`, and the endpoint's (or the aggregate's)
 * result rows of the runs whose results were inserted meanwhile, oldest first, whatever the filters
 * (the caller filters and counts testbeds): one statement, so the rows are exactly those of the changes
 * read, at the version it returns. Over history_changes' primary key and results (run_id).
 */
export async function readAppendedHistory(
  db: ReadDb,
  scope: Pick<HistoryScope, "projectId" | "endpointId">,
  version: number,
): Promise<{ version: number | null; changes: number; kinds: string[]; rows: AppendedRow[] }> {
  const [read] = await db.$queryRaw<{ version: number | null; changes: number; kinds: string[]; rows: PackedAppended[] | null }[]>`
    WITH changes AS (
      SELECT kind::text AS kind, run_ids FROM history_changes WHERE project_id = ${scope.projectId} AND version > ${version}
    ),
    appended AS (
      SELECT DISTINCT unnest(run_ids) AS run_id FROM changes WHERE kind = 'results'
    )
    SELECT ${versionOf(scope.projectId)} AS version,
           (SELECT count(*)::int FROM changes) AS changes,
           (SELECT coalesce(array_agg(DISTINCT kind), '{}') FROM changes) AS kinds,
           (SELECT json_agg(json_build_array(${packedColumns}, ru.tool, ru.testbed, ru.git_branch, ru.label) ORDER BY r.started_at, r.run_id)
              FROM results r JOIN runs ru ON ru.id = r.run_id
             WHERE r.run_id IN (SELECT run_id FROM appended)
               AND r.project_id = ${scope.projectId} AND ${endpointCondition(scope.endpointId)}) AS rows`;
  return {
    version: read?.version ?? null,
    changes: read?.changes ?? 0,
    kinds: read?.kinds ?? [],
    rows: (read?.rows ?? []).map(([packed, tool, testbed, branch, label]) => ({ ...toHistoryRow(unpackLines(packed)[0]!), tool, testbed, branch, label })),
  };
}

/** An appended row: its packed line, and its run's tool, testbed, branch and label. */
type PackedAppended = [string, string, string | null, string | null, string | null];

const RUN_INFO_SELECT = { label: true, round: true, gitBranch: true, gitCommit: true } satisfies Prisma.RunSelect;

const TREND_ROW_SELECT = {
  id: true,
  runId: true,
  startedAt: true,
  p50Ms: true,
  p90Ms: true,
  p95Ms: true,
  p99Ms: true,
  meanMs: true,
  maxMs: true,
  throughput: true,
  errorRate: true,
  run: { select: RUN_INFO_SELECT },
} satisfies Prisma.ResultSelect;

type TrendRowRecord = Prisma.ResultGetPayload<{ select: typeof TREND_ROW_SELECT }>;

/** The second read: whole rows, with the run's label/branch/commit, of these results (the drawn and the latest runs), by result id. */
export async function readTrendRows(db: ReadDb, resultIds: readonly number[]): Promise<Map<number, TrendRow>> {
  const records = await db.result.findMany({ where: { id: { in: [...resultIds] } }, select: TREND_ROW_SELECT });
  return new Map(records.map((record) => [record.id, toTrendRow(record)]));
}

function toTrendRow(record: TrendRowRecord): TrendRow {
  return {
    runId: record.runId,
    startedAt: record.startedAt,
    ...namedRunOf(record.run),
    p50Ms: record.p50Ms,
    p90Ms: record.p90Ms,
    p95Ms: record.p95Ms,
    p99Ms: record.p99Ms,
    meanMs: record.meanMs,
    maxMs: record.maxMs,
    throughput: record.throughput,
    errorRate: record.errorRate,
  };
}

function namedRunOf(run: Prisma.RunGetPayload<{ select: typeof RUN_INFO_SELECT }>): NamedRun {
  return { label: run.label, round: run.round, branch: run.gitBranch, commit: run.gitCommit };
}

/** What a tooltip says of each of these runs (label, round, branch, commit), by run id. */
export async function readNamedRuns(db: ReadDb, runIds: readonly string[]): Promise<Map<string, NamedRun>> {
  if (runIds.length === 0) return new Map();
  const runs = await db.run.findMany({ where: { id: { in: [...runIds] } }, select: { id: true, ...RUN_INFO_SELECT } });
  return new Map(runs.map((run) => [run.id, namedRunOf(run)]));
}

/** A custom metric's unit and direction, as its newest run in the history states them. */
interface MetricUnit {
  key: string;
  unit: string | null;
  better: Better | null;
}

/**
 * Every custom metric key of the history (of the endpoint or, for the aggregate, of the runs), by key,
 * with the unit and direction of its newest run: one statement for all keys, over the metrics index.
 */
export async function readMetricUnits(db: ReadDb, scope: HistoryScope): Promise<MetricUnit[]> {
  return db.$queryRaw<MetricUnit[]>`
    SELECT DISTINCT ON (r.key) r.key, r.unit, r.better::text AS better
    ${historySource("metrics", scope)}
    ORDER BY r.key, r.started_at DESC, r.run_id DESC`;
}

/**
 * Every custom metric's history, by key then run: each value numbered by its run's position in the
 * endpoint's history and, when the key's history is long, preselected like the latency history (each
 * bucket's lowest and highest value of the key's own points, its first and last); with the key's length.
 */
export async function readMetricHistory(
  db: ReadDb,
  scope: HistoryScope,
  maxPoints: number,
): Promise<(MetricRow & { key: string; total: number })[]> {
  const buckets = PRESELECT_BUCKETS_PER_POINT * maxPoints;
  const readWhole = 2 * buckets;
  return db.$queryRaw<(MetricRow & { key: string; total: number })[]>`
    WITH h AS MATERIALIZED (
      SELECT r.run_id, (row_number() OVER (ORDER BY r.started_at, r.run_id))::int AS n
      ${historySource("results", scope)}
    ),
    m AS MATERIALIZED (
      SELECT numbered.*, (i - 1) * ${buckets} / total AS bucket FROM (
        SELECT r.key, r.run_id, r.started_at, r.value, h.n,
               (row_number() OVER (PARTITION BY r.key ORDER BY h.n))::int AS i,
               (count(*) OVER (PARTITION BY r.key))::int AS total
        FROM metrics r JOIN h ON h.run_id = r.run_id
        WHERE r.project_id = ${scope.projectId} AND ${endpointCondition(scope.endpointId)}
          AND r.value NOT IN ('NaN'::float8, 'Infinity'::float8, '-Infinity'::float8)
      ) numbered
    ),
    buckets AS (
      SELECT key, bucket, min(value) AS low, max(value) AS high FROM m WHERE total > ${readWhole} GROUP BY key, bucket
    ),
    picks AS (
      SELECT m.key, unnest(ARRAY[min(m.i) FILTER (WHERE m.value = b.low), min(m.i) FILTER (WHERE m.value = b.high)]) AS i
      FROM m JOIN buckets b USING (key, bucket) GROUP BY m.key, m.bucket
    )
    SELECT m.key, m.run_id AS "runId", m.started_at AS "startedAt", m.value, m.n AS "order", m.total
    FROM m
    WHERE m.total <= ${readWhole} OR m.i = 1 OR m.i = m.total OR (m.key, m.i) IN (SELECT key, i FROM picks)
    ORDER BY m.key, m.n`;
}
