import type { PrismaClient } from "../../generated/prisma/client";
import { listMigrationsOnDisk, readAppliedMigrations, shippedMigrationsDir } from "../../migrate/applied";
import { errorCodesOf } from "./errors";
import { workersState } from "./job-queue";
import { isShuttingDown } from "./lifecycle";

/**
 * Readiness (GET /api/ready): may this process be sent requests? Each check answers ok or not with a
 * reason a person can act on, and nothing else: no connection string, no stack, no data.
 * - database: a `SELECT 1` within DATABASE_TIMEOUT_MS;
 * - migrations: every migration this version ships is recorded as applied (`npm start` applies them;
 *   a replica started before the migration ran is not ready);
 * - jobs: the job workers run in this process (or are disabled: BENCHTRACK_WORKERS=false, still ready);
 * - shutdown: the process is not stopping (lifecycle.ts: from SIGTERM on, while it drains).
 */
export interface ReadinessCheck {
  ok: boolean;
  /** A short state: "ok", "unreachable", "pending", "running", "disabled"… */
  status: string;
  /** Why, when not ok (and a note when it is worth one). */
  reason?: string;
}

export interface Readiness {
  status: "ready" | "not_ready";
  checks: { database: ReadinessCheck; migrations: ReadinessCheck; jobs: ReadinessCheck; shutdown: ReadinessCheck };
}

/** How long the database may take to answer `SELECT 1` before it counts as unreachable. */
export const DATABASE_TIMEOUT_MS = 2_000;

export interface ReadinessInput {
  /** The primary (undefined: it could not even be opened, `openError` says why). */
  prisma?: Pick<PrismaClient, "$queryRaw">;
  openError?: unknown;
  /** Whether this process should run the job workers (BENCHTRACK_WORKERS). */
  workersEnabled: boolean;
  /** The shipped migrations' folder (default: shippedMigrationsDir()). */
  migrationsDir?: string | null;
  timeoutMs?: number;
}

export async function checkReadiness(input: ReadinessInput): Promise<Readiness> {
  const database = await checkDatabase(input);
  const migrations: ReadinessCheck = database.ok
    ? await checkMigrations(input.prisma!, input.migrationsDir === undefined ? shippedMigrationsDir() : input.migrationsDir, input.timeoutMs)
    : { ok: false, status: "unknown", reason: "the database is unreachable" };
  const checks = { database, migrations, jobs: checkJobs(input.workersEnabled), shutdown: checkShutdown() };
  return { status: Object.values(checks).every((check) => check.ok) ? "ready" : "not_ready", checks };
}

async function checkDatabase({ prisma, openError, timeoutMs = DATABASE_TIMEOUT_MS }: ReadinessInput): Promise<ReadinessCheck> {
  if (!prisma) return { ok: false, status: "unreachable", reason: `the database could not be opened (${describeFailure(openError)})` };
  try {
    await withTimeout(prisma.$queryRaw`SELECT 1`, timeoutMs);
    return { ok: true, status: "ok" };
  } catch (error) {
    return { ok: false, status: "unreachable", reason: describeFailure(error) };
  }
}

async function checkMigrations(prisma: Pick<PrismaClient, "$queryRaw">, dir: string | null, timeoutMs = DATABASE_TIMEOUT_MS): Promise<ReadinessCheck> {
  if (dir === null) return { ok: false, status: "unknown", reason: "the migrations folder (prisma/migrations) was not found" };
  try {
    const [shipped, applied] = await Promise.all([listMigrationsOnDisk(dir), withTimeout(readAppliedMigrations(prisma), timeoutMs)]);
    const pending = shipped.filter((name) => !applied.has(name));
    if (pending.length === 0) return { ok: true, status: "ok" };
    return {
      ok: false,
      status: "pending",
      reason: `${pending.length} of ${shipped.length} migrations not applied (first: ${pending[0]}): run npm run db:migrate`,
    };
  } catch (error) {
    return { ok: false, status: "unknown", reason: `the applied migrations could not be read (${describeFailure(error)})` };
  }
}

function checkJobs(enabled: boolean): ReadinessCheck {
  if (!enabled) return { ok: true, status: "disabled", reason: "BENCHTRACK_WORKERS=false: another process runs the jobs" };
  const state = workersState();
  if (state === "running") return { ok: true, status: "running" };
  const reasons: Record<Exclude<typeof state, "running">, string> = {
    "not-started": "the job workers have not started in this process",
    starting: "the job workers are starting",
    failed: "the job workers failed to start (see the log); restart the process",
    stopped: "the job workers stopped",
  };
  return { ok: false, status: state, reason: reasons[state] };
}

function checkShutdown(): ReadinessCheck {
  return isShuttingDown() ? { ok: false, status: "shutting_down", reason: "the process is shutting down" } : { ok: true, status: "running" };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(ms)), ms);
  });
  promise.catch(() => undefined); // settled after the timeout: nobody waits for it
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

class TimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
  }
}

/**
 * A failure in a few words, with nothing of the connection (a driver's message may name the host, the
 * user or the database): a timeout, or the most telling code along its causes (a socket's ECONNREFUSED…,
 * then a driver adapter's kind, DatabaseNotReachable…, then a SQLSTATE, then Prisma's), else "query failed".
 */
function describeFailure(error: unknown): string {
  if (error instanceof TimeoutError) return error.message;
  const codes = errorCodesOf(error);
  const code =
    codes.find((candidate) => /^E[A-Z_]{3,}$/.test(candidate)) ??
    codes.find((candidate) => /^[A-Z][a-z]+[A-Z][A-Za-z]+$/.test(candidate)) ??
    codes.find((candidate) => /^[0-9][0-9A-Z]{4}$/.test(candidate)) ??
    codes.find((candidate) => /^P\d{4}$/.test(candidate));
  return code === undefined ? "query failed" : `error ${code}`;
}
