import type { PrismaClient } from "../../generated/prisma/client";
import type { ImportAnswer } from "../../schemas/transfer";
import type { Principal } from "../access";
import { requireProjectAccess } from "../access";
import { jobQueueFor, ServiceError } from "../platform";
import { requireProject } from "../projects";
import { actorOf, recordAudit } from "../audit";
import type { LineSink } from "./export-rows";
import { exportProjectLines, exportServerLines } from "./export-lines";
import type { ImportCounts } from "./import-context";
import { importAnswerOf, importLines } from "./import-lines";

/**
 * Export and import of one project (GET/POST /api/v1/projects/:p/export|import, its maintainers), and the whole
 * server's backup and restore (npm run backup / restore) built on the same file (docs/operations.md).
 */

/** The project's export, ready to stream: the project is looked up first, so a wrong slug is a 404 before any byte. */
export async function prepareProjectExport(db: PrismaClient, principal: Principal, slug: string): Promise<{ slug: string; write: (sink: LineSink) => Promise<void> }> {
  const project = await requireProject(db, slug);
  await requireProjectAccess(db, principal, project, "manage");
  return { slug: project.slug, write: (sink) => exportProjectLines(db, project, sink) };
}

/**
 * Imports a project's export into the project `slug` (which must exist): all or nothing, idempotent. New
 * runs' rollups are marked pending and their refresh job queued in the same transaction; the history
 * version moves with the rows (database triggers), so every cache sees them at its next read.
 */
export async function importProject(db: PrismaClient, principal: Principal, slug: string, lines: AsyncIterable<readonly string[]>): Promise<ImportAnswer> {
  const project = await requireProject(db, slug);
  // Checked before a line of the body is read.
  await requireProjectAccess(db, principal, project, "manage");
  const queue = await jobQueueFor(db);
  const counts = await importLines(db, { kind: "project", projectId: project.id, slug: project.slug }, lines, async (tx, counts) => {
    if (counts.runs.created > 0) await queue.sendCoalescedMany([{ name: "refresh-rollups", data: { projectId: project.id }, singletonKey: project.id }], tx);
    // One entry per import that wrote something, with its counts and a visibility it changed (an import of
    // nothing new changes nothing).
    const { created } = importAnswerOf(project.slug, counts);
    const { visibility } = await tx.project.findUniqueOrThrow({ where: { id: project.id }, select: { visibility: true } });
    const visibilityChange = visibility === project.visibility ? {} : { visibility: { from: project.visibility, to: visibility } };
    if (counts.runs.created > 0 || Object.values(created).some((count) => count > 0) || visibility !== project.visibility) {
      await recordAudit(tx, {
        ...actorOf(principal),
        action: "project.import",
        projectSlug: project.slug,
        targetId: project.id,
        detail: { lines: counts.lines, runs: counts.runs, created, ...visibilityChange },
      });
    }
  });
  return importAnswerOf(project.slug, counts);
}

/** Every project of the server to `sink`, from one snapshot (a consistent backup while the server runs, on PostgreSQL). */
export async function backupServer(db: PrismaClient, sink: LineSink): Promise<{ projects: number; runs: number }> {
  return exportServerLines(db, sink);
}

/**
 * Restores a backup (or one project's export) into this database, in one transaction. A database that
 * holds projects or users is refused unless `force`, which deletes them (projects with their tokens, share
 * links, grants, runs…; the users, whom the backup's replace) first, in that same transaction. Rollups are left pending: the server's workers queue their refresh at
 * start (listProjectsWithPendingRollups).
 */
export async function restoreServer(db: PrismaClient, lines: AsyncIterable<readonly string[]>, { force }: { force: boolean }): Promise<ImportCounts> {
  return importLines(
    db,
    { kind: "server" },
    lines,
    async (tx) => {
      // Endpoints kept their ids: the next one made must come after them.
      await tx.$executeRawUnsafe(`SELECT setval(pg_get_serial_sequence('endpoints', 'id'), GREATEST((SELECT max(id) FROM endpoints), 1))`);
    },
    async (tx) => {
      const projects = await tx.project.count();
      const users = await tx.user.count();
      if (projects === 0 && users === 0) return;
      if (!force) {
        const held = [projects > 0 && `${projects} project(s)`, users > 0 && `${users} user(s)`].filter(Boolean).join(" and ");
        throw new ServiceError("conflict", `The database already holds ${held}: restore into an empty database, or pass --force to replace them`, [
          { path: "database", message: held },
        ]);
      }
      await tx.project.deleteMany({});
      // The backup's users replace them (with their ids, their admin rights, who is disabled).
      await tx.user.deleteMany({});
    },
  );
}
