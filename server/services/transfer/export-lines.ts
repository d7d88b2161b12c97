import type { TokenScope } from "../../domain/access/roles";
import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import type { TransferLine } from "../../schemas/transfer";
import { TRANSFER_FORMAT, TRANSFER_FORMAT_VERSION } from "../../schemas/transfer";
import type { LineSink } from "./export-rows";
import { afterId, asJson, batches, iso, optionalIso, ROW_BATCH } from "./export-rows";
import { writeRunLines } from "./export-run-lines";
import { SERVER_VERSION } from "./server-version";

/**
 * Writing the export file (server/schemas/transfer.ts): every row of a project as stored, read in ONE
 * snapshot (readSnapshot) in batches through a keyset cursor, so memory stays that of one batch however
 * long the history, and a run stored while the export runs is either wholly in it or not at all. The
 * project-level lines are written here, the run-level ones by export-run-lines.ts.
 */

type Tx = Prisma.TransactionClient;

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

  for await (const endpoints of batches(
    (id: number | undefined) => tx.endpoint.findMany({ where: { projectId, ...afterId(id) }, orderBy: { id: "asc" }, take: ROW_BATCH }),
    ROW_BATCH,
  )) {
    for (const endpoint of endpoints) {
      const { id, name, fullName, protocol, method, createdAt } = endpoint;
      await sink({ kind: "endpoint", id, name, fullName, protocol, method, createdAt: iso(createdAt) });
    }
  }
  return writeRunLines(tx, projectId, sink);
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
