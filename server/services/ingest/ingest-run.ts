import { createHash } from "node:crypto";
import { completeRun, nameByMethod, parseK6Ndjson } from "../../domain/parsers";
import type { RunMetadata } from "../../domain/parsers";
import type { FormatId } from "../../domain/run";
import { Prisma } from "../../generated/prisma/client";
import type { PrismaClient } from "../../generated/prisma/client";
import { notFound, ServiceError } from "../platform";
import type { CoalescedJob } from "../platform";
import { jobQueueFor } from "../platform";
import type { ReceivedUpload } from "./received-upload";
import type { UploadedBudget } from "../../schemas/budget";
import { resolveBudget } from "../../domain/gate/budget";
import { defaultBranchSeriesKey, newRunId } from "../runs";
import type { KeptGateResult, ReadUpload } from "./store-run";
import { parseInPool } from "../platform";
import { storeRun } from "./store-run";

export { PARSER_VERSION } from "./store-run";
export type { KeptGateResult } from "./store-run";
import type { LoadedRun } from "../runs";
import { asStoredRun, RUN_IDENTITY_SELECT, runIdentityOf } from "../runs";
import type { RunIdentity } from "../runs";
import { rememberStoredRun } from "../runs";

/**
 * Stores an upload as a run, in one pass: parse (pure), apply the query metadata, validate, judge the
 * parsed run (the caller's `judge`: its CI gate result, kept with it), then write the run with its gate result,
 * its endpoints, results, custom metrics, raw upload and detection job in ONE transaction — a run is
 * stored whole or not at all, and never changed after. The project is the one the caller read. An
 * idempotency key makes retries safe: the same key and body return the first run; the same key with
 * another body is a conflict.
 */
/** The project as read from its row (findProject): its id, slug and gate settings. */
export type IngestProject = NonNullable<Awaited<ReturnType<PrismaClient["project"]["findUnique"]>>>;

const NOT_JUDGED: KeptGateResult = { outcome: null, outcomeReasons: [], regressed: null, gateChanges: [] };

/** A run's judgement: the gate's answer, and what the run keeps of it. */
export interface Judged<Gate> {
  gate: Gate;
  kept: KeptGateResult;
}

/**
 * Judges the parsed run as it will be stored, before it is: reads its history through `db` (the
 * database, or the transaction that is creating the project: a new project's history is empty, and
 * reading it through the transaction sees the project), then judges it (in its CPU thread:
 * services/platform/cpu-pool.ts).
 */
export type JudgeUpload<Gate> = (
  db: Prisma.TransactionClient,
  project: IngestProject,
  head: { loaded: LoadedRun; forBaseline: RunIdentity },
) => Promise<Judged<Gate>>;

export interface IngestRequest<Gate> {
  projectSlug: string;
  /** The project as the caller read it (null: it does not exist yet; undefined: read it here). */
  project?: IngestProject | null;
  /** Admin uploads create an unknown project; project tokens never reach an unknown project. */
  createProjectIfMissing: boolean;
  upload: ReceivedUpload;
  format: string | null;
  metadata: RunMetadata;
  /** The repository's benchtrack.json sent with the upload, validated (null or absent: Settings judge the run). */
  budget?: UploadedBudget | null;
  idempotencyKey: string | null;
  /** Aborted when the client goes away: the upload stops before parsing or storing what nobody awaits. */
  signal?: AbortSignal;
  /** The public URL the detection job's webhooks link to. */
  baseUrl: string;
  /** Omitted: the run is stored without a gate result (outcome null, as runs stored before outcomes were kept): tests' seeding. */
  judge?: JudgeUpload<Gate>;
}

/** "replayed": an Idempotency-Key seen before with the same body; nothing was written (and nothing judged). */
export type IngestOutcome<Gate> =
  | { status: "created"; project: IngestProject; run: RunIdentity; gate: Gate | null; format: FormatId; endpoints: string[] }
  | ReplayedUpload;

export interface ReplayedUpload {
  status: "replayed";
  project: IngestProject;
  run: RunIdentity;
  format: FormatId;
  endpoints: string[];
}

/**
 * The upload read as a run: files are parsed in the parse threads (cpu-pool.ts: off the event loop,
 * with a time budget); k6 NDJSON is read line by line as it streams in, yielding between chunks.
 */
async function readReceivedUpload(
  upload: ReceivedUpload,
  format: string | null,
  metadata: RunMetadata,
  signal: AbortSignal | undefined,
): Promise<Omit<ReadUpload, "base" | "ab" | "budget">> {
  if (upload.kind === "ndjson") {
    const run = completeRun(nameByMethod(await parseK6Ndjson(upload.lines)), metadata);
    const { raw, sha256 } = upload.stored();
    return { run, format: "k6-ndjson", sha256, rawFiles: [raw] };
  }
  const files = upload.files.map(({ name, text }) => ({ name, text }));
  const parsed = await parseInPool({ files, format, metadata }, signal);
  return { run: parsed.run, format: parsed.format, sha256: upload.sha256, rawFiles: upload.files };
}

/**
 * The idempotency fingerprint stored as runs.body_sha256: the content's hash (a file set's names and
 * bytes, never a multipart boundary) with the format and metadata the query gave, so the same key with
 * another ?label= is a conflict, not a silent replay of the old run.
 */
function uploadFingerprint(contentSha256: string, format: string | null, metadata: RunMetadata, budget: UploadedBudget | null): string {
  const canonical = (value: unknown): unknown =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([, item]) => item !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([key, item]) => [key, canonical(item)]),
        )
      : value;
  // A budget joins the fingerprint only when sent, so uploads without one keep the fingerprints they had.
  const parts = budget === null ? [contentSha256, format, canonical(metadata)] : [contentSha256, format, canonical(metadata), canonical(budget)];
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

export async function ingestRun<Gate>(db: PrismaClient, request: IngestRequest<Gate>): Promise<IngestOutcome<Gate>> {
  const { projectSlug, upload, idempotencyKey } = request;
  const existingProject = request.project !== undefined ? request.project : await db.project.findUnique({ where: { slug: projectSlug } });
  if (!existingProject && !request.createProjectIfMissing) throw notFound(`Project "${projectSlug}"`);
  const queue = await jobQueueFor(db);
  // What a retry must repeat to be the same upload: the content AND what the query says of it.
  const budgetFile = request.budget ?? null;
  const fingerprint = (contentSha256: string) => uploadFingerprint(contentSha256, request.format, request.metadata, budgetFile);
  const replayOf = async (sha256: string) =>
    existingProject && idempotencyKey ? findReplay(db, existingProject, idempotencyKey, fingerprint(sha256)) : null;

  // A document's hash is known before parsing, so a retry skips the parse; NDJSON's once it is read.
  const early = upload.kind === "files" ? await replayOf(upload.sha256) : null;
  if (early) return early;
  request.signal?.throwIfAborted();
  const parsed = await readReceivedUpload(upload, request.format, request.metadata, request.signal);
  const { base_commit: baseCommit, base_branch: baseBranch, base_time: baseTime } = request.metadata;
  const read: ReadUpload = {
    ...parsed,
    sha256: fingerprint(parsed.sha256),
    base: {
      commit: baseCommit?.toLowerCase() ?? null,
      branch: baseBranch ?? null,
      time: baseTime === undefined ? null : new Date(baseTime),
    },
    ab:
      request.metadata.ab_job !== undefined && request.metadata.ab_side !== undefined && request.metadata.ab_pair !== undefined
        ? { job: request.metadata.ab_job, side: request.metadata.ab_side, pair: request.metadata.ab_pair }
        : null,
    // What the file sets for this project and the run's label (the label as the metadata left it).
    budget: budgetFile === null ? null : resolveBudget(budgetFile.file, budgetFile.source, projectSlug, parsed.run.label),
  };
  const late = upload.kind === "ndjson" ? await replayOf(parsed.sha256) : null;
  if (late) return late;

  // The run as it will be stored, with its id: judged now, from memory, and stored with its gate result.
  const id = newRunId();
  const now = new Date();
  const startedAt = read.run.startedAt ? new Date(read.run.startedAt) : now;
  const head = {
    loaded: asStoredRun(read.run, { id, uploadedAt: now, startedAt, idempotencyKey, isDemo: false, abPair: read.ab?.pair ?? null, budget: read.budget }),
    forBaseline: runIdentityOf(read.run, id, startedAt, read),
  };
  const judge: JudgeUpload<Gate | null> = request.judge ?? (async () => ({ gate: null, kept: NOT_JUDGED }));
  /**
   * The run, judged, written with its jobs in one statement (store-run.ts), in `tx`: with COMMIT right
   * after it (and the rare job it could not settle in the statement), as the statement's locks ask.
   */
  const store = async (tx: Prisma.TransactionClient, project: IngestProject, judged: Judged<Gate | null>) => {
    // Stored after the client left, the run would be answered to nobody (and a retry without a key
    // would store it twice): stop here. Past this point the run commits and a retry replays it.
    request.signal?.throwIfAborted();
    const jobs: CoalescedJob[] = [{ name: "refresh-rollups", data: { projectId: project.id }, singletonKey: project.id }];
    // Change-point detection over the series' history is a job (server/services/platform/job-queue.ts), not
    // part of the answer: enqueued with the run (or coalesced into the series' waiting one), it exists
    // exactly when the run does.
    // A/B base runs measure the merge-base inside a pull request's job: never the series' history.
    const identity = head.forBaseline;
    if (identity.gitBranch !== null && identity.gitBranch === project.defaultBranch && identity.abSide !== "base") {
      const series = { projectId: project.id, tool: identity.tool, label: identity.label, testbed: identity.testbed };
      jobs.push({ name: "detect-regressions", data: { ...series, runId: id, baseUrl: request.baseUrl }, singletonKey: defaultBranchSeriesKey(series) });
    }
    return storeRun(tx, project.id, read, { id, uploadedAt: now, startedAt, idempotencyKey, gate: judged.kept }, { queue, jobs });
  };
  const inTransaction = <T,>(work: (tx: Prisma.TransactionClient) => Promise<T>) => db.$transaction(work, { timeout: 60_000, maxWait: 30_000 });

  try {
    // A project that exists: judged first, then a transaction of the run's one statement and COMMIT,
    // so the locks it takes (store-run.ts) are held for that statement and a round trip, never across
    // the judgement. One that does not yet: created, its first run judged (against an empty history)
    // and written in one transaction, so a failed first upload leaves no empty project behind.
    let stored: { project: IngestProject; judged: Judged<Gate | null>; run: RunIdentity };
    if (existingProject) {
      const judged = await judge(db, existingProject, head);
      stored = { project: existingProject, judged, run: await inTransaction((tx) => store(tx, existingProject, judged)) };
    } else {
      stored = await inTransaction(async (tx) => {
        const project = await createProjectOnce(tx, projectSlug);
        const judged = await judge(tx, project, head);
        return { project, judged, run: await store(tx, project, judged) };
      });
    }
    const { project, run, judged } = stored;
    rememberStoredRun(project.id, head.loaded);
    return {
      status: "created",
      project,
      run,
      gate: judged.gate,
      format: read.format,
      endpoints: read.run.endpoints.map((endpoint) => endpoint.name),
    };
  } catch (error) {
    // A concurrent retry with the same key won the race: answer as that retry would.
    if (idempotencyKey && isUniqueViolation(error)) {
      const project = await db.project.findUniqueOrThrow({ where: { slug: projectSlug } });
      const replay = await findReplay(db, project, idempotencyKey, read.sha256);
      if (replay) return replay;
    }
    throw error;
  }
}

/**
 * Creates the project if no concurrent upload did: INSERT … ON CONFLICT DO NOTHING waits for a racing
 * insert to commit and then yields, where an upsert would fail on the unique slug.
 */
async function createProjectOnce(tx: Prisma.TransactionClient, slug: string): Promise<IngestProject> {
  await tx.project.createMany({ data: [{ slug, name: slug }], skipDuplicates: true });
  return tx.project.findUniqueOrThrow({ where: { slug } });
}

async function findReplay(
  db: PrismaClient,
  project: IngestProject,
  idempotencyKey: string,
  bodySha256: string,
): Promise<ReplayedUpload | null> {
  const previous = await db.run.findUnique({
    where: { projectId_idempotencyKey: { projectId: project.id, idempotencyKey } },
    select: { ...RUN_IDENTITY_SELECT, bodySha256: true, format: true, results: { select: { endpoint: { select: { name: true } } } } },
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
    project,
    run,
    format: format as FormatId,
    endpoints: results.flatMap((result) => (result.endpoint ? [result.endpoint.name] : [])),
  };
}

function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  // A raw statement's (storeRun's) violation is P2010, "raw query failed", with the driver's kind.
  return error.code === "P2002" || (error.code === "P2010" && `${JSON.stringify(error.meta ?? {})} ${error.message}`.includes("UniqueConstraintViolation"));
}
