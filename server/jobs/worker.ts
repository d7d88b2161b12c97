import type PgBoss from "pg-boss";
import { getDatabase } from "../db";
import type { Database } from "../db";
import { getEnv } from "../env";
import { getLogger, onShutdown, recordJob, toServiceError, uploadQuietMs } from "../services/platform";
import { listProjectsWithPendingRollups } from "../services/trends";
import {
  JOB_HEARTBEAT_SECONDS,
  JOB_LEASE_SECONDS,
  JOB_NAMES,
  JOB_QUEUES,
  jobQueueOf,
  markWorkers,
  queueSettings,
  RETENTION_CRON,
  STATISTICS_CRON,
  type JobName,
  type JobQueue,
} from "../services/platform";
import { JOB_HANDLERS, type JobContext } from "./handlers";

/**
 * The job workers: each queue polled by this process (pg-boss takes a job with SKIP LOCKED, so several
 * replicas never run one job twice), each job run by its handler (./handlers.ts). `runQueuedJobs` runs
 * what is queued now, in this process, until nothing is left: the demo seed and tests use it.
 *
 * The loop is ours, not pg-boss's `work()`: pg-boss records a handler's outcome without awaiting it, so
 * a database that restarted under a running job left the job `active` until its expiry and the failed
 * write as an unhandled rejection. Here a job's outcome is recorded once the database answers again,
 * and a running job's lease is renewed (the heartbeat: JobQueue.renewLease), so a job whose worker died
 * is retried about a minute later however long jobs may run.
 */

/**
 * How often a worker looks for a job after one (or after this process sent one to its queue: detection
 * starts about this long after an upload, later after a detection job's rest: restAfterJob). Each empty
 * look doubles the wait, up to IDLE_POLLING_FACTOR times this: an idle server looks at each queue every
 * 8 s, not every second (an idle embedded server: 1.9–2.9% of a core looking every second, 0.6–0.9%
 * now; docs/performance.md), and a job another replica sends, or a retry whose backoff ran out, waits
 * at most that long.
 */
export const POLLING_INTERVAL_SECONDS = 1;
const IDLE_POLLING_FACTOR = 8;

/** How long a worker waits after `emptyLooks` looks in a row found nothing: the interval, doubled each time, capped. */
export function idlePauseMs(pollingIntervalMs: number, emptyLooks: number): number {
  return pollingIntervalMs * Math.min(2 ** Math.max(0, emptyLooks - 1), IDLE_POLLING_FACTOR);
}
/** While the database is unavailable, how often a worker tries again to record a job's outcome. */
const SETTLE_RETRY_MS = 1_000;
/** How long stopping waits for running jobs before giving them up (failed, so retried). */
const STOP_TIMEOUT_MS = 10_000;

type Outcome = { completed: true; output: object } | { completed: false; error: unknown };

/** Runs a job's handler; a failure is logged with its attempt. It is given up on after its queue's runLimitSeconds. */
async function runHandler<Name extends JobName>(name: Name, job: PgBoss.JobWithMetadata<unknown>, context: JobContext): Promise<Outcome> {
  const limitSeconds = JOB_QUEUES[name].runLimitSeconds;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`The job ran longer than ${limitSeconds} s: given up`)), limitSeconds * 1000);
  });
  try {
    // A handler that outlives its limit goes on in the background; Promise.race has handled its outcome.
    const output = await Promise.race([JOB_HANDLERS[name](job as PgBoss.JobWithMetadata<never>, context), limit]);
    return { completed: true, output };
  } catch (error) {
    const last =
      job.retryCount >= job.retryLimit
        ? " (last attempt)"
        : ` (attempt ${job.retryCount + 1} of ${job.retryLimit + 1})`;
    getLogger().warn({ job: name, jobId: job.id, error: error instanceof Error ? error.message : String(error) }, `job failed${last}`);
    return { completed: false, error };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Renews a running job's lease now and every JOB_HEARTBEAT_SECONDS until stopped; `leaseEnd` is when
 * the last renewal that landed runs out (a renewal that failed, the database away, is just missed).
 */
function startHeartbeat(queue: JobQueue, name: JobName, id: string) {
  let leaseEnd = Date.now() + JOB_LEASE_SECONDS * 1000;
  const beat = async () => {
    const sentAt = Date.now();
    if (await queue.renewLease(name, id).catch(() => false)) leaseEnd = sentAt + JOB_LEASE_SECONDS * 1000;
  };
  let pending = beat();
  const timer = setInterval(() => {
    pending = pending.then(beat);
  }, JOB_HEARTBEAT_SECONDS * 1000);
  return {
    leaseEnd: () => leaseEnd,
    /** Stops the heartbeat, once the renewal in flight (if any) has landed: it never follows the outcome. */
    stop: async () => {
      clearInterval(timer);
      await pending;
    },
  };
}

/**
 * Records a job's outcome (completed with its output, or failed with its error: pg-boss then retries it
 * as its queue's policy says). While the database is unavailable it tries again every second, until
 * the job's lease runs out: after that, maintenance puts the job back in the queue anyway (and another
 * worker may have taken it). Never throws: what could not be recorded is logged, and the lease settles it.
 */
async function settle(queue: JobQueue, name: JobName, id: string, outcome: Outcome, leaseEnd: () => number): Promise<boolean> {
  let waited = false;
  for (;;) {
    try {
      if (outcome.completed) await queue.boss.complete(name, id, outcome.output);
      else await queue.boss.fail(name, id, outcome.error instanceof Error ? outcome.error : { message: String(outcome.error) });
      if (waited) getLogger().info({ job: name, jobId: id }, "job outcome recorded once the database answered again");
      return true;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (toServiceError(error).code !== "unavailable" || Date.now() + SETTLE_RETRY_MS > leaseEnd()) {
        getLogger().warn({ job: name, jobId: id, error: message }, "job outcome could not be recorded; it is retried when its lease runs out");
        return false;
      }
      if (!waited) getLogger().warn({ job: name, jobId: id, error: message }, "database unavailable; recording the job outcome when it answers");
      waited = true;
      await new Promise((resolve) => setTimeout(resolve, SETTLE_RETRY_MS));
    }
  }
}

/** One job, start to end: its lease renewed while its handler runs, then its outcome recorded. */
async function runJob(name: JobName, job: PgBoss.JobWithMetadata<unknown>, context: JobContext): Promise<Outcome> {
  const startedAt = performance.now();
  const heartbeat = startHeartbeat(context.queue, name, job.id);
  let outcome: Outcome;
  try {
    outcome = await runHandler(name, job, context);
  } finally {
    await heartbeat.stop();
  }
  const durationMs = performance.now() - startedAt;
  const result = outcome.completed ? "completed" : "failed";
  recordJob(name, result, durationMs / 1000);
  // One line per job run: its queue, id, attempt, duration and outcome (never its data: it may name a webhook's URL).
  getLogger().info({ job: name, jobId: job.id, attempt: job.retryCount + 1, durationMs: Math.round(durationMs * 10) / 10, outcome: result }, "job");
  await settle(context.queue, name, job.id, outcome, heartbeat.leaseEnd);
  return outcome;
}

/** The longest a worker rests after a job (restAfterJob). */
export const MAX_REST_MS = 10_000;

/**
 * How long a queue's worker rests after a job that took `durationMs` before it takes the next: its
 * queue's restFactor times the job's time, at most MAX_REST_MS; none for a queue without one. The
 * coalescing queues (detection, rollups) have one: during a burst of uploads a job waits meanwhile and
 * gathers them all, instead of the queue running back to back beside the uploads on the same cores
 * (at most a third of a core's time with a factor of 2).
 */
export function restAfterJob(name: JobName, durationMs: number): number {
  return Math.min(MAX_REST_MS, Math.max(0, (queueSettings(name).restFactor ?? 0) * durationMs));
}

/** Uploads in this process stopped this long: a lull, in which a coalescing queue takes its next job (lullWaitMs). */
export const LULL_MS = 500;
/**
 * The longest a coalescing queue waits for a lull: under uploads that never stop, detection still runs,
 * this long after the previous job and its rest.
 */
export const MAX_LULL_WAIT_MS = 10_000;

/**
 * How much longer a queue's worker waits before it looks for a job, uploads having been quiet for
 * `quietMs` and the worker having waited `waitedMs`: none for a queue that does not coalesce; for
 * detection and rollups, until LULL_MS without an upload in flight in this process, at most
 * MAX_LULL_WAIT_MS in all. Their job waits meanwhile, as it does during their rest (restAfterJob): a
 * burst of uploads keeps the cores, and its runs coalesce into one job that runs after it (50-endpoint
 * uploads at 8 in flight, the workers on against off: docs/performance.md).
 */
export function lullWaitMs(name: JobName, quietMs: number, waitedMs: number): number {
  if (queueSettings(name).restFactor === undefined || quietMs >= LULL_MS) return 0;
  return Math.max(0, Math.min(LULL_MS - quietMs, MAX_LULL_WAIT_MS - waitedMs));
}

/** A queue's worker in this process: takes one job at a time, and looks again after one (at once, or after its queue's rest). */
class QueueWorker {
  private stopping = false;
  private wake: (() => void) | null = null;
  /** Looks in a row that found no job; while idle, `wakeIdle` ends the wait. */
  private emptyLooks = 0;
  private isIdle = false;
  private current: { id: string; startedAt: number } | null = null;
  private stopped: Promise<string | null> | null = null;
  readonly done: Promise<void>;

  constructor(
    readonly name: JobName,
    private readonly context: JobContext,
    private readonly pollingIntervalMs: number,
  ) {
    this.done = this.loop();
  }

  private async loop(): Promise<void> {
    let failing = false;
    while (!this.stopping) {
      await this.awaitLull();
      if (this.stopping) break;
      let job: PgBoss.JobWithMetadata<unknown> | undefined;
      try {
        // pg-boss answers a fetch that failed (the database away) as an empty queue: the loop goes on,
        // and takes jobs again as soon as the database is back.
        [job] = await this.context.queue.boss.fetch<unknown>(this.name, { batchSize: 1, includeMetadata: true });
        failing = false;
      } catch (error) {
        if (!failing) getLogger().warn({ job: this.name, error: error instanceof Error ? error.message : String(error) }, "job queue: cannot fetch jobs");
        failing = true;
      }
      if (!job) {
        this.emptyLooks++;
        this.isIdle = true;
        await this.pause(idlePauseMs(this.pollingIntervalMs, this.emptyLooks));
        this.isIdle = false;
        continue;
      }
      this.emptyLooks = 0;
      const current = { id: job.id, startedAt: Date.now() };
      this.current = current;
      await runJob(this.name, job, this.context).catch((error: unknown) => {
        getLogger().error({ job: this.name, jobId: job.id, err: error }, "job runner failed");
      });
      this.current = null;
      const rest = restAfterJob(this.name, Date.now() - current.startedAt);
      if (rest > 0 && !this.stopping) await this.pause(rest);
    }
  }

  /** Waits, for a coalescing queue, for a lull in this process's uploads (lullWaitMs). */
  private async awaitLull(): Promise<void> {
    const started = performance.now();
    for (;;) {
      const wait = lullWaitMs(this.name, uploadQuietMs(), performance.now() - started);
      if (wait <= 0 || this.stopping) return;
      await this.pause(wait);
    }
  }

  /** This process sent a job to the queue: an idle worker looks now, and soon again (the sender's transaction may not have committed yet). */
  wakeIdle(): void {
    this.emptyLooks = 0;
    if (this.isIdle) this.wake?.();
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(finish, ms);
      function finish() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = finish;
    });
  }

  /**
   * Takes no new job; waits for the running one up to `timeoutMs`, then gives it up (failed, so retried
   * as its queue's policy says). Answers the job it gave up, if any. Stopping twice stops once.
   */
  stop(timeoutMs: number): Promise<string | null> {
    this.stopped ??= this.stopOnce(timeoutMs);
    return this.stopped;
  }

  private async stopOnce(timeoutMs: number): Promise<string | null> {
    this.stopping = true;
    this.wake?.();
    const stopped = await Promise.race([
      this.done.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), Math.max(0, timeoutMs)).unref()),
    ]);
    const current = this.current;
    if (stopped || current === null) return null;
    const seconds = ((Date.now() - current.startedAt) / 1000).toFixed(1);
    await this.context.queue.boss
      .fail(this.name, current.id, { message: "The worker stopped while the job ran" })
      .catch(() => undefined); // its lease runs out instead
    return `${this.name} job ${current.id}, running for ${seconds} s: failed, to be retried`;
  }
}

/** The workers of this process: `stop` takes no new job and waits for the running ones (see QueueWorker.stop). */
export interface Workers {
  /** Answers the jobs it gave up on (failed, to be retried), empty when every running job finished in time. */
  stop(timeoutMs: number): Promise<string[]>;
}

/**
 * Starts polling every queue in this process, until the queue stops (JobQueue.stop: the workers take
 * no new job, and wait up to 10 s for the running ones) or `stop` is called (a stop of the server, with
 * its own limit). A worker that found a job looks again at once (the coalescing queues' after their
 * rest: restAfterJob), so a backlog drains at the handlers' pace (a third of it for detection and
 * rollups); one that found none looks again after `pollingIntervalSeconds`, then twice that, up to 8
 * times it (idlePauseMs), and at once when this process sends a job to its queue (JobQueue.onSent).
 */
export async function startWorkers(
  context: JobContext,
  pollingIntervalSeconds = POLLING_INTERVAL_SECONDS,
): Promise<Workers> {
  const workers = JOB_NAMES.map((name) => new QueueWorker(name, context, pollingIntervalSeconds * 1000));
  const stopWaking = context.queue.onSent((names) => {
    for (const worker of workers) if (names.includes(worker.name)) worker.wakeIdle();
  });
  const stop = async (timeoutMs: number) => {
    stopWaking();
    return (await Promise.all(workers.map((worker) => worker.stop(timeoutMs)))).filter((cut): cut is string => cut !== null);
  };
  context.queue.onStop(async () => {
    await stop(STOP_TIMEOUT_MS);
  });
  return { stop };
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
        if ((await runJob(name, job, context)).completed) completed++;
        else failed++;
      }
    }
    if (ran === 0 || completed + failed >= maxJobs) return { completed, failed };
  }
}

/**
 * Background work of a serving process (instrumentation.ts): the job queue with its maintenance (jobs
 * whose lease ran out go back to the queue; old jobs are archived), the workers, the nightly retention
 * and daily webhook-digest schedules (one schedule row each, shared by every replica), and on the
 * embedded database the statistics pass every 10 minutes. Off with BENCHTRACK_WORKERS=false.
 */
export async function startBackgroundWork(): Promise<void> {
  if (!getEnv().BENCHTRACK_WORKERS) return;
  markWorkers("starting");
  let queue: JobQueue;
  let database: Database;
  let workers: Awaited<ReturnType<typeof startWorkers>>;
  try {
    database = await getDatabase();
    queue = await jobQueueOf(database, { maintain: true });
    workers = await startWorkers({ db: database.prisma, queue });
  } catch (error) {
    markWorkers("failed");
    throw error;
  }
  markWorkers("running");
  queue.onStop(async () => markWorkers("stopped"));
  // A stop of the server (SIGTERM, SIGINT: scripts/serve.ts): from the signal on, the workers take no
  // new job and the running ones may finish until the stop's deadline; one still running then is failed,
  // and retried as its queue's policy says (handlers are idempotent). The queue itself (pg-boss's pool,
  // its maintenance) stops when the database closes, after the last request that could enqueue a job.
  onShutdown({ name: "job workers", phase: "drain", run: (deadline) => workers.stop(deadline - Date.now()) });
  await queue.boss.schedule("apply-retention", RETENTION_CRON, {}, { tz: "UTC" });
  await queue.boss.schedule("send-webhook-digests", getEnv().BENCHTRACK_DIGEST_CRON, {}, { tz: "UTC" });
  // The embedded database runs no autovacuum: its statistics (and the job queue's dead rows) are kept up here.
  if (database.target.kind === "embedded") await queue.boss.schedule("refresh-statistics", STATISTICS_CRON, {}, { tz: "UTC" });
  // Rollups left pending (the migration's backfill, a bulk load): one job per project (coalesced with a waiting one).
  for (const projectId of await listProjectsWithPendingRollups(database.prisma)) {
    await queue.send("refresh-rollups", { projectId }, { singletonKey: projectId });
  }
}
