import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../testing/databases";
import { jobQueueOf, type JobName, type JobQueue } from "../services/platform/job-queue";
import { startWorkers } from "./worker";
import type { Workers } from "./worker";

/**
 * Idle workers look less and less often (worker.ts idlePauseMs), yet a job this process sends is taken at
 * once: sending wakes its queue's idle worker (JobQueue.onSent).
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const POLLING_SECONDS = 2;

describe.each(testDatabaseTargets())("idle workers on $name", ({ target }) => {
  let database: Database;
  let queue: JobQueue;
  let workers: Workers;

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
    queue = await jobQueueOf(database);
    workers = await startWorkers({ db: database.prisma, queue }, POLLING_SECONDS);
  }, 60_000);

  afterAll(async () => {
    await workers?.stop(10_000);
    await database?.close();
  });

  const stateOf = async (name: JobName, id: string) => (await queue.boss.getJobById(name, id, { includeArchive: true }))?.state ?? null;

  it("take a job this process sends at once, though their next look was seconds away", async () => {
    // Looks at 0, 2 and 6 s found nothing (a little later each on a busy machine); the next would be at 14 s.
    await sleep(8_000);
    const sentAt = Date.now();
    // A retention sweep of a project that does not exist: nothing to drop, completed.
    const id = await queue.send("apply-retention", { projectId: uniqueSlug("idle") });
    let state = await stateOf("apply-retention", id!);
    while (state !== "completed" && Date.now() - sentAt < 4_000) {
      await sleep(100);
      state = await stateOf("apply-retention", id!);
    }
    expect(state, "taken before the worker's own next look").toBe("completed");
  }, 30_000);
});
