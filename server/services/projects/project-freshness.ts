import type { ReadDb } from "../../db";
import { assessFreshness } from "../../domain/freshness";
import type { Freshness } from "../../domain/freshness";

/**
 * How many recent runs the missing-data check reads. ~30 upload sessions are enough to learn a daily
 * or weekly schedule; a project running several rounds per CI job needs more runs for the same
 * sessions, hence 50. One range scan of the (project_id, started_at DESC, id) index.
 */
export const FRESHNESS_RUNS = 50;

/** Whether the project uploads on a schedule, and whether that schedule has stopped (see domain/freshness). */
export async function checkProjectFreshness(
  db: ReadDb,
  projectId: string,
  now: Date = new Date(),
): Promise<Freshness> {
  const runs = await db.run.findMany({
    where: { projectId },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: FRESHNESS_RUNS,
    select: { startedAt: true },
  });
  return assessFreshness(
    runs.map((run) => run.startedAt),
    now,
  );
}
