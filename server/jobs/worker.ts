import type PgBoss from "pg-boss";
import { getDatabase } from "../db";
import { getEnv } from "../env";
import { listProjectsWithPendingRollups } from "../services/trend-rollups";
import { JOB_NAMES, jobQueueOf, RETENTION_CRON, type JobName } from "../services/job-queue";
import { JOB_HANDLERS, type JobContext } from "./handlers";

/**
 * The job workers: each queue polled by this process (pg-boss takes a job with SKIP LOCKED, so several
 * replicas never run one job twice), each job run by its handler (./handlers.ts). `runQueuedJobs` runs
 * what is queued now, in this process, until nothing is left: the demo seed and tests use it.
 */

/** How often an idle worker looks for a job: detection starts about this long after an upload. */
export const POLLING_INTERVAL_SECONDS = 1;

async function runOne<Name extends JobName>(
  name: Name,
  job: PgBoss.JobWithMetadata<unknown>,
  context: JobContext,
): Promise<object> {
  try {
    return await JOB_HANDLERS[name](job as PgBoss.JobWithMetadata<never>, context);
  } catch (error) {
    const last =
      job.retryCount >= job.retryLimit
        ? " (last attempt)"
        : ` (attempt ${job.retryCount + 1} of ${job.retryLimit + 1})`;
    console.warn(`Job ${name} ${job.id} failed${last}: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
}

/**
 * Starts polling every queue in this process. pg-boss waits out its polling interval after every fetch,
 * even one that found a job; a worker that found one asks for the next at once (notifyWorker), so a
 * backlog drains at the handlers' pace and an idle queue costs one query a second.
 */
export async function startWorkers(
  context: JobContext,
  pollingIntervalSeconds = POLLING_INTERVAL_SECONDS,
): Promise<void> {
  for (const name of JOB_NAMES) {
    let workerId = "";
    workerId = await context.queue.boss.work(
      name,
      { includeMetadata: true, batchSize: 1, pollingIntervalSeconds },
      async ([job]) => {
        if (!job) return {};
        try {
          return await runOne(name, job, context);
        } finally {
          context.queue.boss.notifyWorker(workerId);
        }
      },
    );
  }
}

export interface RunQueuedOptions {
  /** Run retries now instead of after their backoff (tests of retries). */
  ignoreStartAfter?: boolean;
  /** Stop after this many jobs (a job that keeps queueing others cannot loop forever). */
  maxJobs?: number;
}

/** Runs every job queued now (and those they queue) in this process; returns how many completed and failed. */
export async function runQueuedJobs(
  context: JobContext,
  options: RunQueuedOptions = {},
): Promise<{ completed: number; failed: number }> {
  const maxJobs = options.maxJobs ?? 100_000;
  let completed = 0;
  let failed = 0;
  for (;;) {
    let ran = 0;
    for (const name of JOB_NAMES) {
      const jobs = await context.queue.boss.fetch<unknown>(name, {
        batchSize: 20,
        includeMetadata: true,
        ignoreStartAfter: options.ignoreStartAfter ?? false,
      });
      for (const job of jobs) {
        ran++;
        try {
          const output = await runOne(name, job, context);
          await context.queue.boss.complete(name, job.id, output);
          completed++;
        } catch (error) {
          await context.queue.boss.fail(name, job.id, {
            message: error instanceof Error ? error.message : String(error),
          });
          failed++;
        }
      }
    }
    if (ran === 0 || completed + failed >= maxJobs) return { completed, failed };
  }
}

/**
 * Background work of a serving process (instrumentation.ts): the job queue with its maintenance (jobs
 * whose worker died go back to the queue; old jobs are archived), the workers, and the nightly retention
 * and daily webhook-digest schedules (one schedule row each, shared by every replica). Off with BENCHTRACK_WORKERS=false.
 */
export async function startBackgroundWork(): Promise<void> {
  if (!getEnv().BENCHTRACK_WORKERS) return;
  const database = await getDatabase();
  const queue = await jobQueueOf(database, { maintain: true });
  await startWorkers({ db: database.prisma, queue });
  await queue.boss.schedule("apply-retention", RETENTION_CRON, {}, { tz: "UTC" });
  await queue.boss.schedule("send-webhook-digests", getEnv().BENCHTRACK_DIGEST_CRON, {}, { tz: "UTC" });
  // Rollups left pending (the migration's backfill, a bulk load): one job per project (coalesced with a waiting one).
  for (const projectId of await listProjectsWithPendingRollups(database.prisma)) {
    await queue.send("refresh-rollups", { projectId }, { singletonKey: projectId });
  }
  // Best effort on shutdown: take no new job and let running ones finish while the server closes. A job
  // cut short anyway is retried once its expiry passes (JOB_QUEUES): handlers are idempotent.
  process.once("SIGTERM", () => void queue.stop().catch(() => undefined));
}
