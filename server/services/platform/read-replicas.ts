import type { Database, ReadDb } from "../../db";
import type { PrismaClient } from "../../generated/prisma/client";
import { errorCodesOf, toServiceError } from "./errors";

/**
 * Where a read goes when DATABASE_READ_URL names read replicas (docs/architecture.md, "Read replicas").
 * Pages, tRPC read procedures and REST GETs read from a replica, taken in turn; everything else (writes,
 * transactions, the job queue, authentication and rate limits, and reads that decide a write) stays on
 * the primary. Read-your-writes, two ways:
 * - after a write, the answer carries the primary's WAL position (a cookie for browsers, a header for
 *   API clients that send it back); a read that brings one goes to a replica that has replayed that far,
 *   or to the primary when none has;
 * - a read that misses (not_found: a run, an incident, a project just created) or finds its replica
 *   unreachable or in conflict with recovery is asked again on the primary, so an upload followed at
 *   once by a GET of its run answers 200 whatever the replica's lag.
 */

/** The cookie that carries the primary's WAL position after a write (browsers send it back by themselves). */
export const WAL_POSITION_COOKIE = "benchtrack_wal";
/** The same as a header, for API clients: the answer to a write has it; a read may send it back. */
export const WAL_POSITION_HEADER = "benchtrack-wal-position";
/** How long a browser insists on reading its own writes: far longer than a healthy replica's lag. */
const WAL_POSITION_MAX_AGE_SECONDS = 60;

/** A WAL position as PostgreSQL prints a pg_lsn: two hexadecimal halves. */
const WAL_POSITION_PATTERN = /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/i;

/** The WAL position a read must see, from its header or cookie; anything malformed is ignored (reads stay correct, just on a replica). */
export function walPositionOf(headers: Headers): string | null {
  const fromHeader = headers.get(WAL_POSITION_HEADER)?.trim();
  if (fromHeader && WAL_POSITION_PATTERN.test(fromHeader)) return fromHeader;
  for (const part of (headers.get("cookie") ?? "").split(";")) {
    const [name, value] = part.trim().split("=", 2);
    if (name === WAL_POSITION_COOKIE && value && WAL_POSITION_PATTERN.test(decodeURIComponent(value))) return decodeURIComponent(value);
  }
  return null;
}

/**
 * The primary's WAL position once a write has committed (null without replicas: nobody needs it). A
 * replica that has replayed this far shows the write.
 */
export async function currentWalPosition(database: Database): Promise<string | null> {
  if (database.readers.length === 0) return null;
  const rows = await database.prisma.$queryRaw<{ position: string }[]>`SELECT pg_current_wal_lsn()::text AS position`;
  return rows[0]?.position ?? null;
}

/** The answer headers that hand a write's WAL position to the writer's next reads. */
export function walPositionHeaders(position: string): Record<string, string> {
  return {
    [WAL_POSITION_HEADER]: position,
    "Set-Cookie": `${WAL_POSITION_COOKIE}=${encodeURIComponent(position)}; Path=/; Max-Age=${WAL_POSITION_MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax`,
  };
}

// Replicas are taken in turn, process-wide (on globalThis: Next bundles this module into several chunks).
const roundRobin = globalThis as unknown as { benchtrackNextReader?: number };

/**
 * The client a read goes to: the next replica in turn, or, when the read must see `afterPosition`, the
 * first replica (from that one on) that has replayed it; the primary when there are no replicas or none
 * has caught up (asked once, no waiting: the primary answers at once instead).
 */
export async function chooseReader(database: Database, afterPosition: string | null = null): Promise<ReadDb> {
  const { readers } = database;
  if (readers.length === 0) return database.prisma;
  const start = (roundRobin.benchtrackNextReader = ((roundRobin.benchtrackNextReader ?? -1) + 1) % readers.length);
  if (afterPosition === null) return readers[start]!;
  for (let offset = 0; offset < readers.length; offset++) {
    const reader = readers[(start + offset) % readers.length]!;
    if (await hasReplayed(reader, afterPosition)) return reader;
  }
  return database.prisma;
}

async function hasReplayed(reader: PrismaClient, position: string): Promise<boolean> {
  try {
    const rows = await reader.$queryRaw<{ replayed: boolean | null }[]>`
      SELECT pg_last_wal_replay_lsn() >= ${position}::pg_lsn AS replayed`;
    // null: not a standby (a reader URL naming a primary sees every committed write).
    return rows[0]?.replayed ?? true;
  } catch {
    return false; // unreachable: the primary answers instead
  }
}

/** SQLSTATE of a standby cancelling a query whose rows recovery had to remove ("conflict with recovery"). */
const RECOVERY_CONFLICT = "40001";

/**
 * Whether a read that failed on a replica is asked again on the primary: a miss (the row may not have
 * replayed yet), an unreachable replica, or a query the standby cancelled for recovery.
 */
export function shouldRetryOnPrimary(error: unknown): boolean {
  const code = toServiceError(error).code;
  if (code === "not_found" || code === "unavailable") return true;
  return errorCodesOf(error).includes(RECOVERY_CONFLICT);
}

/** Runs `read` on `reader`, and again on the primary when it failed there in a way shouldRetryOnPrimary names. */
export async function readWithPrimaryFallback<T>(database: Database, reader: ReadDb, read: (db: ReadDb) => Promise<T>): Promise<T> {
  if (reader === database.prisma) return read(reader);
  try {
    return await read(reader);
  } catch (error) {
    if (!shouldRetryOnPrimary(error)) throw error;
    return read(database.prisma);
  }
}
