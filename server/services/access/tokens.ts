import { createHash, randomBytes } from "node:crypto";
import type { PrismaClient } from "../../generated/prisma/client";
import type { authFailureLimit } from "../platform";

/**
 * Token secrets: how an upload token is made and recognised. The secret is shown once, at creation;
 * only its SHA-256 is stored, so a leaked database leaks no usable token. Looking a token up by its
 * hash also keeps the comparison independent of how much of the secret an attacker guessed right.
 * The admin's use cases over a project's tokens (create, list, revoke) are in ./project-tokens.ts.
 */
const TOKEN_PREFIX = "bt_";

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A new secret, the prefix shown in lists to tell tokens apart, and the hash that is stored. */
export function newTokenSecret(): { token: string; prefix: string; tokenHash: string } {
  const token = `${TOKEN_PREFIX}${randomBytes(24).toString("base64url")}`;
  return { token, prefix: token.slice(0, TOKEN_PREFIX.length + 6), tokenHash: hashToken(token) };
}

/** A live project token, as admission found it: its project, its name (for the audit trail) and its scopes (server/domain/access/roles.ts). */
export interface ActiveToken {
  id: string;
  projectId: string;
  name: string;
  scopes: string[];
}

/**
 * A bearer token's lookup as admission makes it, in one statement: unless the caller's address is over
 * its failed-authentication limit (`failures`, null: not limited), the live token with this secret,
 * its last use set to now (an expired token is not live). `blocked`: the address is over the limit (nothing was looked up or touched);
 * `token`: the token, null when no live token has this secret; `expiredAt`: when the token with this very
 * secret expired, if it is not revoked but past its expiry (so the refusal can say so). Only the holder of
 * the secret learns this: a guessed secret matches no row, and a revoked token's refusal stays the unknown one's.
 */
export async function findAndTouchActiveToken(
  db: PrismaClient,
  token: string,
  failures: ReturnType<typeof authFailureLimit>,
): Promise<{ blocked: boolean; token: ActiveToken | null; expiredAt: Date | null }> {
  const hash = token.startsWith(TOKEN_PREFIX) ? hashToken(token) : null;
  const [row] = await db.$queryRaw<
    { blocked: boolean; id: string | null; projectId: string | null; name: string | null; scopes: string[] | null; expiredAt: Date | null }[]
  >`
    WITH blocked AS (
      SELECT EXISTS (
        SELECT 1 FROM rate_limits
        WHERE key = ${failures?.key ?? null}::text AND window_start = ${failures?.windowStart ?? null}::timestamptz AND count >= ${failures?.limit ?? 0}::int
      ) AS blocked
    ),
    touched AS (
      UPDATE api_tokens SET last_used_at = ${new Date()}::timestamptz
      WHERE token_hash = ${hash}::text AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
        AND NOT (SELECT blocked FROM blocked)
      RETURNING id, project_id, name, scopes
    ),
    expired AS (
      SELECT expires_at FROM api_tokens
      WHERE token_hash = ${hash}::text AND revoked_at IS NULL AND expires_at <= now()
        AND NOT (SELECT blocked FROM blocked)
    )
    SELECT blocked.blocked, touched.id, touched.project_id AS "projectId", touched.name, touched.scopes, expired.expires_at AS "expiredAt"
    FROM blocked LEFT JOIN touched ON true LEFT JOIN expired ON true`;
  const found = row?.id && row.projectId ? { id: row.id, projectId: row.projectId, name: row.name ?? "", scopes: row.scopes ?? [] } : null;
  const expiredAt = found === null && row?.expiredAt ? new Date(row.expiredAt) : null;
  return { blocked: row?.blocked ?? false, token: found, expiredAt };
}
