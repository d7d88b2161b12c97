import { createHash } from "node:crypto";
import { applyRunMetadata, nameByMethod, parseK6Ndjson, parseUpload, validateParsedRun } from "../domain/parsers";
import type { RunMetadata } from "../domain/parsers";
import type { EndpointResult, FormatId, ParsedRun } from "../domain/run";
import { endpointKey, errorRateOf } from "../domain/run";
import { Prisma } from "../generated/prisma/client";
import type { PrismaClient } from "../generated/prisma/client";
import { notFound, ServiceError } from "./errors";
import { jobQueueFor } from "./job-queue";
import { seriesKey } from "./regression-detection";
import type { ReceivedUpload, StoredRaw } from "./received-upload";

/**
 * Stores an upload as a run: parse (pure), apply the query metadata, validate, then write the run,
 * its endpoints, results, custom metrics and raw upload in ONE transaction — a run is stored whole
 * or not at all. An idempotency key makes retries safe: the same key and body return the first run;
 * the same key with another body is a conflict.
 */
/** 2: every tool's native output (issue 12): k6 groups as run metrics, HDR histograms from samples, timelines. */
export const PARSER_VERSION = 2;

export interface IngestRequest {
  projectSlug: string;
  /** Admin uploads create an unknown project; project tokens never reach an unknown project. */
  createProjectIfMissing: boolean;
  upload: ReceivedUpload;
  format: string | null;
  metadata: RunMetadata;
  idempotencyKey: string | null;
  /** Aborted when the client goes away: the upload stops before parsing or storing what nobody awaits. */
  signal?: AbortSignal;
  /** The public URL the detection job's webhooks link to. */
  baseUrl: string;
}

/** The stored run as what follows the upload (detection, the verdict) needs it, without reading it again. */
export interface IngestedRun {
  id: string;
  label: string | null;
  tool: string;
  gitBranch: string | null;
  gitCommit: string | null;
  config: unknown;
  startedAt: Date;
  /** The merge-base the upload named (base_commit…), which picks its baseline. */
  gitBaseCommit: string | null;
  gitBaseBranch: string | null;
  gitBaseTime: Date | null;
}

export interface IngestOutcome {
  /** "replayed": an Idempotency-Key seen before with the same body; nothing was written. */
  status: "created" | "replayed";
  run: IngestedRun;
  format: FormatId;
  endpoints: string[];
}

/** An upload read and parsed: the run (metadata applied, validated), and what is stored of the body. */
interface ReadUpload {
  run: ParsedRun;
  format: FormatId;
  sha256: string;
  rawFiles: StoredRaw[];
  /** The merge-base the metadata named (not part of the parsed run: it describes the comparison). */
  base: { commit: string | null; branch: string | null; time: Date | null };
}

async function readReceivedUpload(
  upload: ReceivedUpload,
  format: string | null,
  metadata: RunMetadata,
): Promise<Omit<ReadUpload, "base">> {
  let parsed: { run: ParsedRun; format: FormatId };
  let body: { sha256: string; rawFiles: StoredRaw[] };
  if (upload.kind === "ndjson") {
    parsed = { run: nameByMethod(await parseK6Ndjson(upload.lines)), format: "k6-ndjson" };
    const { raw, sha256 } = upload.stored();
    body = { sha256, rawFiles: [raw] };
  } else {
    parsed = parseUpload({ files: upload.files.map(({ name, text }) => ({ name, text })), format });
    body = { sha256: upload.sha256, rawFiles: upload.files };
  }
  const run = validateParsedRun(normalizeRunMetrics(applyRunMetadata(parsed.run, metadata)));
  return { run, format: parsed.format, ...body };
}

/**
 * The idempotency fingerprint stored as runs.body_sha256: the content's hash (a file set's names and
 * bytes, never a multipart boundary) with the format and metadata the query gave, so the same key with
 * another ?label= is a conflict, not a silent replay of the old run.
 */
function uploadFingerprint(contentSha256: string, format: string | null, metadata: RunMetadata): string {
  const canonical = (value: unknown): unknown =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([, item]) => item !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([key, item]) => [key, canonical(item)]),
        )
      : value;
  return createHash("sha256").update(JSON.stringify([contentSha256, format, canonical(metadata)])).digest("hex");
}

/** Custom metrics of the aggregate are the run's: one place for them, as stored (endpoint_id NULL). */
function normalizeRunMetrics(run: ParsedRun): ParsedRun {
  if (Object.keys(run.aggregate.metrics).length === 0) return run;
  return { ...run, metrics: { ...run.aggregate.metrics, ...run.metrics }, aggregate: { ...run.aggregate, metrics: {} } };
}

export async function ingestRun(db: PrismaClient, request: IngestRequest): Promise<IngestOutcome> {
  const { projectSlug, upload, idempotencyKey } = request;
  const existingProject = await db.project.findUnique({ where: { slug: projectSlug }, select: { id: true, defaultBranch: true } });
  const queue = await jobQueueFor(db);
  if (!existingProject && !request.createProjectIfMissing) throw notFound(`Project "${projectSlug}"`);
  // What a retry must repeat to be the same upload: the content AND what the query says of it.
  const fingerprint = (contentSha256: string) => uploadFingerprint(contentSha256, request.format, request.metadata);
  const replayOf = async (sha256: string) =>
    existingProject && idempotencyKey ? findReplay(db, existingProject.id, idempotencyKey, fingerprint(sha256)) : null;

  // A document's hash is known before parsing, so a retry skips the parse; NDJSON's once it is read.
  const early = upload.kind === "files" ? await replayOf(upload.sha256) : null;
  if (early) return early;
  request.signal?.throwIfAborted();
  const parsed = await readReceivedUpload(upload, request.format, request.metadata);
  const { base_commit: baseCommit, base_branch: baseBranch, base_time: baseTime } = request.metadata;
  const read: ReadUpload = {
    ...parsed,
    sha256: fingerprint(parsed.sha256),
    base: {
      commit: baseCommit?.toLowerCase() ?? null,
      branch: baseBranch ?? null,
      time: baseTime === undefined ? null : new Date(baseTime),
    },
  };
  const late = upload.kind === "ndjson" ? await replayOf(parsed.sha256) : null;
  if (late) return late;
  // Stored after the client left, the run would be answered to nobody (and a retry without a key
  // would store it twice): stop here. Past this point the run commits and a retry replays it.
  request.signal?.throwIfAborted();

  try {
    const stored = await db.$transaction(
      async (tx) => {
        const project = existingProject ?? (await createProjectOnce(tx, projectSlug));
        const run = await storeRun(tx, project.id, read, idempotencyKey);
        // Change-point detection over the series' history is a job (server/services/job-queue.ts), not
        // part of the answer: enqueued here (or coalesced into the series' waiting one), it exists
        // exactly when the run does.
        if (run.gitBranch !== null && run.gitBranch === project.defaultBranch) {
          const series = { projectId: project.id, tool: run.tool, label: run.label };
          const data = { ...series, runId: run.id, baseUrl: request.baseUrl };
          await queue.sendCoalesced("detect-regressions", data, tx, seriesKey(series));
        }
        return run;
      },
      { timeout: 60_000, maxWait: 30_000 },
    );
    return { status: "created", run: stored, format: read.format, endpoints: read.run.endpoints.map((endpoint) => endpoint.name) };
  } catch (error) {
    // A concurrent retry with the same key won the race: answer as that retry would.
    if (idempotencyKey && isUniqueViolation(error)) {
      const project = await db.project.findUniqueOrThrow({ where: { slug: projectSlug }, select: { id: true } });
      const replay = await findReplay(db, project.id, idempotencyKey, read.sha256);
      if (replay) return replay;
    }
    throw error;
  }
}

/**
 * Creates the project if no concurrent upload did: INSERT … ON CONFLICT DO NOTHING waits for a racing
 * insert to commit and then yields, where an upsert would fail on the unique slug.
 */
async function createProjectOnce(tx: Prisma.TransactionClient, slug: string) {
  await tx.project.createMany({ data: [{ slug, name: slug }], skipDuplicates: true });
  return tx.project.findUniqueOrThrow({ where: { slug }, select: { id: true, defaultBranch: true } });
}

const INGESTED_RUN_SELECT = {
  id: true,
  label: true,
  tool: true,
  gitBranch: true,
  gitCommit: true,
  config: true,
  startedAt: true,
  gitBaseCommit: true,
  gitBaseBranch: true,
  gitBaseTime: true,
} as const;

async function findReplay(
  db: PrismaClient,
  projectId: string,
  idempotencyKey: string,
  bodySha256: string,
): Promise<IngestOutcome | null> {
  const previous = await db.run.findUnique({
    where: { projectId_idempotencyKey: { projectId, idempotencyKey } },
    select: { ...INGESTED_RUN_SELECT, bodySha256: true, format: true, results: { select: { endpoint: { select: { name: true } } } } },
  });
  if (!previous) return null;
  if (previous.bodySha256 !== bodySha256) {
    throw new ServiceError("conflict", "This Idempotency-Key was used for an upload with a different body or metadata", [
      { path: "header.idempotency-key", message: `first used by run ${previous.id}` },
    ]);
  }
  const { bodySha256: _sha256, format, results, ...run } = previous;
  return {
    status: "replayed",
    run,
    format: format as FormatId,
    endpoints: results.flatMap((result) => (result.endpoint ? [result.endpoint.name] : [])),
  };
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

async function storeRun(
  tx: Prisma.TransactionClient,
  projectId: string,
  { run, format, sha256, rawFiles, base }: ReadUpload,
  idempotencyKey: string | null,
): Promise<IngestedRun> {
  const startedAt = run.startedAt ? new Date(run.startedAt) : new Date();
  const { git, ci, host } = run.environment;
  const created = await tx.run.create({
    data: {
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
      buildUrl: ci.buildUrl,
      hostName: host.name,
      hostCpus: host.cpus,
      hostMemoryGb: host.memoryGb,
      appVersion: run.environment.appVersion,
      config: run.environment.config,
      attributes: run.environment.attributes,
      thresholds: run.thresholds as unknown as Prisma.InputJsonValue,
      checks: run.checks as unknown as Prisma.InputJsonValue,
      notes: run.notes,
      idempotencyKey,
      bodySha256: sha256,
    },
    select: INGESTED_RUN_SELECT,
  });

  const names = run.endpoints.map((endpoint) => endpoint.name);
  if (names.length > 0) {
    // ON CONFLICT DO NOTHING: concurrent uploads may introduce the same endpoint at once.
    await tx.endpoint.createMany({
      data: run.endpoints.map((endpoint) => ({
        projectId,
        name: endpoint.name,
        fullName: endpoint.fullName,
        protocol: endpoint.protocol,
        method: endpoint.method,
      })),
      skipDuplicates: true,
    });
  }
  // An endpoint is its name and protocol (domain/run.ts:endpointKey): read every row of these names, keep ours.
  const endpointIds = new Map(
    (
      await tx.endpoint.findMany({ where: { projectId, name: { in: names } }, select: { id: true, name: true, protocol: true } })
    ).map((endpoint) => [endpointKey(endpoint), endpoint.id]),
  );

  const resultRows = [
    toResultRow(run.aggregate, null),
    ...run.endpoints.map((endpoint) => toResultRow(endpoint, endpointIds.get(endpointKey(endpoint)) ?? null)),
  ].map((row) => ({ ...row, runId: created.id, projectId, startedAt }));
  await tx.result.createMany({ data: resultRows });

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
  if (metricRows.length > 0) {
    await tx.metric.createMany({
      data: metricRows.map(({ key, metric, endpointId }) => ({
        runId: created.id,
        projectId,
        endpointId,
        startedAt,
        key,
        value: metric.value,
        unit: metric.unit,
        better: metric.better,
      })),
    });
  }

  await tx.rawUpload.createMany({
    data: rawFiles.map((file, position) => ({
      runId: created.id,
      position,
      fileName: file.name,
      contentType: file.contentType,
      sizeBytes: file.sizeBytes,
      gzipData: new Uint8Array(file.gzip),
    })),
  });
  await tx.project.update({ where: { id: projectId }, data: { updatedAt: new Date() } });
  return created;
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
    histogram: result.histogram ? (result.histogram as unknown as Prisma.InputJsonValue) : Prisma.DbNull,
    timeline: result.timeline ? (result.timeline as unknown as Prisma.InputJsonValue) : Prisma.DbNull,
    statusCodes: result.statusCodes ?? Prisma.DbNull,
    errors: result.errors ?? Prisma.DbNull,
  };
}
