import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import type { DeletedCounts } from "../../schemas/audit";
import type { Principal } from "../access";
import { requireProjectAccess } from "../access";
import { actorOf, recordAudit } from "../audit";
import type { CoalescedJob, JobQueue } from "../platform";
import { ServiceError, jobQueueFor, notFound } from "../platform";
import { requireProject } from "../projects";
import { defaultBranchSeriesKey, forgetRunNumbers } from "../runs";
import { markRunsPending } from "../trends";

/**
 * Deleting runs (docs/operations.md, "Deleting and retention"): one use case for the REST DELETE, the run
 * page's button and the retention sweep. In ONE transaction, so nothing is ever half-deleted:
 * - the runs, their results, metrics, raw uploads and annotations (foreign keys, ON DELETE CASCADE);
 * - changes first seen at a deleted run (a change whose *return* was a deleted run keeps no return);
 * - incidents opened at a deleted run, and any incident left with no change: removed with their history
 *   (the audit entry keeps their numbers);
 * - baseline pins: the run is taken out of every pin that names it, and a pin left with no run (and no
 *   label) is removed, so its label's baseline falls back to the normal choice;
 * - share links whose scope includes a deleted run (the run, or a side of a comparison) are revoked;
 * - the rollup weeks of the runs are marked pending and the `refresh-rollups` job enqueued; the history
 *   version moves (database triggers on runs/results/metrics), so every cached history, filter list and
 *   trend row of the project is read again; the runs' numbers are dropped from this process's memory;
 * - change-point detection is enqueued again (`detect-regressions`) for each default-branch series a
 *   deleted run was part of, from the run after it.
 * Later runs' stored gate outcomes (and the A/B head runs judged against a deleted base run) are history:
 * they are not judged again.
 */

type Tx = Prisma.TransactionClient;

export interface DeletionProject {
  id: string;
  slug: string;
  defaultBranch: string;
}

const COUNT_ZERO: DeletedCounts = {
  runs: 0,
  results: 0,
  metrics: 0,
  rawUploads: 0,
  annotations: 0,
  changes: 0,
  incidents: [],
  baselinePins: 0,
  shareLinksRevoked: 0,
};

/** Adds two summaries (a sweep's batches). */
export function addCounts(a: DeletedCounts, b: DeletedCounts): DeletedCounts {
  return {
    runs: a.runs + b.runs,
    results: a.results + b.results,
    metrics: a.metrics + b.metrics,
    rawUploads: a.rawUploads + b.rawUploads,
    annotations: a.annotations + b.annotations,
    changes: a.changes + b.changes,
    incidents: [...a.incidents, ...b.incidents].sort((x, y) => x - y),
    baselinePins: a.baselinePins + b.baselinePins,
    shareLinksRevoked: a.shareLinksRevoked + b.shareLinksRevoked,
  };
}

export const NOTHING_DELETED = COUNT_ZERO;

/**
 * Deletes these runs of the project inside `tx` (those that exist; the rest are ignored) with every
 * effect listed above, and enqueues their jobs in the same transaction. Returns what went.
 */
export async function deleteRunsInTransaction(tx: Tx, queue: JobQueue, project: DeletionProject, requested: readonly string[], baseUrl: string): Promise<DeletedCounts> {
  if (requested.length === 0) return COUNT_ZERO;
  // Locked first: a concurrent deletion of the same runs waits here and then finds them gone.
  const runs = await tx.$queryRaw<{ id: string; tool: string; label: string | null; gitBranch: string | null; testbed: string | null; abSide: string | null; startedAt: Date }[]>`
    SELECT id, tool, label, git_branch AS "gitBranch", testbed, ab_side AS "abSide", started_at AS "startedAt"
    FROM runs WHERE project_id = ${project.id} AND id = ANY(${requested as string[]}::text[]) FOR UPDATE`;
  if (runs.length === 0) return COUNT_ZERO;
  const ids = runs.map((run) => run.id);

  const [counts] = await tx.$queryRaw<{ results: number; metrics: number; rawUploads: number; annotations: number; changes: number }[]>`
    SELECT (SELECT count(*)::int FROM results WHERE run_id = ANY(${ids}::text[])) AS results,
           (SELECT count(*)::int FROM metrics WHERE run_id = ANY(${ids}::text[])) AS metrics,
           (SELECT count(*)::int FROM raw_uploads WHERE run_id = ANY(${ids}::text[])) AS "rawUploads",
           (SELECT count(*)::int FROM annotations WHERE run_id = ANY(${ids}::text[])) AS annotations,
           (SELECT count(*)::int FROM regressions WHERE first_run_id = ANY(${ids}::text[])) AS changes`;

  // The incidents this deletion may leave without evidence: opened at a deleted run, or holding a change that goes.
  const touchedIncidents = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM incidents WHERE project_id = ${project.id} AND first_run_id = ANY(${ids}::text[])
    UNION SELECT incident_id FROM regressions WHERE first_run_id = ANY(${ids}::text[]) AND incident_id IS NOT NULL`;

  // Rollups: the weeks are marked while the results are still there to name them.
  await markRunsPending(tx, project.id, ids);

  const baselinePins = await tx.$executeRaw`
    UPDATE baseline_pins SET run_ids = ARRAY(SELECT unnest(run_ids) EXCEPT SELECT unnest(${ids}::text[]))
    WHERE project_id = ${project.id} AND run_ids && ${ids}::text[]`;
  await tx.$executeRaw`
    DELETE FROM baseline_pins WHERE project_id = ${project.id} AND cardinality(run_ids) = 0 AND baseline_label IS NULL`;

  const shareLinksRevoked = await tx.$executeRaw`
    UPDATE share_links SET revoked_at = now()
    WHERE project_id = ${project.id} AND revoked_at IS NULL
      AND (scope->>'runId' = ANY(${ids}::text[]) OR scope->>'base' = ANY(${ids}::text[]) OR scope->>'head' = ANY(${ids}::text[]))`;

  // The numbers of the incidents that go: read before they are deleted (a deleted run's cascade takes its own).
  const doomedIncidents = await tx.$queryRaw<{ number: number }[]>`
    SELECT i.number FROM incidents i
    WHERE i.id = ANY(${touchedIncidents.map((row) => row.id)}::text[])
      AND (i.first_run_id = ANY(${ids}::text[])
        OR NOT EXISTS (SELECT 1 FROM regressions c WHERE c.incident_id = i.id AND NOT (c.first_run_id = ANY(${ids}::text[]))))
    ORDER BY i.number`;

  // The runs and, by cascade, their results, metrics, raw uploads, annotations, changes and incidents.
  await tx.$executeRaw`DELETE FROM runs WHERE project_id = ${project.id} AND id = ANY(${ids}::text[])`;
  await tx.$executeRaw`
    DELETE FROM incidents WHERE project_id = ${project.id} AND number = ANY(${doomedIncidents.map((row) => row.number)}::int[])`;

  const jobs: CoalescedJob[] = [{ name: "refresh-rollups", data: { projectId: project.id }, singletonKey: project.id }];
  const seen = new Set<string>();
  for (const run of runs) {
    if (run.gitBranch !== project.defaultBranch || run.abSide === "base") continue;
    const series = { projectId: project.id, tool: run.tool, label: run.label, testbed: run.testbed };
    const key = defaultBranchSeriesKey(series);
    if (seen.has(key)) continue;
    seen.add(key);
    // Detection from the first deleted run's place: the series' next run (or, none left after it, the
    // deleted id, which detection reads as "the series' newest run").
    const earliest = runs.filter((other) => defaultBranchSeriesKey({ projectId: project.id, ...other }) === key && other.gitBranch === run.gitBranch).sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime())[0] ?? run;
    const next = await tx.run.findFirst({
      where: { projectId: project.id, tool: run.tool, label: run.label, testbed: run.testbed, gitBranch: project.defaultBranch, startedAt: { gte: earliest.startedAt } },
      orderBy: [{ startedAt: "asc" }, { id: "asc" }],
      select: { id: true },
    });
    jobs.push({ name: "detect-regressions", data: { ...series, runId: next?.id ?? earliest.id, baseUrl }, singletonKey: key });
  }
  await queue.sendCoalescedMany(jobs, tx);

  return {
    runs: runs.length,
    results: counts?.results ?? 0,
    metrics: counts?.metrics ?? 0,
    rawUploads: counts?.rawUploads ?? 0,
    annotations: counts?.annotations ?? 0,
    changes: counts?.changes ?? 0,
    incidents: doomedIncidents.map((row) => row.number),
    baselinePins,
    shareLinksRevoked,
  };
}

/** A run id as the API takes it: what a run id can be (newRunId, cuid), else a 400 naming the path. */
const RUN_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export interface DeleteCall {
  /** Whether the caller is a signed-in browser (the audit entry says "admin session"). */
  viaSession: boolean;
  baseUrl: string;
}

/**
 * DELETE /api/v1/projects/:project/runs/:id and the run page's button: the admin, or a token of that
 * project (403 for another project's). 404 for a run the project does not have; 400 for an id no run has.
 */
export async function deleteRun(db: PrismaClient, principal: Principal, slug: string, runId: string, call: DeleteCall) {
  if (!RUN_ID_PATTERN.test(runId)) {
    throw new ServiceError("bad_request", `"${runId.slice(0, 80)}" is not a run id`, [{ path: "path.id", message: "letters, digits, '_' and '-', at most 64" }]);
  }
  const project = await requireProject(db, slug);
  await requireProjectAccess(db, principal, project, "manage");
  const queue = await jobQueueFor(db);
  const actor = actorOf(principal, call);
  const result = await db.$transaction(
    async (tx) => {
      const deleted = await deleteRunsInTransaction(tx, queue, project, [runId], call.baseUrl);
      if (deleted.runs === 0) throw notFound(`Run "${runId}"`);
      const auditId = await recordAudit(tx, { ...actor, action: "run.delete", projectSlug: project.slug, targetId: runId, detail: deleted });
      return { runId, project: project.slug, deleted, auditId };
    },
    { timeout: 60_000, maxWait: 30_000 },
  );
  forgetRunNumbers(project.id, [runId]);
  return result;
}
