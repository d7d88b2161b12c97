import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { getEnv } from "./env";
import type { Prisma } from "./generated/prisma/client";
import { PrismaClient } from "./generated/prisma/client";

/**
 * The one place a Prisma client is built. With DATABASE_URL, Prisma talks to that PostgreSQL server;
 * without it, to an embedded PostgreSQL (PGlite, compiled to WebAssembly) kept in a folder on disk.
 * Everything above this module uses the same PrismaClient and never knows which one it has.
 */
export type DatabaseTarget =
  /** `readUrls`: streaming replicas of that server (DATABASE_READ_URL), for reads only (docs/architecture.md). */
  | { kind: "postgres"; url: string; readUrls?: readonly string[] }
  | { kind: "embedded"; dataDir: string }
  /** A throw-away embedded database in memory, for tests. */
  | { kind: "memory" };

/**
 * How the job queue (server/services/platform/job-queue.ts) reaches this database: its own small pool on a
 * PostgreSQL server, or, embedded, the one PGlite connection (which serializes every query and holds
 * others back while a transaction is open, so the queue's statements never land inside Prisma's).
 */
export type QueueConnection = (
  | { kind: "postgres"; connectionString: string }
  | { kind: "embedded"; executeSql(text: string, values?: readonly unknown[]): Promise<{ rows: unknown[] }> }
) & {
  /** The queue's own schema: "pgboss"; tests sharing one PostgreSQL database each take one of their own. */
  schema: string;
};

/** The job queue's schema in every database Benchtrack serves from. */
export const JOB_SCHEMA = "pgboss";

/** What a ReadDb offers of each model: the operations that only read. */
type ReadOperation = "findUnique" | "findUniqueOrThrow" | "findFirst" | "findFirstOrThrow" | "findMany" | "count" | "aggregate" | "groupBy";

/**
 * A database handle that can only read: each model's find/count/aggregate/groupBy and raw SELECTs, no
 * create/update/delete, no $transaction, no $executeRaw. What pages, tRPC read procedures and REST GETs
 * are handed (a read replica, or the primary: a PrismaClient is a ReadDb), so a service that takes a
 * ReadDb cannot write, and passing one to a service that takes a PrismaClient is a type error. The
 * replica's own connection refuses writes too (a hot standby, and `default_transaction_read_only`).
 */
export type ReadDb = { readonly [Model in Uncapitalize<Prisma.ModelName>]: Pick<PrismaClient[Model], ReadOperation> } & Pick<
  PrismaClient,
  "$queryRaw" | "$queryRawUnsafe"
>;

export interface Database {
  /** The primary: every write, every transaction, the job queue, and reads that decide a write. */
  prisma: PrismaClient;
  /** One client per read replica (DATABASE_READ_URL), empty without them: chosen by server/read-replicas.ts. */
  readers: readonly PrismaClient[];
  /**
   * The connection pools of a PostgreSQL server, the primary's then each replica's (`replica-1`…), for
   * GET /metrics; none on the embedded database (one connection, no pool).
   */
  pools: readonly { name: string; pool: pg.Pool }[];
  target: DatabaseTarget;
  /** The same connection as a migration-aware adapter factory, for the schema engine. */
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  queueConnection: QueueConnection;
  /** Runs `hook` first when the database closes (the job queue stops its workers there). */
  onClose(hook: () => Promise<void>): void;
  close(): Promise<void>;
}

/**
 * The database a Prisma client belongs to, for what needs more than Prisma (the job queue). On
 * globalThis: Next bundles this module into several chunks (routes, instrumentation), each with its own
 * module scope, and they must agree.
 */
const globalForDatabases = globalThis as unknown as { benchtrackDatabases?: WeakMap<PrismaClient, Database> };
const databases = (globalForDatabases.benchtrackDatabases ??= new WeakMap<PrismaClient, Database>());

export function databaseOf(prisma: PrismaClient): Database {
  const database = databases.get(prisma);
  if (!database) throw new Error("databaseOf: this Prisma client was not opened by openDatabase");
  return database;
}

function register(
  parts: Omit<Database, "onClose" | "close">,
  closeConnection: () => Promise<void>,
): Database {
  const hooks: (() => Promise<void>)[] = [];
  const database: Database = {
    ...parts,
    onClose: (hook) => {
      hooks.push(hook);
    },
    close: async () => {
      for (const hook of hooks.splice(0).reverse()) await hook();
      await closeConnection();
    },
  };
  databases.set(parts.prisma, database);
  return database;
}

/** Where the configured environment points: PostgreSQL when DATABASE_URL is set, else the data folder. */
export function targetFromEnv(env = getEnv()): DatabaseTarget {
  if (env.DATABASE_URL) return { kind: "postgres", url: env.DATABASE_URL, readUrls: env.DATABASE_READ_URL };
  if (env.DATABASE_READ_URL.length > 0) {
    console.warn(
      "DATABASE_READ_URL is ignored: read replicas need DATABASE_URL (a PostgreSQL primary); the embedded database serves every read itself.",
    );
  }
  return { kind: "embedded", dataDir: path.resolve(env.BENCHTRACK_DATA_DIR) };
}

export function describeTarget(target: DatabaseTarget): string {
  switch (target.kind) {
    case "postgres": {
      const replicas = target.readUrls ?? [];
      return replicas.length === 0
        ? `PostgreSQL at ${redactPassword(target.url)}`
        : `PostgreSQL at ${redactPassword(target.url)}, reads from ${replicas.map(redactPassword).join(", ")}`;
    }
    case "embedded":
      return `embedded PostgreSQL (PGlite) in ${target.dataDir}`;
    case "memory":
      return "embedded PostgreSQL (PGlite) in memory";
  }
}

function redactPassword(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]+@/, "//$1:***@");
}

interface OpenDatabaseOptions {
  /** The job queue's schema (default JOB_SCHEMA). */
  jobSchema?: string;
  /**
   * Embedded only: a PGlite data folder tarball (`dumpDataDir`) a NEW database starts from, instead of
   * an empty cluster (the migrated template: server/migrate/template.ts). Never give it for a folder
   * that already holds a database.
   */
  initialData?: Blob;
}

export async function openDatabase(target: DatabaseTarget, options: OpenDatabaseOptions = {}): Promise<Database> {
  const schema = options.jobSchema ?? JOB_SCHEMA;
  if (target.kind === "postgres") {
    // The pools are built here, not by the adapter, so GET /metrics can read how full each one is.
    const primaryPool = new pg.Pool({ connectionString: target.url, Client: ListenedClient });
    const adapterFactory = new PrismaPg(primaryPool, connectionErrorLogging("primary"));
    const prisma = new PrismaClient({ adapter: adapterFactory });
    // A reader's sessions are read-only on any server: a write sent to one fails even if the URL names a primary.
    // A replica that does not answer costs a read 5 s before it is retried on the primary, not forever.
    const readerPools = (target.readUrls ?? []).map(
      (url) => new pg.Pool({ connectionString: url, options: "-c default_transaction_read_only=on", connectionTimeoutMillis: 5_000, Client: ListenedClient }),
    );
    const readers = readerPools.map(
      (pool, index) => new PrismaClient({ adapter: new PrismaPg(pool, connectionErrorLogging(`read replica ${index + 1}`)) }),
    );
    const pools = [{ name: "primary", pool: primaryPool }, ...readerPools.map((pool, index) => ({ name: `replica-${index + 1}`, pool }))];
    const queueConnection: QueueConnection = { kind: "postgres", connectionString: target.url, schema };
    return register({ prisma, readers, pools, target, adapterFactory, queueConnection }, async () => {
      await Promise.all([prisma, ...readers].map((client) => client.$disconnect()));
      // The adapter leaves a pool it was handed open: ended here, once its client is gone. Its listener
      // for idle connections' errors went with it, and a pool's end resolves before its sockets close:
      // a server stopping meanwhile (a restart, a test's cluster removed) would make the pool emit an
      // 'error' nobody listens to, which node crashes on. Ignored: the pool is going away.
      for (const { pool } of pools) pool.on("error", () => undefined);
      await Promise.all(pools.map(({ pool }) => pool.end().catch(() => undefined)));
    });
  }
  const releaseLock = target.kind === "embedded" ? lockDataDir(target.dataDir) : () => undefined;
  try {
    const pgliteOptions = { loadDataDir: options.initialData };
    const pglite =
      target.kind === "embedded"
        ? new PGlite(path.join(target.dataDir, "pglite"), pgliteOptions)
        : new PGlite(pgliteOptions);
    await pglite.waitReady;
    const adapterFactory = new PrismaPGlite(withCommitErrors(pglite));
    const prisma = new PrismaClient({ adapter: adapterFactory });
    const queueConnection: QueueConnection = {
      kind: "embedded",
      schema,
      // Several statements (the queue's schema) need the simple protocol: exec, whose last result counts.
      executeSql: async (text, values) => {
        if (values && values.length > 0) return pglite.query(text, [...values]);
        try {
          const results = await pglite.exec(text);
          return results[results.length - 1] ?? { rows: [] };
        } catch (error) {
          // A script that opened its own transaction and failed inside it would leave the one
          // connection aborted for everyone after it: end that transaction.
          if (/^\s*BEGIN\b/i.test(text)) await pglite.exec("ROLLBACK").catch(() => undefined);
          throw error;
        }
      },
    };
    return register({ prisma, readers: [], pools: [], target, adapterFactory, queueConnection }, async () => {
      await prisma.$disconnect();
      await pglite.close();
      releaseLock();
    });
  } catch (error) {
    releaseLock();
    throw error;
  }
}

/**
 * The pools' clients (pg-pool's `Client` option): each keeps an 'error' listener all its life. node-postgres
 * emits 'error' on a client whose connection broke, and an 'error' nobody listens to crashes the
 * process. pg-pool hands a client to `connect()` a microtask before its borrower (Prisma's transaction)
 * attaches a listener, and a restarting server's FATAL message can arrive in the same read as the
 * ReadyForQuery that freed the client, parsed at once: seen as an uncaught exception when PostgreSQL
 * restarted under uploads. The error still fails whatever uses the client (it is marked not queryable:
 * a 503), and the pool drops the client when it comes back.
 */
class ListenedClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on("error", () => undefined);
  }
}

/**
 * The pool's 'error' listeners (@prisma/adapter-pg attaches them, and calls these): a connection that
 * broke while idle in the pool (a restart of the server, a fail-over, an idle timeout) or inside a
 * transaction. Without a listener node-postgres would crash the process; with one, the pool drops the
 * connection and opens another for the next query, and the request that was using it fails with an
 * "unavailable" error (503, Retry-After: services/platform/errors.ts). One line each, no stack: it is expected.
 */
function connectionErrorLogging(pool: string): { onPoolError: (error: Error) => void; onConnectionError: (error: Error) => void } {
  return {
    onPoolError: (error) => console.warn(`Database (${pool}): an idle connection closed: ${error.message}`),
    onConnectionError: (error) => console.warn(`Database (${pool}): a connection in a transaction failed: ${error.message}`),
  };
}

/** The embedded database's folder is held by another live process (scripts say so and exit, without a stack trace). */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by process ${holder} (is \`npm start\` running?). ` +
        "Stop that process first, or set DATABASE_URL to use a PostgreSQL server, which allows many.",
    );
    this.name = "DataDirInUseError";
  }
}

/**
 * PGlite is a single-process database: two processes opening one folder would corrupt it. A pid file
 * turns that into a clear error (e.g. `npm run token` while `npm start` is serving).
 */
function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, "benchtrack.pid");
  const holder = readLockHolder(lockPath);
  if (holder !== null && holder !== process.pid && isProcessAlive(holder)) {
    throw new DataDirInUseError(dataDir, holder);
  }
  writeFileSync(lockPath, String(process.pid));
  const release = () => {
    process.off("exit", release);
    if (readLockHolder(lockPath) === process.pid) rmSync(lockPath, { force: true });
  };
  // A normal stop (Next exits on SIGINT/SIGTERM without closing the database) leaves no stale lock.
  process.on("exit", release);
  return release;
}

function readLockHolder(lockPath: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(lockPath, "utf8"), 10);
    return Number.isFinite(pid) ? pid : null;
  } catch {
    return null;
  }
}

/** Whether a process of that pid is alive (one of another user's counts: EPERM). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

// The app's shared connection. Kept on globalThis so Next's dev-mode module reloads reuse it rather
// than opening the embedded database twice.
const globalForDb = globalThis as unknown as { benchtrackDb?: Promise<Database> };

/** The PrismaClient for the configured database, opened on first use. */
export async function getDb(): Promise<PrismaClient> {
  return (await getDatabase()).prisma;
}

/** The configured database itself (its job-queue connection, its close hooks), opened on first use. */
export async function getDatabase(): Promise<Database> {
  globalForDb.benchtrackDb ??= openDatabase(targetFromEnv(), { jobSchema: getEnv().BENCHTRACK_JOB_SCHEMA });
  return globalForDb.benchtrackDb;
}

/** Closes the shared connection (scripts and tests that end their process cleanly). */
export async function closeDb(): Promise<void> {
  const pending = globalForDb.benchtrackDb;
  globalForDb.benchtrackDb = undefined;
  if (pending) await (await pending).close();
}

/**
 * The PGlite the Prisma adapter is given, with a COMMIT's failure kept. pglite-prisma-adapter (0.x) runs an
 * interactive transaction as PGlite's transaction() and reads its end through `.catch(reject)` on a
 * promise it has already resolved, so a COMMIT that fails (a deferred foreign key's check at COMMIT,
 * migration runs_children_keys_deferred) rolled back and was answered as committed. Here the promise that
 * `.catch` gives it still rejects with the error (after the adapter's handler ran), so Prisma's commit, and
 * the $transaction awaiting it, throw. Marked handled, for a transaction that failed before it began.
 */
function withCommitErrors(pglite: PGlite): PGlite {
  // Methods bound once (PGlite's use private fields), not on every query.
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(pglite, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== "function") return value;
      if (property !== "transaction") {
        if (!bound.has(property)) bound.set(property, (value as (...args: unknown[]) => unknown).bind(target));
        return bound.get(property);
      }
      return (...args: Parameters<PGlite["transaction"]>) => {
        const ended = target.transaction(...args);
        return Object.assign(ended, {
          catch(onRejected: (error: unknown) => unknown) {
            const kept = ended.then(undefined, (error: unknown) => {
              onRejected(error);
              throw error;
            });
            kept.catch(() => undefined);
            return kept;
          },
        });
      };
    },
  });
}

