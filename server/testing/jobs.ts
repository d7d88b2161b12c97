import { getDatabase } from "../db";
import { runQueuedJobs, type RunQueuedOptions } from "../jobs/worker";
import { jobQueueOf } from "../services/platform/job-queue";

/**
 * Runs, in the test's process, every job the app's database has queued (detection after uploads, the
 * webhook deliveries it queues…), as the workers of `npm start` would a moment later.
 */
export async function runQueuedJobsNow(options: RunQueuedOptions = {}) {
  const database = await getDatabase();
  return runQueuedJobs({ db: database.prisma, queue: await jobQueueOf(database) }, options);
}
