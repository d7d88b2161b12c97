import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { ReadDb } from "../../db";
import type { ShareScope } from "./sessions";
import { unsealShareGrant } from "./sessions";

/**
 * What a share link's token opens. Two kinds of token reach here:
 * - a stored link's id (minted since issue 38): 22 URL-safe characters (16 random bytes, base64url) that
 *   name a row of share_links, which holds the scope and expiry and may be revoked from Settings;
 * - a sealed token (`Fe26.2*…`, about 450 to 1,050 characters), minted before, which carries its scope
 *   and expiry itself: still honoured until it expires (old PR comments hold them), never revocable one
 *   by one (changing BENCHTRACK_SESSION_SECRET voids them all).
 * Anything else (too long, other characters, an unknown id) is "invalid": a refusal, never an error.
 */
export const SHARE_ID_BYTES = 16;
export const SHARE_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;
/** The longest token looked at: a sealed 5 vs 5 comparison is about 1,050 characters. */
export const MAX_SHARE_TOKEN_LENGTH = 4096;

/** A new stored link's id: crypto-random, URL-safe, 22 characters. */
export function newShareId(): string {
  return randomBytes(SHARE_ID_BYTES).toString("base64url");
}

/** What a stored link keeps of its scope: everything but the project, which is its row's (a renamed project keeps its links). */
export const storedShareScopeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("compare"), base: z.string(), head: z.string(), tool: z.string().nullable() }),
  z.object({ kind: z.literal("run"), runId: z.string() }),
]);
export type StoredShareScope = z.infer<typeof storedShareScopeSchema>;

export type ShareRefusal = "expired" | "revoked" | "invalid";

export type ShareLinkState =
  /** `token`: the token as it should be written in links (percent-decoded); `id`: the stored link's id, null for a sealed one. */
  | { status: "open"; scope: ShareScope; expiresAt: Date; token: string; id: string | null }
  | { status: ShareRefusal };

/**
 * The token as sent, made comparable: surrounding blanks dropped, and percent-decoded when it was
 * copied from a URL (`%7E` for `~` in a sealed token, or a whole URL-encoded id) into the
 * X-Benchtrack-Share header. Null when nothing usable is left.
 */
export function normalizeShareToken(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  let token = raw.trim();
  if (token === "" || token.length > MAX_SHARE_TOKEN_LENGTH * 3) return null;
  if (token.includes("%")) {
    try {
      token = decodeURIComponent(token);
    } catch {
      return null;
    }
  }
  return token === "" || token.length > MAX_SHARE_TOKEN_LENGTH ? null : token;
}

/** What a share token opens now, or why it opens nothing (expired, revoked, not a link of this server). */
export async function readShareLink(db: ReadDb, raw: string | null | undefined, now = new Date()): Promise<ShareLinkState> {
  const token = normalizeShareToken(raw);
  if (token === null) return { status: "invalid" };
  if (SHARE_ID_PATTERN.test(token)) {
    const row = await db.shareLink.findUnique({
      where: { id: token },
      select: { scope: true, expiresAt: true, revokedAt: true, project: { select: { slug: true } } },
    });
    const stored = storedShareScopeSchema.safeParse(row?.scope);
    if (!row || !stored.success) return { status: "invalid" };
    if (row.revokedAt !== null) return { status: "revoked" };
    if (row.expiresAt <= now) return { status: "expired" };
    return { status: "open", scope: { ...stored.data, project: row.project.slug }, expiresAt: row.expiresAt, token, id: token };
  }
  if (!token.startsWith("Fe26.")) return { status: "invalid" };
  const sealed = await unsealShareGrant(token);
  if (sealed === "invalid" || sealed === "expired") return { status: sealed };
  return { status: "open", scope: sealed.scope, expiresAt: sealed.expiresAt, token, id: null };
}
