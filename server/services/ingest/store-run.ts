import type { EndpointResult, FormatId, ParsedRun } from "../../domain/run";
import { endpointKey, errorRateOf } from "../../domain/run";
import type { Prisma } from "../../generated/prisma/client";
import type { KeptGateChange } from "../../domain/gate/judge";
import type { RunBudget } from "../../domain/gate/budget";
import type { StoredRaw } from "./received-upload";
import type { RunIdentity, UploadPlacement } from "../runs";
import { runIdentityOf } from "../runs";
import type { CoalescedJob, JobQueue } from "../platform";

// Writes a parsed run, judged (ingest-run.ts), in one statement: its endpoints (new names added),
// results, custom metrics and raw upload, the run row with its gate result, and its jobs (storeRun).

/**
 * 2: every tool's native output (issue 12): k6 groups as run metrics, HDR histograms from samples, timelines.
 * 3: k6 NDJSON's timeline (one-second windows, docs/timelines.md); k6 NDJSON runs of version 2 have none.
 */
export const PARSER_VERSION = 3;

/** What the upload keeps of its gate result, with the run. */
export interface KeptGateResult {
  outcome: string | null;
  outcomeReasons: string[];
  /** Whether its gate found a regression (such a run stays out of later baselines until triaged: domain/gate/baseline-window.ts). */
  regressed: boolean | null;
  /** Every change its gate named, with its status (runs.gate_changes). */
  gateChanges: KeptGateChange[];
}

/** An upload read and parsed: the run (metadata applied, validated), and what is stored of the body. */
export interface ReadUpload {
  run: ParsedRun;
  format: FormatId;
  sha256: string;
  rawFiles: StoredRaw[];
  /** The merge-base the metadata named (not part of the parsed run: it describes the comparison). */
  base: UploadPlacement["base"];
  /** The A/B job the run belongs to (ab_job, ab_side, ab_pair), or null (docs/ci.md, "A/B jobs"). */
  ab: UploadPlacement["ab"];
  /** What the upload's benchtrack.json set for this run (null: Settings judge it): kept in runs.budget. */
  budget: RunBudget | null;
}

export interface StoredAs {
  id: string;
  uploadedAt: Date;
  startedAt: Date;
  idempotencyKey: string | null;
  gate: KeptGateResult;
}

/** Jobs the run's statement enqueues with it (JobQueue.coalescedJobsSql). */
interface RunJobs {
  queue: JobQueue;
  jobs: readonly CoalescedJob[];
}

/**
 * Writes the run whole, with its gate result and the jobs of `withJobs`, in ONE statement (one round trip,
 * one snapshot, data-modifying CTEs): runRowsSql's rows under the run, runRowSql's run row, and the jobs
 * (JobQueue.coalescedJobsSql); then the jobs the statement could not settle (a series' waiting job
 * committed by a concurrent upload while the statement ran), through the same transaction `tx`.
 *
 * One statement because of the locks it takes: the project's row (its history version, which the
 * history triggers move: migration history_move_once) and the series' waiting job, each held until
 * COMMIT, so each upload to a project waits for the one before it. The caller judges the run first and
 * commits right after (ingest-run.ts): the locks are held for this statement and a round trip. The
 * upload had written its rows while it was judged, then the run row, then COMMIT, so they were held
 * across the judgement and three round trips through a busy event loop: in 2026-11 eight uploads to one
 * project queued on each other (docs/performance.md).
 */
export async function storeRun(
  tx: Prisma.TransactionClient,
  projectId: string,
  read: ReadUpload,
  storedAs: StoredAs,
  withJobs: RunJobs | null = null,
): Promise<RunIdentity> {
  const statement = parameters();
  const keys = {
    run: statement.param(storedAs.id, "text"),
    project: statement.param(projectId, "text"),
    startedAt: statement.param(storedAs.startedAt.toISOString(), "timestamptz"),
  };
  const rows = runRowsSql(statement, keys, read);
  const runRow = runRowSql(statement, keys, read, storedAs);
  const jobs = withJobs?.queue.coalescedJobsSql(withJobs.jobs, statement.values) ?? { ctes: [], settled: "ARRAY[]::boolean[]" };
  const sql = `
    WITH ${[...rows.ctes, runRow, ...jobs.ctes].join(",\n")}
    SELECT ${rows.counts}, (SELECT count(*)::int FROM run) AS runs, ${jobs.settled} AS settled`;
  const [written] = await tx.$queryRawUnsafe<{ endpoints: number; results: number; runs: number; settled: boolean[] }[]>(sql, ...statement.values);
  if (written?.endpoints !== rows.endpoints || written.results !== rows.results || written.runs !== 1) {
    throw new Error(
      `storeRun: ${written?.endpoints} of ${rows.endpoints} endpoints, ${written?.results} of ${rows.results} results and ${written?.runs} of 1 runs written`,
    );
  }
  if (withJobs) await withJobs.queue.settleCoalesced(withJobs.jobs, written.settled, tx);
  return runIdentityOf(read.run, storedAs.id, storedAs.startedAt, read);
}

/** The statement's parameters: each value once, named by its place and cast to its type. */
function parameters() {
  const values: unknown[] = [];
  const param = (value: unknown, type: string) => {
    values.push(value === undefined ? null : value);
    return `$${values.length}::${type}`;
  };
  const json = (value: unknown) => param(JSON.stringify(value ?? null), "jsonb");
  const column = <T,>(rows: readonly T[], pick: (row: T) => unknown, type: string) => param(rows.map((row) => pick(row) ?? null), `${type}[]`);
  return { values, param, json, column };
}

type StatementParameters = ReturnType<typeof parameters>;

/** The run's id, its project's and its start, as the statement's parameters. */
interface RunKeys {
  run: string;
  project: string;
  startedAt: string;
}

/**
 * The rows under a run, as CTEs of storeRun's statement: its endpoints: the ones the project has are
 * read (no write, no row lock: a 10,000-benchmark suite's every upload had rewritten all its endpoint
 * rows, and uploads of one series waited on each other's locks), the others inserted with their ids
 * (INSERT … ON CONFLICT DO UPDATE … RETURNING gives the id of a row a concurrent upload inserted too,
 * where DO NOTHING would return nothing and a SELECT in the same statement would not see it; the update
 * sets full_name, a column no unique key holds, so its row lock is FOR NO KEY UPDATE, which the FOR KEY
 * SHARE of a foreign key's check (detection's changes, another upload's results) does not wait for:
 * naming `name` took FOR UPDATE and deadlocked against them; rows are locked in (name, protocol) order,
 * so two uploads lock them alike); its results and custom metrics joined to those ids; its raw files;
 * and its week marked pending for the trend rollups (trends/trend-rollups.ts: markRunsPending). Rows go
 * as one array per column (unnest), so a 10,000-benchmark suite is still one statement of a few dozen
 * parameters. Their keys to the run are checked at COMMIT (DEFERRABLE INITIALLY DEFERRED, migration
 * runs_children_keys_deferred).
 */
function runRowsSql({ column }: StatementParameters, keys: RunKeys, { run, rawFiles }: Pick<ReadUpload, "run" | "rawFiles">) {
  // An endpoint is its name and protocol (domain/run.ts:endpointKey): each once, in one order for every
  // upload (rows are locked in that order: two uploads never wait on each other crosswise).
  const endpoints = [...new Map(run.endpoints.map((endpoint) => [endpointKey(endpoint), endpoint])).values()].sort((a, b) =>
    compareText(endpointKey(a), endpointKey(b)),
  );
  const endpointIndex = new Map(endpoints.map((endpoint, index) => [endpointKey(endpoint), index + 1]));

  const resultRows = [
    { endpoint: 0, row: toResultRow(run.aggregate, null) },
    ...run.endpoints.map((endpoint) => ({ endpoint: endpointIndex.get(endpointKey(endpoint))!, row: toResultRow(endpoint, null) })),
  ];
  const resultColumns = RESULT_COLUMNS.filter(([name]) => name !== "endpoint_id");
  const resultArrays = resultColumns.map(([, field, type]) =>
    type === "jsonb"
      ? column(resultRows, ({ row }) => (row[field] === null || row[field] === undefined ? null : JSON.stringify(row[field])), "text")
      : column(resultRows, ({ row }) => row[field], type),
  );
  const metricRows = [
    ...Object.entries(run.metrics).map(([key, metric]) => ({ key, metric, endpoint: 0 })),
    ...run.endpoints.flatMap((endpoint) =>
      Object.entries(endpoint.metrics).map(([key, metric]) => ({ key, metric, endpoint: endpointIndex.get(endpointKey(endpoint))! })),
    ),
  ];
  const rawRows = rawFiles.map((file, position) => ({ ...file, position }));

  const ctes = [
    // The project's row first (its history version, which the history triggers move at the statement's
    // end), before the jobs' rows: the order a run deletion and an import lock them in (project, then
    // jobs), so no two of them deadlock. endpoint_input reads it, so it is taken before anything else.
    `project_row AS (SELECT id FROM projects WHERE id = ${keys.project} FOR NO KEY UPDATE)`,
    `endpoint_input AS (
      SELECT e.name, e.full_name, e.protocol, e.method, e.n
        FROM project_row, unnest(${column(endpoints, (e) => e.name, "text")}, ${column(endpoints, (e) => e.fullName, "text")},
                    ${column(endpoints, (e) => e.protocol, "text")}, ${column(endpoints, (e) => e.method, "text")})
             WITH ORDINALITY AS e(name, full_name, protocol, method, n)
    )`,
    `endpoint_found AS (
      SELECT d.id, e.n FROM endpoint_input e
        JOIN endpoints d ON d.project_id = ${keys.project} AND d.name = e.name AND d.protocol IS NOT DISTINCT FROM e.protocol
    )`,
    `endpoint_rows AS (
      INSERT INTO endpoints (project_id, name, full_name, protocol, method)
      SELECT ${keys.project}, e.name, e.full_name, e.protocol, e.method
        FROM endpoint_input e
       WHERE NOT EXISTS (SELECT 1 FROM endpoint_found f WHERE f.n = e.n)
       ORDER BY e.name, e.protocol
      ON CONFLICT (project_id, name, protocol) DO UPDATE SET full_name = endpoints.full_name
      RETURNING id, name, protocol
    )`,
    `endpoint_ids AS (
      SELECT id, n FROM endpoint_found
      UNION ALL
      SELECT r.id, e.n FROM endpoint_input e JOIN endpoint_rows r ON r.name = e.name AND r.protocol IS NOT DISTINCT FROM e.protocol
    )`,
    `result_rows AS (
      INSERT INTO results (run_id, project_id, started_at, endpoint_id, ${resultColumns.map(([name]) => name).join(", ")})
      SELECT ${keys.run}, ${keys.project}, ${keys.startedAt}, endpoint_ids.id,
             ${resultColumns.map(([name, , type]) => (type === "jsonb" ? `r.${name}::jsonb` : `r.${name}`)).join(", ")}
        FROM unnest(${column(resultRows, (row) => row.endpoint, "int")}, ${resultArrays.join(", ")})
             AS r(endpoint, ${resultColumns.map(([name]) => name).join(", ")})
        LEFT JOIN endpoint_ids ON endpoint_ids.n = r.endpoint
      RETURNING 1
    )`,
    `metric_rows AS (
      INSERT INTO metrics (run_id, project_id, started_at, endpoint_id, key, value, unit, better, exact)
      SELECT ${keys.run}, ${keys.project}, ${keys.startedAt}, endpoint_ids.id, m.key, m.value, m.unit, m.better::"Better", m.exact
        FROM unnest(${column(metricRows, (row) => row.endpoint, "int")}, ${column(metricRows, (row) => row.key, "text")},
                    ${column(metricRows, (row) => row.metric.value, "float8")}, ${column(metricRows, (row) => row.metric.unit, "text")},
                    ${column(metricRows, (row) => row.metric.better, "text")}, ${column(metricRows, (row) => row.metric.exact === true, "bool")})
             AS m(endpoint, key, value, unit, better, exact)
        LEFT JOIN endpoint_ids ON endpoint_ids.n = m.endpoint
      RETURNING 1
    )`,
    // The raw files' bytes as base64 text the database decodes: see the note on raw files below.
    `raw_rows AS (
      INSERT INTO raw_uploads (run_id, position, file_name, content_type, size_bytes, gzip_data)
      SELECT ${keys.run}, f.position, f.file_name, f.content_type, f.size_bytes, decode(f.gzip, 'base64')
        FROM unnest(${column(rawRows, (f) => f.position, "int")}, ${column(rawRows, (f) => f.name, "text")}, ${column(rawRows, (f) => f.contentType, "text")},
                    ${column(rawRows, (f) => f.sizeBytes, "int")}, ${column(rawRows, (f) => f.gzip.toString("base64"), "text")})
             AS f(position, file_name, content_type, size_bytes, gzip)
      RETURNING 1
    )`,
    // The run's week is pending until its rollups are recomputed (the trend page reads it raw meanwhile):
    // the week as trends/trend-rollups.ts (WEEK_SQL) computes it.
    `pending AS (
      INSERT INTO trend_rollup_pending (project_id, week_start)
      VALUES (${keys.project}, date_trunc('week', ${keys.startedAt} AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')
      RETURNING 1
    )`,
  ];
  return {
    ctes,
    counts: `(SELECT count(*)::int FROM endpoint_ids) AS endpoints, (SELECT count(*)::int FROM result_rows) AS results,
             (SELECT count(*)::int FROM metric_rows) AS metrics, (SELECT count(*)::int FROM raw_rows) AS raw, (SELECT count(*)::int FROM pending) AS pending`,
    endpoints: endpoints.length,
    results: resultRows.length,
  };
}

/** The run row with its gate result, as the CTE `run` of storeRun's statement. */
function runRowSql(
  { param, json }: StatementParameters,
  keys: RunKeys,
  { run, format, sha256, base, ab, budget }: ReadUpload,
  { uploadedAt, idempotencyKey, gate }: StoredAs,
): string {
  const { git, ci, host } = run.environment;
  const runColumns: [string, string][] = [
    ["id", keys.run],
    ["project_id", keys.project],
    ["uploaded_at", param(uploadedAt.toISOString(), "timestamptz")],
    ["tool", param(run.tool, "text")],
    ["tool_version", param(run.toolVersion, "text")],
    ["format", param(format, "text")],
    ["protocol", param(run.aggregate.protocol, "text")],
    ["parser_version", param(PARSER_VERSION, "int")],
    ["label", param(run.label, "text")],
    ["round", param(run.round, "int")],
    ["started_at", keys.startedAt],
    ["duration_seconds", param(run.durationSeconds, "float8")],
    ["git_commit", param(git.commit, "text")],
    ["git_branch", param(git.branch, "text")],
    ["pull_request", param(git.pullRequest, "int")],
    ["git_base_commit", param(base.commit, "text")],
    ["git_base_branch", param(base.branch, "text")],
    ["git_base_time", param(base.time?.toISOString() ?? null, "timestamptz")],
    ["ab_job", param(ab?.job ?? null, "text")],
    ["ab_side", param(ab?.side ?? null, "text")],
    ["ab_pair", param(ab?.pair ?? null, "int")],
    ["build_url", param(ci.buildUrl, "text")],
    ["host_name", param(host.name, "text")],
    ["host_cpus", param(host.cpus, "int")],
    ["host_memory_gb", param(host.memoryGb, "float8")],
    ["testbed", param(run.environment.testbed, "text")],
    ["app_version", param(run.environment.appVersion, "text")],
    ["config", json(run.environment.config ?? {})],
    ["attributes", json(run.environment.attributes ?? {})],
    ["thresholds", json(run.thresholds ?? [])],
    ["checks", json(run.checks ?? [])],
    ["notes", json(run.notes ?? [])],
    ["idempotency_key", param(idempotencyKey, "text")],
    ["body_sha256", param(sha256, "text")],
    // What CI was told, kept with the run: the history's outcome column, and whether its gate found a regression.
    ["outcome", param(gate.outcome, "text")],
    ["outcome_reasons", param(gate.outcomeReasons, "text[]")],
    ["regressed", param(gate.regressed, "bool")],
    ["gate_changes", json(gate.gateChanges)],
    // The budget that judged it: NULL (not JSON null) when Settings did, so "budget IS NOT NULL" finds the others.
    ["budget", budget === null ? param(null, "jsonb") : json(budget)],
  ];
  return `run AS (
      INSERT INTO runs (${runColumns.map(([name]) => name).join(", ")}) VALUES (${runColumns.map(([, placeholder]) => placeholder).join(", ")})
      RETURNING id
    )`;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A result row's columns after run_id, project_id and started_at. */
type ResultRow = ReturnType<typeof toResultRow>;

/** results' columns a run's rows fill (prisma/schema.prisma model Result): the row's field, its SQL type. */
const RESULT_COLUMNS: readonly (readonly [column: string, field: keyof ResultRow, type: "int" | "float8" | "jsonb"])[] = [
  ["endpoint_id", "endpointId", "int"],
  ["requests", "requests", "int"],
  ["failures", "failures", "int"],
  ["error_rate", "errorRate", "float8"],
  ["throughput", "throughput", "float8"],
  ["min_ms", "minMs", "float8"],
  ["mean_ms", "meanMs", "float8"],
  ["p50_ms", "p50Ms", "float8"],
  ["p90_ms", "p90Ms", "float8"],
  ["p95_ms", "p95Ms", "float8"],
  ["p99_ms", "p99Ms", "float8"],
  ["max_ms", "maxMs", "float8"],
  ["std_dev_ms", "stdDevMs", "float8"],
  ["percentiles", "percentiles", "jsonb"],
  ["histogram", "histogram", "jsonb"],
  ["timeline", "timeline", "jsonb"],
  ["status_codes", "statusCodes", "jsonb"],
  ["errors", "errors", "jsonb"],
];

function toResultRow(result: EndpointResult, endpointId: number | null) {
  const { latency } = result;
  const percentile = (key: string) => latency.percentiles[key] ?? null;
  return {
    endpointId,
    requests: result.requests,
    failures: result.failures,
    errorRate: errorRateOf(result),
    throughput: result.throughput,
    minMs: latency.minMs,
    meanMs: latency.meanMs,
    p50Ms: percentile("50"),
    p90Ms: percentile("90"),
    p95Ms: percentile("95"),
    p99Ms: percentile("99"),
    maxMs: latency.maxMs,
    stdDevMs: latency.stdDevMs,
    percentiles: latency.percentiles,
    histogram: result.histogram,
    timeline: result.timeline,
    statusCodes: result.statusCodes,
    errors: result.errors,
  };
}

/*
 * The note on raw files (raw_rows above): the raw files' bytes go as base64 text that the database decodes.
 * Not a bytea parameter: the embedded database's driver (PGlite) writes one as hex through a JavaScript
 * string per byte, which for a 3 MB gzip left ~300 MB of garbage on the heap and the process's RSS that
 * much higher (a 100 MB k6 NDJSON upload, `npm run bench -- --embedded`). Base64 is one native encoding,
 * a third larger than the bytes.
 */
