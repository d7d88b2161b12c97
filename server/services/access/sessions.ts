import { createHash, randomBytes } from "node:crypto";
import { sealData, unsealData } from "iron-session";
import { z } from "zod";
import type { ShareScope } from "../../domain/share";
import { getEnv } from "../../env";

/**
 * Browser sessions and share links: small signed-and-encrypted tokens (iron-session's seal, the
 * @hapi/iron format) that say who may read. Nothing is stored server-side, so every replica that
 * shares the secret accepts them. The rules that use them live in auth.ts.
 *
 * - A session is what signing in with a token leaves in the browser: an httpOnly, SameSite=Lax cookie
 *   that says "read" or "admin" and expires after SESSION_TTL_SECONDS.
 * - A share link minted before links were stored (share-grants.ts) carries a read-only grant for ONE
 *   comparison or ONE run of one project, with its own expiry; such links still open until they expire.
 *
 * The secret is BENCHTRACK_SESSION_SECRET; unset, it is derived from the admin and read tokens, so
 * rotating either signs everyone out and voids every share link.
 */
export const SESSION_TTL_SECONDS = 7 * 24 * 3600;
export const MAX_SHARE_TTL_DAYS = 365;

/** What a session was signed in with: the admin token, the read token (or a project token), or a person's identity (OIDC). */
export type SessionRole = "read" | "admin" | "user";
/** A session's grant: a token's role, or the signed-in person's users.id (their rights are read from the database on each request). */
export type Session = { role: "read" | "admin" } | { role: "user"; userId: string };

// Each seal also carries its own expiry (ms since epoch), checked here to the millisecond: iron's
// own check allows a minute of clock skew.
const sessionSchema = z.discriminatedUnion("role", [
  z.object({ role: z.enum(["read", "admin"]), expiresAt: z.number() }),
  z.object({ role: z.literal("user"), userId: z.string().min(1).max(64), expiresAt: z.number() }),
]);

const shareScopeSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("compare"),
    project: z.string(),
    base: z.string(),
    head: z.string(),
    tool: z.string().nullable(),
  }),
  z.object({ kind: z.literal("run"), project: z.string(), runId: z.string() }),
]);
export type { ShareScope } from "../../domain/share";

let fallbackSecret: string | undefined;

/**
 * The seal password: ≥ 32 characters, as iron-session requires. Derived, it also takes in the identity
 * provider's client secret when one is set (a secret every replica has), so signing in with the provider
 * works on a server with no token; servers without one derive it as before.
 */
export function sealPassword(): string {
  const env = getEnv();
  if (env.BENCHTRACK_SESSION_SECRET) return env.BENCHTRACK_SESSION_SECRET;
  if (env.BENCHTRACK_ADMIN_TOKEN || env.BENCHTRACK_READ_TOKEN || env.BENCHTRACK_OIDC_CLIENT_SECRET) {
    const oidc = env.BENCHTRACK_OIDC_CLIENT_SECRET ? `\u0000${env.BENCHTRACK_OIDC_CLIENT_SECRET}` : "";
    return createHash("sha256")
      .update(`benchtrack-session\u0000${env.BENCHTRACK_ADMIN_TOKEN ?? ""}\u0000${env.BENCHTRACK_READ_TOKEN ?? ""}${oidc}`)
      .digest("hex");
  }
  // No token configured: nothing is private, and sessions only carry the admin role nobody can get.
  fallbackSecret ??= randomBytes(32).toString("hex");
  return fallbackSecret;
}

export function sealSession(session: Session | "read" | "admin", now = Date.now()): Promise<string> {
  const expiresAt = now + SESSION_TTL_SECONDS * 1000;
  const grant = typeof session === "string" ? { role: session } : session;
  return sealData({ ...grant, expiresAt }, { password: sealPassword(), ttl: SESSION_TTL_SECONDS });
}

/** What a session cookie grants; null for none, a forged, tampered or expired one. */
export async function sessionOf(sealed: string | null | undefined): Promise<Session | null> {
  if (!sealed) return null;
  const data = await unsealData<unknown>(sealed, { password: sealPassword(), ttl: SESSION_TTL_SECONDS }).catch(() => null);
  const parsed = sessionSchema.safeParse(data);
  if (!parsed.success || parsed.data.expiresAt <= Date.now()) return null;
  return parsed.data.role === "user" ? { role: "user", userId: parsed.data.userId } : { role: parsed.data.role };
}

/** The role a session cookie was signed in with; null for none, a forged, tampered or expired one. */
export async function sessionRoleOf(sealed: string | null | undefined): Promise<SessionRole | null> {
  return (await sessionOf(sealed))?.role ?? null;
}

/**
 * A sealed share token, as links were minted before they were stored (share-grants.ts): its scope and
 * expiry travel in the token. Nothing mints these any more; tests seal one to hold that old links still open.
 */
export async function sealShare(scope: ShareScope, ttlSeconds: number): Promise<{ token: string; expiresAt: Date }> {
  const ttl = Math.max(1, Math.round(ttlSeconds));
  const expiresAt = Date.now() + ttl * 1000;
  const token = await sealData({ scope, expiresAt }, { password: sealPassword(), ttl });
  return { token, expiresAt: new Date(expiresAt) };
}

/** What a sealed share token grants, and until when; "expired", or "invalid" for a forged or tampered one. */
export async function unsealShareGrant(token: string): Promise<{ scope: ShareScope; expiresAt: Date } | "expired" | "invalid"> {
  const data = await unsealData<{ scope?: unknown; expiresAt?: unknown }>(token, {
    password: sealPassword(),
    ttl: MAX_SHARE_TTL_DAYS * 24 * 3600,
  }).catch(() => null);
  const parsed = shareScopeSchema.safeParse(data?.scope);
  if (!parsed.success || typeof data?.expiresAt !== "number") return "invalid";
  return data.expiresAt > Date.now() ? { scope: parsed.data, expiresAt: new Date(data.expiresAt) } : "expired";
}
