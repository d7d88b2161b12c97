import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../testing/databases";
import { jobQueueOf, type JobName, type JobQueue } from "../services/platform/job-queue";
import { trackUpload } from "../services/platform";
import { LULL_MS, startWorkers } from "./worker";
import type { Workers } from "./worker";

/**
 * The job workers as `npm start` runs them, beside an upload held in flight: a coalescing queue's job
 * (a rollup refresh) waits while the upload runs and is taken in the lull after it (worker.ts lullWaitMs);
 * a queue that does not coalesce (a retention sweep) is not held back.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(testDatabaseTargets())("a coalescing queue's lull on $name", ({ target }) => {
  let database: Database;
  let queue: JobQueue;
  let workers: Workers;

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
    queue = await jobQueueOf(database);
    workers = await startWorkers({ db: database.prisma, queue }, 0.2);
  }, 60_000);

  afterAll(async () => {
    await workers?.stop(10_000);
    await database?.close();
  });

  /** Where a job is: "created" (waiting), "active", "completed"… (pg-boss's own lookup, its archive included). */
  const stateOf = async (name: JobName, id: string) => (await queue.boss.getJobById(name, id, { includeArchive: true }))?.state ?? null;
  const waitForState = async (name: JobName, id: string, state: string, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if ((await stateOf(name, id)) === state) return true;
      await sleep(100);
    }
    return false;
  };

  it("takes a rollup job only in the lull after the uploads in flight", async () => {
    // A project that does not exist: its rollup refresh finds nothing pending and completes.
    const projectId = uniqueSlug("lull");
    let finish: () => void = () => undefined;
    const upload = trackUpload(() => new Promise<void>((resolve) => (finish = resolve)));
    const id = await queue.send("refresh-rollups", { projectId }, { singletonKey: projectId });
    expect(id).not.toBeNull();
    // The workers look every 200 ms: four times that, and the job still waits for the upload.
    await sleep(4 * LULL_MS);
    expect(await stateOf("refresh-rollups", id!)).toBe("created");
    finish();
    await upload;
    expect(await waitForState("refresh-rollups", id!, "completed", 15_000), "the job ran after the upload").toBe(true);
  }, 30_000);

  it("does not hold back a queue that does not coalesce", async () => {
    let finish: () => void = () => undefined;
    const upload = trackUpload(() => new Promise<void>((resolve) => (finish = resolve)));
    try {
      // A retention sweep of a project that does not exist: nothing to drop, completed.
      const id = await queue.send("apply-retention", { projectId: uniqueSlug("lull") });
      expect(await waitForState("apply-retention", id!, "completed", 15_000), "the job ran while the upload was in flight").toBe(true);
    } finally {
      finish();
      await upload;
    }
  }, 30_000);
});
