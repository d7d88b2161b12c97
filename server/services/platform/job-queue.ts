import { createRequire } from "node:module";
import PgBoss from "pg-boss";
import { databaseOf, type Database } from "../../db";
export { JOB_SCHEMA } from "../../db";
import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import { getLogger } from "./logger";

/**
 * Background work on a PostgreSQL job queue, in the same database as everything else: pg-boss (its
 * own schema, `pgboss`). Why pg-boss: jobs are rows taken with SELECT … FOR UPDATE SKIP LOCKED, so one
 * worker takes a job however many replicas poll (and one that died is taken again: handlers are
 * idempotent); retries with exponential backoff, expiry of jobs whose worker died (a restart loses
 * nothing: the job goes back to the queue once its lease runs out, about a minute: JOB_LEASE_SECONDS)
 * and cron schedules come with it; and it talks to its database through one `executeSql(text, values)`
 * function, so the embedded PGlite database runs it too (graphile-worker needs LISTEN/NOTIFY on a pg
 * Pool and Node 22).
 *
 * A job is enqueued in the transaction that makes it necessary (the upload's, the settings change's):
 * it exists exactly when its cause was committed. Workers (server/jobs/) run in every `npm start`
 * unless BENCHTRACK_WORKERS=false.
 */

/**
 * How long an active job stays taken without news from its worker (pg-boss's expireInSeconds, for every
 * queue): a running job's worker renews it every JOB_HEARTBEAT_SECONDS (JobQueue.renewLease), so a job
 * may run far longer, but the job of a worker that died, or that lost the database while it ran and
 * never came back, is retried about a minute later (maintenance looks every JOB_MAINTENANCE_SECONDS).
 */
export const JOB_LEASE_SECONDS = 60;
/** How often a running job's worker renews its lease: four times a lease, so three missed renewals are survived. */
export const JOB_HEARTBEAT_SECONDS = 15;
/** How often maintenance (one process at a time) retries the jobs whose lease ran out and archives old ones. */
export const JOB_MAINTENANCE_SECONDS = 30;

/**
 * Each job's queue: its retry policy, `restFactor` (the coalescing queues': its worker rests that many
 * times a job's run time before taking the next, server/jobs/worker.ts restAfterJob), and
 * `runLimitSeconds`, the longest its handler may run before the worker gives up on it (the job fails,
 * and is retried as its policy says; the lease is not a limit).
 * Measured on PostgreSQL (2 busy cores): detection at once over a 500-run history of 10 endpoints,
 * 1.2 s; the rollups of its 72 weeks, 1.7 s. A rollup backfill grows with the history: it may run long.
 */
export const JOB_QUEUES = {
  /**
   * Change-point detection over a series' history after uploads (server/services/incidents/regression-detection.ts).
   * "short" with singletonKey = the series: at most one job of a series waits, and uploads that come
   * while it waits coalesce into it (it detects at the series' newest run, stepping back over every
   * window the coalesced runs need). Two jobs of one series may run at once on two replicas: they
   * record their findings under the series' advisory lock, so no change is recorded twice. (pg-boss's
   * "stately" would serialize them, but a waiting job whose key is active blocks every other fetch.)
   */
  "detect-regressions": {
    policy: "short",
    retryLimit: 5,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: JOB_LEASE_SECONDS,
    // Its transaction lasts 30 s at most; the search before it, a second or two.
    runLimitSeconds: 3 * 60,
    restFactor: 2,
  },
  /** One webhook delivery attempt; a failed one is retried with backoff (10–20 s, then doubling: 42–85 min in all). */
  "deliver-webhook": { policy: "standard", retryLimit: 8, retryDelay: 10, retryBackoff: true, expireInSeconds: JOB_LEASE_SECONDS, runLimitSeconds: 60 },
  /** Detection again over a project's series, after its settings changed (the default branch). */
  "redetect-project": {
    policy: "stately",
    retryLimit: 2,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: JOB_LEASE_SECONDS,
    runLimitSeconds: 30 * 60,
  },
  /** The daily webhook digests (server/services/notifications/webhook-digest.ts), on BENCHTRACK_DIGEST_CRON; one per project and day. */
  "send-webhook-digests": {
    policy: "stately",
    retryLimit: 3,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: JOB_LEASE_SECONDS,
    runLimitSeconds: 15 * 60,
  },
  /**
   * Recomputes a project's pending rollup weeks (server/services/trends/trend-rollups.ts). "short" with
   * singletonKey = the project: uploads while one waits coalesce into it. Two running at once (two
   * replicas) take turns under the project's advisory lock. A backfill of a large history runs long:
   * its lease is renewed meanwhile.
   */
  "refresh-rollups": {
    policy: "short",
    retryLimit: 5,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: JOB_LEASE_SECONDS,
    runLimitSeconds: 30 * 60,
    restFactor: 2,
  },
  /** Drops raw uploads older than each project's raw_retention_days (daily, and on request). */
  "apply-retention": {
    policy: "stately",
    retryLimit: 2,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: JOB_LEASE_SECONDS,
    runLimitSeconds: 30 * 60,
  },
  /**
   * The embedded database's stand-in for autovacuum (table-statistics.ts), every STATISTICS_CRON; one
   * at a time. Scheduled on the embedded database only: PostgreSQL's autovacuum does this there.
   */
  "refresh-statistics": {
    policy: "stately",
    retryLimit: 1,
    retryDelay: 60,
    retryBackoff: false,
    expireInSeconds: JOB_LEASE_SECONDS,
    runLimitSeconds: 30 * 60,
  },
} as const satisfies Record<string, QueueSettings>;

/** A queue's settings: pg-boss's, and ours (its worker's run limit and rest, server/jobs/worker.ts). */
type QueueSettings = Omit<PgBoss.Queue, "name"> & { runLimitSeconds: number; restFactor?: number };

export type JobName = keyof typeof JOB_QUEUES;
export const JOB_NAMES = Object.keys(JOB_QUEUES) as JobName[];

/** A queue's settings as one type, the optional ones included. */
export function queueSettings(name: JobName): QueueSettings {
  return JOB_QUEUES[name];
}

/** What each job carries. */
export interface JobData {
  /** `notify: false` (a history import): regressions and incidents are recorded, no webhook is sent for them. */
  "detect-regressions": { projectId: string; runId: string; tool: string; label: string | null; testbed?: string | null; baseUrl: string; notify?: boolean };
  "deliver-webhook": { deliveryId: string; projectId: string };
  "redetect-project": { projectId: string };
  "apply-retention": { projectId?: string };
  "refresh-rollups": { projectId: string };
  "send-webhook-digests": Record<string, never>;
  "refresh-statistics": Record<string, never>;
}

/** Retention runs every night (UTC); each replica's schedule is the same row, so one replica fires it. */
export const RETENTION_CRON = "17 3 * * *";
/** The embedded database's statistics are looked at every ten minutes (a pass with nothing stale reads one view). */
export const STATISTICS_CRON = "*/10 * * * *";

export interface SendOptions {
  /** Enqueue inside this transaction: the job exists exactly when the transaction commits. */
  tx?: Prisma.TransactionClient;
  /** One job per key at a time, as the queue's policy says (a series, a project). */
  singletonKey?: string;
}

/** A job sendCoalescedMany enqueues (or relies on the waiting one of its key). */
export type CoalescedJob = { [Name in JobName]: { name: Name; data: JobData[Name]; singletonKey: string } }[JobName];

/** pg-boss's own INSERT of one job (the statement boss.send runs), read from the package (a server external). */
let insertJobTemplate: ((schema: string) => string) | null = null;
function insertJobSql(schema: string): string {
  const plans = createRequire(import.meta.url)("pg-boss/src/plans.js") as { insertJob: (schema: string) => string };
  insertJobTemplate ??= plans.insertJob;
  return insertJobTemplate(schema).trim();
}

export class JobQueue {
  private readonly stopHooks: (() => Promise<void>)[] = [];
  private readonly sentListeners = new Set<(names: readonly JobName[]) => void>();

  /** `schema` is where pg-boss keeps the jobs (job, archive…): "pgboss", or a test's own. */
  constructor(
    readonly boss: PgBoss,
    readonly schema: string,
  ) {}

  /** Enqueues a job; null when the queue's policy kept an equal job instead (one waiting per key). */
  async send<Name extends JobName>(name: Name, data: JobData[Name], options: SendOptions = {}): Promise<string | null> {
    const sendOptions: PgBoss.SendOptions = {};
    if (options.singletonKey !== undefined) sendOptions.singletonKey = options.singletonKey;
    if (options.tx) sendOptions.db = transactionExecutor(options.tx);
    const id = await this.boss.send(name, data, sendOptions);
    this.announceSent([name]);
    return id;
  }

  /**
   * Enqueues a job in `tx`, or relies on the one of its key already waiting: that one is then locked
   * (FOR UPDATE) until `tx` commits, so no worker starts it (they skip locked jobs) before this cause is
   * visible to it. If the waiting job started meanwhile, a new one is enqueued.
   */
  async sendCoalesced<Name extends JobName>(name: Name, data: JobData[Name], tx: Prisma.TransactionClient, singletonKey: string): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      if ((await this.send(name, data, { tx, singletonKey })) !== null) return;
      const waiting = await tx.$queryRawUnsafe<{ id: string }[]>(
        `SELECT id FROM ${this.schema}.job WHERE name = $1 AND singleton_key = $2 AND state = 'created' FOR UPDATE`,
        name,
        singletonKey,
      );
      if (waiting.length > 0) return;
    }
    throw new Error(`Could not enqueue ${name} for ${singletonKey}: its waiting job kept starting`);
  }

  /**
   * sendCoalesced for several jobs in ONE statement (a run deletion's, an import's): each job is pg-boss's
   * own insert (plans.insertJob, its parameters renumbered), and where the queue kept a waiting job of
   * that key instead, that job is locked FOR UPDATE in the same statement (coalescedJobsSql). A job
   * neither inserted nor found waiting goes through sendCoalesced's loop (settleCoalesced).
   */
  async sendCoalescedMany(jobs: readonly CoalescedJob[], tx: Prisma.TransactionClient): Promise<void> {
    if (jobs.length === 0) return;
    const values: unknown[] = [];
    const { ctes, settled } = this.coalescedJobsSql(jobs, values);
    const [row] = await tx.$queryRawUnsafe<{ settled: boolean[] }[]>(`WITH ${ctes.join(",\n")} SELECT ${settled} AS settled`, ...values);
    await this.settleCoalesced(jobs, row?.settled, tx);
  }

  /**
   * sendCoalescedMany's statement as parts of another (the upload's run row takes its jobs along: one
   * round trip fewer): the CTEs, their parameters appended to `values` and numbered after those already
   * there, and a boolean[] expression of which jobs were inserted or found waiting, for settleCoalesced.
   * A job found neither way started between the two, or was inserted by a transaction that committed
   * after the statement's snapshot.
   */
  coalescedJobsSql(jobs: readonly CoalescedJob[], values: unknown[]): { ctes: string[]; settled: string } {
    const ctes = jobs.flatMap((job, index) => {
      const offset = values.length;
      // insertJob's 19 parameters, as Manager.createJob passes them for a plain send with a singletonKey.
      values.push(null, job.name, JSON.stringify(job.data), null, null, job.singletonKey, null, 0, null, null, null, null, null, null, null, null, null, null, null);
      const insert = insertJobSql(this.schema).replace(/\$(\d+)/g, (_, n: string) => `$${offset + Number(n)}`);
      values.push(job.name, job.singletonKey);
      const [name, key] = [`$${values.length - 1}`, `$${values.length}`];
      return [
        `job_inserted_${index} AS (${insert})`,
        `job_waiting_${index} AS (SELECT id FROM ${this.schema}.job WHERE name = ${name} AND singleton_key = ${key} AND state = 'created'
           AND NOT EXISTS (SELECT 1 FROM job_inserted_${index}) FOR UPDATE)`,
      ];
    });
    const settled = jobs.map((_, index) => `EXISTS (SELECT 1 FROM job_inserted_${index}) OR EXISTS (SELECT 1 FROM job_waiting_${index})`);
    return { ctes, settled: `ARRAY[${settled.join(", ")}]::boolean[]` };
  }

  /** The jobs coalescedJobsSql's statement neither inserted nor found waiting (`settled[i]` not true), sent one by one. */
  async settleCoalesced(jobs: readonly CoalescedJob[], settled: readonly boolean[] | undefined, tx: Prisma.TransactionClient): Promise<void> {
    for (const [index, job] of jobs.entries()) {
      if (settled?.[index] !== true) await this.sendCoalesced(job.name, job.data, tx, job.singletonKey);
    }
    this.announceSent(jobs.map((job) => job.name));
  }

  /**
   * Calls `listener` with the queues this process just sent jobs to (through send or settleCoalesced,
   * often before their transaction commits): this process's idle workers look at once and again soon
   * after, instead of at their idle pace (server/jobs/worker.ts). Answers how to stop calling it.
   */
  onSent(listener: (names: readonly JobName[]) => void): () => void {
    this.sentListeners.add(listener);
    return () => this.sentListeners.delete(listener);
  }

  private announceSent(names: readonly JobName[]): void {
    for (const listener of this.sentListeners) listener(names);
  }

  /**
   * The heartbeat of a running job: its lease (pg-boss's expiry, started_on + expire_in) pushed to
   * JOB_LEASE_SECONDS from now, while it is still active. False when it is not (it was settled, or
   * its lease ran out and maintenance put it back in the queue).
   */
  async renewLease(name: JobName, id: string): Promise<boolean> {
    const result = await this.boss.getDb().executeSql(
      `UPDATE ${this.schema}.job SET expire_in = (now() - started_on) + make_interval(secs => $3)
        WHERE name = $1 AND id = $2 AND state = 'active' RETURNING id`,
      [name, id, JOB_LEASE_SECONDS],
    );
    return result.rows.length > 0;
  }

  /** Runs `hook` first when the queue stops (the workers finish or give up their jobs there: server/jobs/worker.ts). */
  onStop(hook: () => Promise<void>): void {
    this.stopHooks.push(hook);
  }

  async stop(): Promise<void> {
    for (const hook of this.stopHooks.splice(0).reverse()) await hook();
    await this.boss.stop({ graceful: true, wait: true, close: true, timeout: 10_000 });
  }
}

/** pg-boss's statements run through Prisma's transaction; its parameters as PostgreSQL takes them. */
function transactionExecutor(tx: Prisma.TransactionClient): PgBoss.Db {
  return {
    executeSql: async (text: string, values: unknown[] = []) => {
      const parameters = values.map((value) =>
        value === undefined
          ? null
          : value instanceof Date
            ? value.toISOString()
            : typeof value === "object" && value !== null
              ? JSON.stringify(value)
              : value,
      );
      return { rows: await tx.$queryRawUnsafe<unknown[]>(text, ...parameters) };
    },
  };
}

export interface OpenOptions {
  /** Supervise (expire jobs whose worker died, archive old ones) and keep cron schedules: worker processes do. */
  maintain: boolean;
}

/** One queue per database and process, on globalThis: Next's chunks (routes, instrumentation) share it. */
const globalForQueues = globalThis as unknown as { benchtrackJobQueues?: WeakMap<Database, Promise<JobQueue>> };
const queues = (globalForQueues.benchtrackJobQueues ??= new WeakMap<Database, Promise<JobQueue>>());

/** A job queue of its own on a database (another replica's, in tests); most callers want jobQueueOf. */
export async function openJobQueue(database: Database, options: OpenOptions = { maintain: false }): Promise<JobQueue> {
  const queue = await startJobQueue(database, options);
  database.onClose(() => queue.stop());
  return queue;
}

/** The job queue of a database, started once (its schema is created on first start). */
export function jobQueueOf(database: Database, options: OpenOptions = { maintain: false }): Promise<JobQueue> {
  let queue = queues.get(database);
  if (!queue) {
    queue = startJobQueue(database, options);
    // A start that failed (the database was down) is not kept: the next caller tries again.
    queue.catch(() => queues.delete(database));
    queues.set(database, queue);
    database.onClose(async () => (await queue?.catch(() => null))?.stop());
  }
  return queue;
}

/** The job queue of the database a Prisma client belongs to (services hold only the client). */
export function jobQueueFor(prisma: PrismaClient): Promise<JobQueue> {
  return jobQueueOf(databaseOf(prisma));
}

async function startJobQueue(database: Database, { maintain }: OpenOptions): Promise<JobQueue> {
  const connection = database.queueConnection;
  const common = {
    schema: connection.schema,
    supervise: maintain,
    schedule: maintain,
    migrate: true,
    // Jobs whose lease ran out (their worker died) are retried within this long of it (default 2 minutes).
    maintenanceIntervalSeconds: JOB_MAINTENANCE_SECONDS,
  };
  const boss =
    connection.kind === "postgres"
      ? new PgBoss({
          ...common,
          connectionString: connection.connectionString,
          max: 4,
          application_name: "benchtrack-jobs",
        })
      : new PgBoss({
          ...common,
          db: { executeSql: (text: string, values?: unknown[]) => connection.executeSql(text, values) },
        });
  // pg-boss reports its own background failures here: a maintenance or schedule query that failed, a
  // pooled connection that broke (its pool's 'error' event: a restart of the server). One line, never a
  // crash: each of those loops tries again on its next tick, so the queue resumes when the database does.
  boss.on("error", (error) => getLogger().error({ error: error.message }, "job queue"));
  await boss.start();
  // create_queue is INSERT … ON CONFLICT DO NOTHING: replicas starting together create each queue once;
  // updateQueue then applies this version's retry policy to a queue an older version created.
  for (const name of JOB_NAMES) {
    // pg-boss's settings only: the run limit and the rest are the worker's (server/jobs/worker.ts).
    const { runLimitSeconds: _runLimit, restFactor: _rest, ...options } = queueSettings(name);
    await boss.createQueue(name, { name, ...options });
    await boss.updateQueue(name, { name, ...options });
  }
  return new JobQueue(boss, connection.schema);
}

/**
 * Whether this process's job workers run (server/jobs/worker.ts sets it as they start and stop), for the
 * readiness probe (readiness.ts). On globalThis: instrumentation.ts starts them in a chunk of its own.
 */
export type WorkersState = "not-started" | "starting" | "running" | "failed" | "stopped";
const globalForWorkers = globalThis as unknown as { benchtrackWorkersState?: WorkersState };

export function markWorkers(state: WorkersState): void {
  globalForWorkers.benchtrackWorkersState = state;
}

export function workersState(): WorkersState {
  return globalForWorkers.benchtrackWorkersState ?? "not-started";
}
