import type { ReadDb } from "../../db";
import type { PrismaClient } from "../../generated/prisma/client";
import type { RetentionRule } from "../../domain/retention/run-retention";
import { hasRetentionRule, selectRunsToDelete } from "../../domain/retention/run-retention";
import type { DeletedCounts } from "../../schemas/audit";
import type { Principal } from "../access";
import { requireProjectAccess } from "../access";
import { RETENTION_ACTOR, recordAudit } from "../audit";
import { jobQueueFor } from "../platform";
import { requireProject } from "../projects";
import { forgetRunNumbers } from "../runs";
import { NOTHING_DELETED, addCounts, deleteRunsInTransaction } from "./delete-runs";

/**
 * Run retention (docs/operations.md, "Deleting and retention"): a project's `retention_days` and
 * `retention_keep_runs` delete old runs nightly (the `apply-retention` job, with raw-upload retention),
 * through the same deletion as DELETE …/runs/:id, a batch of RETENTION_BATCH_RUNS runs per transaction so
 * no sweep holds a long one, and one audit entry per project per sweep. What it protects:
 * server/domain/retention/run-retention.ts. Settings' preview calls the same selection.
 */

export const RETENTION_BATCH_RUNS = 50;

/** The runs a rule would delete now, and how many it would but may not (protected). */
async function selectForProject(db: ReadDb, projectId: string, rule: RetentionRule, now: Date) {
  if (!hasRetentionRule(rule)) return { doomed: [], protectedCount: 0, total: 0 };
  const [runs, pins, incidents] = await Promise.all([
    db.run.findMany({ where: { projectId }, select: { id: true, startedAt: true, tool: true, label: true, gitBranch: true, testbed: true } }),
    db.baselinePin.findMany({ where: { projectId }, select: { runIds: true } }),
    db.incident.findMany({ where: { projectId, state: { in: ["open", "investigating"] } }, select: { firstRunId: true } }),
  ]);
  const protectedIds = new Set([...pins.flatMap((pin) => pin.runIds), ...incidents.map((incident) => incident.firstRunId)]);
  const candidates = runs.map((run) => ({ id: run.id, startedAt: run.startedAt, seriesKey: JSON.stringify([run.tool, run.label, run.gitBranch, run.testbed]) }));
  return { ...selectRunsToDelete(candidates, rule, protectedIds, now), total: runs.length };
}

/** Settings' "would delete N runs": the rule being edited, applied to the project as it is now (admin). */
export async function previewRunRetention(
  db: ReadDb,
  principal: Principal,
  slug: string,
  rule: { retentionDays: number | null; retentionKeepRuns: number | null },
  now = new Date(),
) {
  const project = await requireProject(db, slug);
  await requireProjectAccess(db, principal, project, "manage");
  const selection = await selectForProject(db, project.id, { maxAgeDays: rule.retentionDays, keepRuns: rule.retentionKeepRuns }, now);
  return { wouldDelete: selection.doomed.length, protectedRuns: selection.protectedCount, totalRuns: selection.total };
}

export interface RunRetentionReport {
  slug: string;
  deleted: DeletedCounts;
  auditId: string | null;
}

/** Applies every project's run retention (or one project's), now. */
export async function applyRunRetention(db: PrismaClient, options: { projectId?: string; now?: Date; baseUrl: string }): Promise<RunRetentionReport[]> {
  const now = options.now ?? new Date();
  const projects = await db.project.findMany({
    where: { OR: [{ retentionDays: { not: null } }, { retentionKeepRuns: { not: null } }], ...(options.projectId ? { id: options.projectId } : {}) },
    select: { id: true, slug: true, defaultBranch: true, retentionDays: true, retentionKeepRuns: true },
  });
  const queue = await jobQueueFor(db);
  const reports: RunRetentionReport[] = [];
  for (const project of projects) {
    const rule = { maxAgeDays: project.retentionDays, keepRuns: project.retentionKeepRuns };
    const { doomed, protectedCount } = await selectForProject(db, project.id, rule, now);
    let deleted = NOTHING_DELETED;
    for (let start = 0; start < doomed.length; start += RETENTION_BATCH_RUNS) {
      const batch = doomed.slice(start, start + RETENTION_BATCH_RUNS);
      const counts = await db.$transaction((tx) => deleteRunsInTransaction(tx, queue, project, batch, options.baseUrl), { timeout: 60_000, maxWait: 30_000 });
      forgetRunNumbers(project.id, batch);
      deleted = addCounts(deleted, counts);
    }
    const auditId =
      deleted.runs === 0
        ? null
        : await recordAudit(db, {
            actor: RETENTION_ACTOR,
            action: "retention.delete",
            projectSlug: project.slug,
            targetId: project.id,
            detail: { ...deleted, rule: { retentionDays: project.retentionDays, retentionKeepRuns: project.retentionKeepRuns }, protectedRuns: protectedCount },
          });
    reports.push({ slug: project.slug, deleted, auditId });
  }
  return reports;
}
