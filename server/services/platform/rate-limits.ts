import { getEnv } from "../../env";
import type { PrismaClient } from "../../generated/prisma/client";
import { Prisma } from "../../generated/prisma/client";
import { ServiceError } from "./errors";

/**
 * Rate limits on PostgreSQL itself (the embedded database included): a fixed-window counter per key in
 * `rate_limits`, bumped by one upsert, so every replica on the database shares the count and nothing
 * is lost on restart. Limits are per minute, configurable, and documented in docs/configuration.md:
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
 * added), "ip:unknown" without one. Spoofable when no proxy sets the header (docs/configuration.md says so).
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

/** The counter's upsert after its INSERT: one more in the same window, else a new window starting at 1. */
const COUNT_IN_WINDOW = Prisma.sql`
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limits.window_start = EXCLUDED.window_start THEN rate_limits.count + 1 ELSE 1 END,
      window_start = EXCLUDED.window_start
    RETURNING count`;

/** Counts one more request for `subject`; returns the count in the current window. */
async function bump(db: PrismaClient, key: string, windowStart: Date): Promise<number> {
  const rows = await db.$queryRaw<{ count: number }[]>`
    INSERT INTO rate_limits (key, window_start, count) VALUES (${key}, ${windowStart}, 1) ${COUNT_IN_WINDOW}`;
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

/**
 * Counts a request of `kind` for each subject and runs `read` (a SELECT) in the same statement: one round
 * trip where takeRateLimit and the read would take one each. As takeRateLimit, a subject is counted only
 * while the ones before it are within the limit, and the first over it refuses (429); the read's rows
 * come back otherwise. `read` must not name a column `bump_<n>` or `found__`.
 */
export async function takeRateLimitWithRead<Row>(
  db: PrismaClient,
  kind: RateLimitKind,
  subjects: readonly string[],
  read: Prisma.Sql,
  now = Date.now(),
): Promise<Row[]> {
  const limit = limitOf(kind);
  const counted = limit > 0 ? subjects : [];
  const { start, retryAfterSeconds } = windowOf(now);
  const bumps = counted.map((subject, index) => {
    const within = index === 0 ? Prisma.empty : Prisma.sql`WHERE (SELECT count FROM bump_${Prisma.raw(String(index - 1))}) <= ${limit}`;
    return Prisma.sql`bump_${Prisma.raw(String(index))} AS (
      INSERT INTO rate_limits (key, window_start, count) SELECT ${`${kind}:${subject}`}::text, ${start}::timestamptz, 1 ${within} ${COUNT_IN_WINDOW})`;
  });
  const counts = counted.map((_, index) => Prisma.sql`(SELECT count FROM bump_${Prisma.raw(String(index))}) AS bump_${Prisma.raw(String(index))}`);
  const rows = await db.$queryRaw<(Row & { found__: boolean | null } & Record<string, unknown>)[]>`
    WITH ${Prisma.join([...bumps, Prisma.sql`read AS (SELECT true AS found__, r.* FROM (${read}) r)`])}
    SELECT ${Prisma.join([...counts, Prisma.sql`read.*`])} FROM (SELECT 1) AS one LEFT JOIN read ON true`;
  for (let index = 0; index < counted.length; index++) {
    const count = rows[0]?.[`bump_${index}`];
    if (count !== null && count !== undefined && Number(count) > limit) throw tooMany(kind, limit, retryAfterSeconds);
  }
  return rows
    .filter((row) => row.found__ === true)
    .map((row) => {
      const { found__: _found, ...rest } = row;
      for (let index = 0; index < counted.length; index++) delete rest[`bump_${index}`];
      return rest as unknown as Row;
    });
}

/**
 * The failed-authentication limit of a client address, for a statement that checks it beside its own
 * work (a token's lookup: services/access/tokens.ts): the row's key, the window, the limit and the 429
 * to answer when the address is over it; null when the limit is off.
 */
export function authFailureLimit(address: string, now = Date.now()): { key: string; windowStart: Date; limit: number; refusal: () => ServiceError } | null {
  const limit = limitOf("auth-failure");
  if (limit <= 0) return null;
  const { start, retryAfterSeconds } = windowOf(now);
  return { key: `auth-failure:${address}`, windowStart: start, limit, refusal: () => tooMany("auth-failure", limit, retryAfterSeconds) };
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
