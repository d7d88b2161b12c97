import type { EndpointResult, FormatId, ParsedRun } from "../../domain/run";
import { endpointKey, errorRateOf } from "../../domain/run";
import type { Prisma } from "../../generated/prisma/client";
import type { KeptGateChange } from "../../domain/gate/judge";
import type { StoredRaw } from "./received-upload";

/**
 * Writes a parsed run inside the upload's transaction (ingest-run.ts): the run row with its verdict,
 * its endpoints (new names added), results, custom metrics and raw upload.
 */
/** 2: every tool's native output (issue 12): k6 groups as run metrics, HDR histograms from samples, timelines. */
export const PARSER_VERSION = 2;

/** What the upload keeps of its verdict, with the run. */
export interface KeptVerdict {
  outcome: string | null;
  outcomeReasons: string[];
  /** Whether its gate found a regression (such a run stays out of later baselines until triaged: domain/gate/baseline-window.ts). */
  regressed: boolean | null;
  /** Every change its gate named, with its status (runs.gate_changes). */
  gateChanges: KeptGateChange[];
}

/** The stored run as what follows the upload (detection, the verdict) needs it, without reading it again. */
export interface IngestedRun {
  id: string;
  label: string | null;
  tool: string;
  gitBranch: string | null;
  gitCommit: string | null;
  testbed: string | null;
  config: unknown;
  startedAt: Date;
  /** The merge-base the upload named (base_commit…), which picks its baseline. */
  gitBaseCommit: string | null;
  gitBaseBranch: string | null;
  gitBaseTime: Date | null;
  abJob: string | null;
  abSide: string | null;
  abPair: number | null;
}

/** An upload read and parsed: the run (metadata applied, validated), and what is stored of the body. */
export interface ReadUpload {
  run: ParsedRun;
  format: FormatId;
  sha256: string;
  rawFiles: StoredRaw[];
  /** The merge-base the metadata named (not part of the parsed run: it describes the comparison). */
  base: { commit: string | null; branch: string | null; time: Date | null };
  /** The A/B job the run belongs to (ab_job, ab_side, ab_pair), or null. */
  ab: AbRun | null;
}

/** A run's place in a same-job A/B job (docs/ci.md, "A/B jobs"). */
export interface AbRun {
  job: string;
  side: "base" | "head";
  pair: number;
}

export const INGESTED_RUN_SELECT = {
  id: true,
  label: true,
  tool: true,
  gitBranch: true,
  gitCommit: true,
  testbed: true,
  config: true,
  startedAt: true,
  gitBaseCommit: true,
  gitBaseBranch: true,
  gitBaseTime: true,
  abJob: true,
  abSide: true,
  abPair: true,
} as const;

export interface StoredAs {
  id: string;
  uploadedAt: Date;
  startedAt: Date;
  idempotencyKey: string | null;
  verdict: KeptVerdict;
}

export async function storeRun(
  tx: Prisma.TransactionClient,
  projectId: string,
  { run, format, sha256, rawFiles, base, ab }: ReadUpload,
  { id, uploadedAt, startedAt, idempotencyKey, verdict }: StoredAs,
): Promise<IngestedRun> {
  const { git, ci, host } = run.environment;
  const created = await tx.run.create({
    data: {
      id,
      uploadedAt,
      projectId,
      tool: run.tool,
      toolVersion: run.toolVersion,
      format,
      protocol: run.aggregate.protocol,
      parserVersion: PARSER_VERSION,
      label: run.label,
      round: run.round,
      startedAt,
      durationSeconds: run.durationSeconds,
      gitCommit: git.commit,
      gitBranch: git.branch,
      pullRequest: git.pullRequest,
      gitBaseCommit: base.commit,
      gitBaseBranch: base.branch,
      gitBaseTime: base.time,
      abJob: ab?.job ?? null,
      abSide: ab?.side ?? null,
      abPair: ab?.pair ?? null,
      buildUrl: ci.buildUrl,
      hostName: host.name,
      hostCpus: host.cpus,
      hostMemoryGb: host.memoryGb,
      testbed: run.environment.testbed,
      appVersion: run.environment.appVersion,
      config: run.environment.config,
      attributes: run.environment.attributes,
      thresholds: run.thresholds as unknown as Prisma.InputJsonValue,
      checks: run.checks as unknown as Prisma.InputJsonValue,
      notes: run.notes,
      idempotencyKey,
      bodySha256: sha256,
      // What CI was told, kept with the run: the history's outcome column, and whether its gate found a regression.
      outcome: verdict.outcome,
      outcomeReasons: verdict.outcomeReasons,
      regressed: verdict.regressed,
      gateChanges: verdict.gateChanges as unknown as Prisma.InputJsonValue,
    },
    select: INGESTED_RUN_SELECT,
  });

  const names = run.endpoints.map((endpoint) => endpoint.name);
  // ON CONFLICT DO NOTHING: concurrent uploads may introduce the same endpoint at once.
  await insertRows(
    tx,
    "endpoints",
    ENDPOINT_COLUMNS,
    [projectId],
    run.endpoints.map((endpoint) => [endpoint.name, endpoint.fullName, endpoint.protocol, endpoint.method]),
    "ON CONFLICT DO NOTHING",
  );
  // An endpoint is its name and protocol (domain/run.ts:endpointKey): read every row of these names, keep ours.
  const endpointIds = new Map(
    (
      await tx.endpoint.findMany({ where: { projectId, name: { in: names } }, select: { id: true, name: true, protocol: true } })
    ).map((endpoint) => [endpointKey(endpoint), endpoint.id]),
  );

  const resultRows = [
    toResultRow(run.aggregate, null),
    ...run.endpoints.map((endpoint) => toResultRow(endpoint, endpointIds.get(endpointKey(endpoint)) ?? null)),
  ];
  await insertResults(tx, { runId: created.id, projectId, startedAt }, resultRows);

  const metricRows = [
    ...Object.entries(run.metrics).map(([key, metric]) => ({ key, metric, endpointId: null })),
    ...run.endpoints.flatMap((endpoint) =>
      Object.entries(endpoint.metrics).map(([key, metric]) => ({
        key,
        metric,
        endpointId: endpointIds.get(endpointKey(endpoint)) ?? null,
      })),
    ),
  ];
  await insertRows(
    tx,
    "metrics",
    METRIC_COLUMNS,
    [created.id, projectId, startedAt.toISOString()],
    metricRows.map(({ key, metric, endpointId }) => [endpointId, key, metric.value, metric.unit, metric.better, metric.exact === true]),
  );

  await insertRawFiles(tx, created.id, rawFiles);
  await tx.project.update({ where: { id: projectId }, data: { updatedAt: new Date() } });
  return created;
}

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

/** Rows per INSERT: PostgreSQL takes at most 65,535 parameters in one statement. */
const RESULT_ROWS_PER_INSERT = 1_000;

/**
 * A run's result rows in multi-row INSERTs. Not Prisma's createMany: for a 50-endpoint run it spent
 * 34 ms of CPU shaping 1,000 arguments where this spends one (npm run bench:profile); the SQL is the
 * same INSERT, with the run's columns given once. JSON goes as its text, SQL NULL for none.
 */
async function insertResults(
  tx: Prisma.TransactionClient,
  run: { runId: string; projectId: string; startedAt: Date },
  rows: readonly ResultRow[],
): Promise<void> {
  const columns = RESULT_COLUMNS.map(([column]) => column).join(", ");
  for (let offset = 0; offset < rows.length; offset += RESULT_ROWS_PER_INSERT) {
    const values: unknown[] = [run.runId, run.projectId, run.startedAt.toISOString()];
    const tuples = rows.slice(offset, offset + RESULT_ROWS_PER_INSERT).map((row) => {
      const placeholders = RESULT_COLUMNS.map(([, field, type]) => {
        const value = row[field];
        values.push(type === "jsonb" && value !== null && value !== undefined ? JSON.stringify(value) : (value ?? null));
        return `$${values.length}::${type}`;
      });
      return `($1::text, $2::text, $3::timestamptz, ${placeholders.join(", ")})`;
    });
    await tx.$executeRawUnsafe(`INSERT INTO results (run_id, project_id, started_at, ${columns}) VALUES ${tuples.join(", ")}`, ...values);
  }
}

/** endpoints' columns: the project's, once per statement, then each row's (prisma/schema.prisma model Endpoint). */
const ENDPOINT_COLUMNS = { fixed: [["project_id", "text"]], row: [["name", "text"], ["full_name", "text"], ["protocol", "text"], ["method", "text"]] } as const;
/** metrics' columns: the run's, once per statement, then each row's (model Metric). */
const METRIC_COLUMNS = {
  fixed: [["run_id", "text"], ["project_id", "text"], ["started_at", "timestamptz"]],
  row: [["endpoint_id", "int"], ["key", "text"], ["value", "float8"], ["unit", "text"], ["better", '"Better"'], ["exact", "bool"]],
} as const;

/**
 * Rows in multi-row INSERTs, as insertResults writes results: Prisma's createMany spent 2-4 s shaping
 * the 10,000 endpoints of a benchmark suite and 7-15 s its 20,000 metrics, where the same INSERTs
 * take a fraction of a second. `fixed` values are sent once per statement.
 */
async function insertRows(
  tx: Prisma.TransactionClient,
  table: string,
  columns: { fixed: readonly (readonly [string, string])[]; row: readonly (readonly [string, string])[] },
  fixed: readonly unknown[],
  rows: readonly (readonly unknown[])[],
  suffix = "",
): Promise<void> {
  const names = [...columns.fixed, ...columns.row].map(([column]) => column).join(", ");
  const fixedPlaceholders = columns.fixed.map(([, type], index) => `$${index + 1}::${type}`);
  // PostgreSQL takes at most 65,535 parameters in one statement; 1,000 rows as insertResults sends.
  const rowsPerInsert = Math.min(RESULT_ROWS_PER_INSERT, Math.floor(60_000 / columns.row.length));
  for (let offset = 0; offset < rows.length; offset += rowsPerInsert) {
    const values: unknown[] = [...fixed];
    const tuples = rows.slice(offset, offset + rowsPerInsert).map((row) => {
      const placeholders = columns.row.map(([, type], index) => {
        values.push(row[index] ?? null);
        return `$${values.length}::${type}`;
      });
      return `(${[...fixedPlaceholders, ...placeholders].join(", ")})`;
    });
    await tx.$executeRawUnsafe(`INSERT INTO ${table} (${names}) VALUES ${tuples.join(", ")} ${suffix}`, ...values);
  }
}

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

/**
 * The raw files, their bytes sent as base64 text that the database decodes. Not a bytea parameter: the
 * embedded database's driver (PGlite) writes one as hex through a JavaScript string per byte, which for
 * a 3 MB gzip left ~300 MB of garbage on the heap and the process's RSS that much higher (a 100 MB k6
 * NDJSON upload, `npm run bench -- --embedded`). Base64 is one native encoding, a third larger than the
 * bytes.
 */
async function insertRawFiles(tx: Prisma.TransactionClient, runId: string, rawFiles: readonly StoredRaw[]) {
  for (const [position, file] of rawFiles.entries()) {
    await tx.$executeRaw`
      INSERT INTO raw_uploads (run_id, position, file_name, content_type, size_bytes, gzip_data)
      VALUES (${runId}, ${position}, ${file.name}, ${file.contentType}, ${file.sizeBytes}, decode(${file.gzip.toString("base64")}, 'base64'))`;
  }
}
