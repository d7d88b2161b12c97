import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, DatabaseTarget } from "../db";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../testing/databases";
import { jobQueueOf, type JobName, type JobQueue } from "../services/platform/job-queue";
import { trackUpload } from "../services/platform";
import { LULL_MS, startWorkers } from "./worker";
import type { Workers } from "./worker";

/**
 * When the job workers, as `npm start` runs them, take a job (worker.ts): a coalescing queue's job (a
 * rollup refresh) waits while an upload runs and is taken in the lull after it (lullWaitMs), a queue that
 * does not coalesce (a retention sweep) is not held back; and idle workers, which look less and less
 * often (idlePauseMs), take a job this process sends at once (JobQueue.onSent).
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Workers on a migrated database of `target` for the enclosing describe, looking every `pollingSeconds` after a job. */
function workersOn(target: DatabaseTarget, pollingSeconds: number) {
  let database: Database | undefined;
  let queue: JobQueue | undefined;
  let workers: Workers | undefined;
  beforeAll(async () => {
    database = await openMigratedDatabase(target);
    queue = await jobQueueOf(database);
    workers = await startWorkers({ db: database.prisma, queue }, pollingSeconds);
  }, 60_000);
  afterAll(async () => {
    await workers?.stop(10_000);
    await database?.close();
  });
  const queueNow = () => queue!;
  /** Where a job is: "created" (waiting), "active", "completed"… (pg-boss's own lookup, its archive included). */
  const stateOf = async (name: JobName, id: string) => (await queueNow().boss.getJobById(name, id, { includeArchive: true }))?.state ?? null;
  /** Whether the job reached `state` within `timeoutMs`. */
  const reaches = async (name: JobName, id: string, state: string, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if ((await stateOf(name, id)) === state) return true;
      if (Date.now() >= deadline) return false;
      await sleep(100);
    }
  };
  return { queue: queueNow, stateOf, reaches };
}

describe.each(testDatabaseTargets())("a coalescing queue's lull on $name", ({ target }) => {
  const { queue, stateOf, reaches } = workersOn(target, 0.2);

  it("takes a rollup job only in the lull after the uploads in flight", async () => {
    // A project that does not exist: its rollup refresh finds nothing pending and completes.
    const projectId = uniqueSlug("lull");
    let finish: () => void = () => undefined;
    const upload = trackUpload(() => new Promise<void>((resolve) => (finish = resolve)));
    const id = await queue().send("refresh-rollups", { projectId }, { singletonKey: projectId });
    expect(id).not.toBeNull();
    // The workers look every 200 ms: four times that, and the job still waits for the upload.
    await sleep(4 * LULL_MS);
    expect(await stateOf("refresh-rollups", id!)).toBe("created");
    finish();
    await upload;
    expect(await reaches("refresh-rollups", id!, "completed", 15_000), "the job ran after the upload").toBe(true);
  }, 30_000);

  it("does not hold back a queue that does not coalesce", async () => {
    let finish: () => void = () => undefined;
    const upload = trackUpload(() => new Promise<void>((resolve) => (finish = resolve)));
    try {
      // A retention sweep of a project that does not exist: nothing to drop, completed.
      const id = await queue().send("apply-retention", { projectId: uniqueSlug("lull") });
      expect(await reaches("apply-retention", id!, "completed", 15_000), "the job ran while the upload was in flight").toBe(true);
    } finally {
      finish();
      await upload;
    }
  }, 30_000);
});

describe.each(testDatabaseTargets())("idle workers on $name", ({ target }) => {
  const { queue, reaches } = workersOn(target, 2);

  it("take a job this process sends at once, though their next look was seconds away", async () => {
    // Looks at 0, 2 and 6 s found nothing (a little later each on a busy machine); the next would be at 14 s.
    await sleep(8_000);
    // A retention sweep of a project that does not exist: nothing to drop, completed.
    const id = await queue().send("apply-retention", { projectId: uniqueSlug("idle") });
    expect(await reaches("apply-retention", id!, "completed", 4_000), "taken before the worker's own next look").toBe(true);
  }, 30_000);
});
