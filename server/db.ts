import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { getEnv } from "./env";
import { PrismaClient } from "./generated/prisma/client";

/**
 * The one place a Prisma client is built. With DATABASE_URL, Prisma talks to that PostgreSQL server;
 * without it, to an embedded PostgreSQL (PGlite, compiled to WebAssembly) kept in a folder on disk.
 * Everything above this module uses the same PrismaClient and never knows which one it has.
 */
export type DatabaseTarget =
  | { kind: "postgres"; url: string }
  | { kind: "embedded"; dataDir: string }
  /** A throw-away embedded database in memory, for tests. */
  | { kind: "memory" };

export interface Database {
  prisma: PrismaClient;
  target: DatabaseTarget;
  /** The same connection as a migration-aware adapter factory, for the schema engine. */
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  close(): Promise<void>;
}

/** Where the configured environment points: PostgreSQL when DATABASE_URL is set, else the data folder. */
export function targetFromEnv(env = getEnv()): DatabaseTarget {
  return env.DATABASE_URL
    ? { kind: "postgres", url: env.DATABASE_URL }
    : { kind: "embedded", dataDir: path.resolve(env.BENCHTRACK_DATA_DIR) };
}

export function describeTarget(target: DatabaseTarget): string {
  switch (target.kind) {
    case "postgres":
      return `PostgreSQL at ${redactPassword(target.url)}`;
    case "embedded":
      return `embedded PostgreSQL (PGlite) in ${target.dataDir}`;
    case "memory":
      return "embedded PostgreSQL (PGlite) in memory";
  }
}

function redactPassword(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]+@/, "//$1:***@");
}

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === "postgres") {
    const adapterFactory = new PrismaPg({ connectionString: target.url });
    const prisma = new PrismaClient({ adapter: adapterFactory });
    return { prisma, target, adapterFactory, close: () => prisma.$disconnect() };
  }
  const releaseLock = target.kind === "embedded" ? lockDataDir(target.dataDir) : () => undefined;
  try {
    const pglite =
      target.kind === "embedded" ? new PGlite(path.join(target.dataDir, "pglite")) : new PGlite();
    await pglite.waitReady;
    const adapterFactory = new PrismaPGlite(pglite);
    const prisma = new PrismaClient({ adapter: adapterFactory });
    return {
      prisma,
      target,
      adapterFactory,
      close: async () => {
        await prisma.$disconnect();
        await pglite.close();
        releaseLock();
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
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
    throw new Error(
      `The embedded database in ${dataDir} is in use by process ${holder} (is \`npm start\` running?). ` +
        "Stop that process first, or set DATABASE_URL to use a PostgreSQL server, which allows many.",
    );
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

function isProcessAlive(pid: number): boolean {
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
  globalForDb.benchtrackDb ??= openDatabase(targetFromEnv());
  return (await globalForDb.benchtrackDb).prisma;
}

/** Closes the shared connection (scripts and tests that end their process cleanly). */
export async function closeDb(): Promise<void> {
  const pending = globalForDb.benchtrackDb;
  globalForDb.benchtrackDb = undefined;
  if (pending) await (await pending).close();
}
