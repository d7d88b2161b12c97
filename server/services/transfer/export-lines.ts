import type { TokenScope } from "../../domain/access/roles";
import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import type { StoredFloat, TransferJson, TransferLine } from "../../schemas/transfer";
import { TRANSFER_FORMAT, TRANSFER_FORMAT_VERSION } from "../../schemas/transfer";
import { SERVER_VERSION } from "./server-version";

/**
 * Writing the export file (server/schemas/transfer.ts): every row of a project as stored, read in ONE
 * snapshot (readSnapshot) in batches through a keyset cursor, so memory stays that of one batch however
 * long the history, and a run stored while the export runs is either wholly in it or not at all.
 */

type Tx = Prisma.TransactionClient;

/** Takes one line; resolves when the reader wants more (backpressure), throws when it went away. */
export type LineSink = (line: TransferLine) => Promise<void>;

/** Runs per batch: each with its results (a 10,000-benchmark suite is 10,000 rows), so kept small. */
const RUN_BATCH = 50;
/** Rows per batch of the small tables (endpoints, annotations, incidents, changes). */
const ROW_BATCH = 500;
/** An export may take as long as its reader: the snapshot's transaction is held that long. */
const SNAPSHOT_TIMEOUT_MS = 6 * 60 * 60 * 1000;

/**
 * Runs `read` in one read-only REPEATABLE READ transaction: every statement sees the database as it was
 * at the first one (PostgreSQL's snapshot; the embedded database serializes everything anyway).
 */
export async function readSnapshot<T>(db: PrismaClient, read: (tx: Tx, snapshotAt: Date) => Promise<T>): Promise<T> {
  return db.$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
      // The snapshot is taken by the first query, not by BEGIN: take it now (and its time for the header),
      // before any line goes out and the reader's pace lets writes commit.
      const [{ snapshotAt }] = await tx.$queryRaw<[{ snapshotAt: Date }]>`SELECT now() AS "snapshotAt"`;
      return read(tx, snapshotAt);
    },
    { timeout: SNAPSHOT_TIMEOUT_MS, maxWait: 30_000 },
  );
}

export function headerLine(scope: "project" | "server", project: string | null, snapshotAt: Date): TransferLine {
  return {
    kind: "header",
    format: TRANSFER_FORMAT,
    version: TRANSFER_FORMAT_VERSION,
    scope,
    exportedAt: snapshotAt.toISOString(),
    serverVersion: SERVER_VERSION,
    project,
  };
}

export function storedFloat(value: number): StoredFloat {
  if (Number.isFinite(value)) return value;
  return Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
}
const optionalFloat = (value: number | null): StoredFloat | null => (value === null ? null : storedFloat(value));
const iso = (value: Date) => value.toISOString();
const optionalIso = (value: Date | null) => (value === null ? null : value.toISOString());
/** A Json column as Prisma reads it: already JSON values. */
const asJson = (value: Prisma.JsonValue) => value as TransferJson;

/** Rows of one table after `after`, in id order, a batch at a time. */
async function* batches<Row extends { id: Id }, Id>(read: (after: Id | undefined) => Promise<Row[]>, size: number): AsyncGenerator<Row[]> {
  let after: Id | undefined;
  for (;;) {
    const rows = await read(after);
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    after = rows[rows.length - 1]!.id;
  }
}

export interface ExportOptions {
  /** A server backup: the project's webhook secret, its tokens' hashes and its share links too. */
  serverState: boolean;
}

/** Every line of one project, the header and end line excepted; returns how many runs were written. */
export async function writeProjectLines(tx: Tx, projectId: string, sink: LineSink, { serverState }: ExportOptions): Promise<number> {
  const project = await tx.project.findUniqueOrThrow({
    where: { id: projectId },
    include: { slaPolicy: true, members: { orderBy: [{ kind: "asc" }, { subject: "asc" }] } },
  });
  await sink({
    kind: "project",
    id: project.id,
    slug: project.slug,
    name: project.name,
    description: project.description,
    defaultBranch: project.defaultBranch,
    repoUrl: project.repoUrl,
    isDemo: project.isDemo,
    minEffectPct: project.minEffectPct,
    alpha: project.alpha,
    gateMetric: project.gateMetric,
    failOn: project.failOn,
    webhookUrl: project.webhookUrl,
    webhookFormat: project.webhookFormat,
    webhookDigest: project.webhookDigest,
    ...(serverState && { webhookSecret: project.webhookSecret }),
    rawRetentionDays: project.rawRetentionDays,
    retentionDays: project.retentionDays,
    retentionKeepRuns: project.retentionKeepRuns,
    createdAt: iso(project.createdAt),
    updatedAt: iso(project.updatedAt),
    slaPolicy: project.slaPolicy && { targets: asJson(project.slaPolicy.targets), updatedAt: iso(project.slaPolicy.updatedAt) },
    visibility: project.visibility,
    members: project.members.map((member) => ({
      kind: member.kind,
      subject: member.subject,
      role: member.role,
      grantedBy: member.grantedBy,
      createdAt: iso(member.createdAt),
      updatedAt: iso(member.updatedAt),
    })),
  });

  if (serverState) {
    for (const token of await tx.apiToken.findMany({ where: { projectId }, orderBy: { id: "asc" } })) {
      await sink({
        kind: "token",
        id: token.id,
        name: token.name,
        prefix: token.prefix,
        tokenHash: token.tokenHash,
        createdAt: iso(token.createdAt),
        lastUsedAt: optionalIso(token.lastUsedAt),
        revokedAt: optionalIso(token.revokedAt),
        scopes: token.scopes as TokenScope[],
        expiresAt: optionalIso(token.expiresAt),
        createdBy: token.createdBy,
      });
    }
    for (const link of await tx.shareLink.findMany({ where: { projectId }, orderBy: { id: "asc" } })) {
      await sink({
        kind: "shareLink",
        id: link.id,
        scope: asJson(link.scope),
        createdBy: link.createdBy,
        createdAt: iso(link.createdAt),
        expiresAt: iso(link.expiresAt),
        revokedAt: optionalIso(link.revokedAt),
      });
    }
  }

  const after = <Id,>(id: Id | undefined) => (id === undefined ? {} : { id: { gt: id } });
  for await (const endpoints of batches(
    (id: number | undefined) => tx.endpoint.findMany({ where: { projectId, ...after(id) }, orderBy: { id: "asc" }, take: ROW_BATCH }),
    ROW_BATCH,
  )) {
    for (const endpoint of endpoints) {
      const { id, name, fullName, protocol, method, createdAt } = endpoint;
      await sink({ kind: "endpoint", id, name, fullName, protocol, method, createdAt: iso(createdAt) });
    }
  }

  let runCount = 0;
  for await (const runs of batches(
    (id: string | undefined) =>
      tx.run.findMany({
        where: { projectId, ...after(id) },
        orderBy: { id: "asc" },
        take: RUN_BATCH,
        include: { results: { orderBy: { id: "asc" } }, metrics: { orderBy: { id: "asc" } } },
      }),
    RUN_BATCH,
  )) {
    for (const run of runs) {
      runCount++;
      await sink({
        kind: "run",
        id: run.id,
        tool: run.tool,
        toolVersion: run.toolVersion,
        format: run.format,
        protocol: run.protocol,
        parserVersion: run.parserVersion,
        label: run.label,
        round: run.round,
        startedAt: iso(run.startedAt),
        durationSeconds: optionalFloat(run.durationSeconds),
        uploadedAt: iso(run.uploadedAt),
        gitCommit: run.gitCommit,
        gitBranch: run.gitBranch,
        pullRequest: run.pullRequest,
        gitBaseCommit: run.gitBaseCommit,
        gitBaseBranch: run.gitBaseBranch,
        gitBaseTime: optionalIso(run.gitBaseTime),
        buildUrl: run.buildUrl,
        hostName: run.hostName,
        hostCpus: run.hostCpus,
        hostMemoryGb: optionalFloat(run.hostMemoryGb),
        testbed: run.testbed,
        appVersion: run.appVersion,
        config: asJson(run.config),
        attributes: asJson(run.attributes),
        thresholds: asJson(run.thresholds),
        checks: asJson(run.checks),
        notes: asJson(run.notes),
        idempotencyKey: run.idempotencyKey,
        bodySha256: run.bodySha256,
        isDemo: run.isDemo,
        outcome: run.outcome,
        outcomeReasons: run.outcomeReasons,
        regressed: run.regressed,
        gateChanges: asJson(run.gateChanges),
        abJob: run.abJob,
        abSide: run.abSide,
        abPair: run.abPair,
        budget: run.budget === null ? null : asJson(run.budget),
        results: run.results.map((result) => ({
          endpointId: result.endpointId,
          requests: result.requests,
          failures: result.failures,
          errorRate: optionalFloat(result.errorRate),
          throughput: optionalFloat(result.throughput),
          minMs: optionalFloat(result.minMs),
          meanMs: optionalFloat(result.meanMs),
          p50Ms: optionalFloat(result.p50Ms),
          p90Ms: optionalFloat(result.p90Ms),
          p95Ms: optionalFloat(result.p95Ms),
          p99Ms: optionalFloat(result.p99Ms),
          maxMs: optionalFloat(result.maxMs),
          stdDevMs: optionalFloat(result.stdDevMs),
          percentiles: asJson(result.percentiles),
          histogram: result.histogram === null ? null : asJson(result.histogram),
          timeline: result.timeline === null ? null : asJson(result.timeline),
          statusCodes: result.statusCodes === null ? null : asJson(result.statusCodes),
          errors: result.errors === null ? null : asJson(result.errors),
        })),
        metrics: run.metrics.map((metric) => ({
          endpointId: metric.endpointId,
          key: metric.key,
          value: storedFloat(metric.value),
          unit: metric.unit,
          exact: metric.exact,
          better: metric.better,
        })),
      });
      // The raw files one at a time (each may be tens of MB): base64 without PostgreSQL's line breaks.
      const files = await tx.$queryRaw<{ position: number }[]>`SELECT position FROM raw_uploads WHERE run_id = ${run.id} ORDER BY position`;
      for (const { position } of files) {
        const [raw] = await tx.$queryRaw<
          { fileName: string | null; contentType: string | null; sizeBytes: number; createdAt: Date; gzipBase64: string | null }[]
        >`SELECT file_name AS "fileName", content_type AS "contentType", size_bytes AS "sizeBytes", created_at AS "createdAt",
                 translate(encode(gzip_data, 'base64'), E'\n', '') AS "gzipBase64"
            FROM raw_uploads WHERE run_id = ${run.id} AND position = ${position}`;
        if (!raw) continue;
        await sink({ kind: "raw", runId: run.id, position, ...raw, createdAt: iso(raw.createdAt) });
      }
    }
  }

  for await (const annotations of batches(
    (id: string | undefined) => tx.annotation.findMany({ where: { projectId, ...after(id) }, orderBy: { id: "asc" }, take: ROW_BATCH }),
    ROW_BATCH,
  )) {
    for (const annotation of annotations) {
      await sink({
        kind: "annotation",
        id: annotation.id,
        runId: annotation.runId,
        at: iso(annotation.at),
        annotationKind: annotation.kind,
        text: annotation.text,
        createdAt: iso(annotation.createdAt),
      });
    }
  }

  for (const pin of await tx.baselinePin.findMany({ where: { projectId }, orderBy: { id: "asc" } })) {
    await sink({
      kind: "pin",
      id: pin.id,
      forLabel: pin.forLabel,
      runIds: pin.runIds,
      baselineLabel: pin.baselineLabel,
      createdAt: iso(pin.createdAt),
    });
  }

  for await (const incidents of batches(
    (id: string | undefined) =>
      tx.incident.findMany({ where: { projectId, ...after(id) }, orderBy: { id: "asc" }, take: ROW_BATCH, include: { events: { orderBy: [{ at: "asc" }, { id: "asc" }] } } }),
    ROW_BATCH,
  )) {
    for (const incident of incidents) {
      await sink({
        kind: "incident",
        id: incident.id,
        number: incident.number,
        firstRunId: incident.firstRunId,
        state: incident.state,
        note: incident.note,
        links: incident.links,
        detectorVersion: incident.detectorVersion,
        stateChangedAt: optionalIso(incident.stateChangedAt),
        stateChangedBy: incident.stateChangedBy,
        closedAt: optionalIso(incident.closedAt),
        createdAt: iso(incident.createdAt),
        events: incident.events.map((event) => ({
          id: event.id,
          at: iso(event.at),
          by: event.by,
          fromState: event.fromState,
          toState: event.toState,
          note: event.note,
        })),
      });
    }
  }

  for await (const changes of batches(
    (id: string | undefined) => tx.change.findMany({ where: { projectId, ...after(id) }, orderBy: { id: "asc" }, take: ROW_BATCH }),
    ROW_BATCH,
  )) {
    for (const change of changes) {
      await sink({
        kind: "change",
        id: change.id,
        endpointId: change.endpointId,
        metric: change.metric,
        changeKind: change.kind,
        firstRunId: change.firstRunId,
        beforeValue: storedFloat(change.beforeValue),
        afterValue: storedFloat(change.afterValue),
        deltaPct: storedFloat(change.deltaPct),
        pValue: optionalFloat(change.pValue),
        detectorVersion: change.detectorVersion,
        status: change.status,
        statusChangedAt: optionalIso(change.statusChangedAt),
        statusChangedBy: change.statusChangedBy,
        incidentId: change.incidentId,
        returnRunId: change.returnRunId,
        createdAt: iso(change.createdAt),
      });
    }
  }
  return runCount;
}

/** Counts the lines a sink passes on, for the end line. */
export function countingSink(sink: LineSink): { sink: LineSink; count: () => number } {
  let lines = 0;
  return {
    sink: async (line) => {
      lines++;
      await sink(line);
    },
    count: () => lines,
  };
}

/**
 * A project's export, whole (header to end line), from one snapshot. `projectId` was looked up by the
 * caller (a missing project is a 404 before the first byte is sent).
 */
export async function exportProjectLines(db: PrismaClient, project: { id: string; slug: string }, sink: LineSink): Promise<void> {
  await readSnapshot(db, async (tx, snapshotAt) => {
    const counted = countingSink(sink);
    await counted.sink(headerLine("project", project.slug, snapshotAt));
    const runs = await writeProjectLines(tx, project.id, counted.sink, { serverState: false });
    await sink({ kind: "end", projects: 1, runs, lines: counted.count() });
  });
}

/** The server's users (a backup only), before its projects: a few per team, read whole. */
async function writeUserLines(tx: Tx, sink: LineSink): Promise<void> {
  for (const user of await tx.user.findMany({ orderBy: { id: "asc" } })) {
    await sink({
      kind: "user",
      id: user.id,
      issuer: user.issuer,
      subject: user.subject,
      email: user.email,
      name: user.name,
      groups: user.groups,
      serverAdmin: user.serverAdmin,
      disabledAt: optionalIso(user.disabledAt),
      createdAt: iso(user.createdAt),
      lastSignInAt: optionalIso(user.lastSignInAt),
    });
  }
}

/**
 * Every project of the server (a backup), with what is server-wide: its users first, then each project
 * with its tokens' hashes, share links and webhook secret.
 */
export async function exportServerLines(db: PrismaClient, sink: LineSink): Promise<{ projects: number; runs: number }> {
  return readSnapshot(db, async (tx, snapshotAt) => {
    const counted = countingSink(sink);
    await counted.sink(headerLine("server", null, snapshotAt));
    // Through the counting sink, as every line before the end line: the end line's `lines` counts them.
    await writeUserLines(tx, counted.sink);
    const projects = await tx.project.findMany({ select: { id: true }, orderBy: { id: "asc" } });
    let runs = 0;
    for (const { id } of projects) runs += await writeProjectLines(tx, id, counted.sink, { serverState: true });
    await sink({ kind: "end", projects: projects.length, runs, lines: counted.count() });
    return { projects: projects.length, runs };
  });
}
