import { getEnv } from "../../env";
import type { PrismaClient } from "../../generated/prisma/client";
import { ServiceError } from "./errors";

/**
 * Rate limits on PostgreSQL itself (the embedded database included): a fixed-window counter per key in
 * `rate_limits`, bumped by one upsert, so every replica on the database shares the count and nothing
 * is lost on restart. Limits are per minute, configurable, and documented in the README:
 *
 * - uploads, per token and per client address (BENCHTRACK_RATE_UPLOADS_PER_MINUTE, default 120);
 * - failed authentications, per client address (BENCHTRACK_RATE_AUTH_FAILURES_PER_MINUTE, default 20):
 *   once over, even a right token waits, so guessing gains nothing;
 * - REST reads, per client address (BENCHTRACK_RATE_READS_PER_MINUTE, default 1200).
 *
 * Over a limit: 429 with Retry-After (the seconds left in the window). 0 turns a limit off.
 */
export const RATE_WINDOW_SECONDS = 60;

/**
 * The client address limits count against: the last X-Forwarded-For hop (the one the nearest proxy
 * added), "ip:unknown" without one. Spoofable when no proxy sets the header (README says so).
 */
export function clientAddressOf(headers: Headers): string {
  const hops = (headers.get("x-forwarded-for") ?? "").split(",").map((hop) => hop.trim()).filter(Boolean);
  return `ip:${hops.at(-1) ?? "unknown"}`;
}

export type RateLimitKind = "upload" | "auth-failure" | "read";

function limitOf(kind: RateLimitKind): number {
  const env = getEnv();
  if (kind === "upload") return env.BENCHTRACK_RATE_UPLOADS_PER_MINUTE;
  if (kind === "auth-failure") return env.BENCHTRACK_RATE_AUTH_FAILURES_PER_MINUTE;
  return env.BENCHTRACK_RATE_READS_PER_MINUTE;
}

function windowOf(now: number): { start: Date; retryAfterSeconds: number } {
  const length = RATE_WINDOW_SECONDS * 1000;
  const start = Math.floor(now / length) * length;
  return { start: new Date(start), retryAfterSeconds: Math.max(1, Math.ceil((start + length - now) / 1000)) };
}

/** Counts one more request for `subject`; returns the count in the current window. */
async function bump(db: PrismaClient, key: string, windowStart: Date): Promise<number> {
  const rows = await db.$queryRaw<{ count: number }[]>`
    INSERT INTO rate_limits (key, window_start, count) VALUES (${key}, ${windowStart}, 1)
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limits.window_start = EXCLUDED.window_start THEN rate_limits.count + 1 ELSE 1 END,
      window_start = EXCLUDED.window_start
    RETURNING count`;
  return Number(rows[0]?.count ?? 0);
}

function tooMany(kind: RateLimitKind, limit: number, retryAfterSeconds: number): ServiceError {
  const what = { upload: "uploads", "auth-failure": "failed authentications", read: "reads" }[kind];
  return new ServiceError(
    "too_many_requests",
    `Too many ${what}: at most ${limit} a minute. Retry in ${retryAfterSeconds} s.`,
    [{ path: "rate", message: `${limit} ${what} per ${RATE_WINDOW_SECONDS} s` }],
    retryAfterSeconds,
  );
}

/** Counts a request of `kind` for each subject (a token, a client address); 429 when one is over its limit. */
export async function takeRateLimit(db: PrismaClient, kind: RateLimitKind, subjects: readonly string[], now = Date.now()): Promise<void> {
  const limit = limitOf(kind);
  if (limit <= 0) return;
  const { start, retryAfterSeconds } = windowOf(now);
  for (const subject of subjects) {
    if ((await bump(db, `${kind}:${subject}`, start)) > limit) throw tooMany(kind, limit, retryAfterSeconds);
  }
}

/** Refuses (429) a client address that failed authentication too often this window, before its token is checked. */
export async function checkAuthFailures(db: PrismaClient, address: string, now = Date.now()): Promise<void> {
  const limit = limitOf("auth-failure");
  if (limit <= 0) return;
  const { start, retryAfterSeconds } = windowOf(now);
  const row = await db.rateLimit.findUnique({ where: { key: `auth-failure:${address}` }, select: { windowStart: true, count: true } });
  if (row && row.windowStart.getTime() === start.getTime() && row.count >= limit) throw tooMany("auth-failure", limit, retryAfterSeconds);
}

/** Counts one failed authentication of a client address. */
export async function recordAuthFailure(db: PrismaClient, address: string, now = Date.now()): Promise<void> {
  if (limitOf("auth-failure") <= 0) return;
  await bump(db, `auth-failure:${address}`, windowOf(now).start);
}
