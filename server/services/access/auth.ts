import { createHash, timingSafeEqual } from "node:crypto";
import { getEnv } from "../../env";
import type { PrismaClient } from "../../generated/prisma/client";
import { SESSION_COOKIE, SHARE_HEADER } from "../../domain/share";
import { ServiceError } from "../platform";
import { authFailureLimit, checkAuthFailures, recordAuthFailure } from "../platform";
import type { ShareRefusal } from "./share-grants";
import { readShareLink } from "./share-grants";
import type { ShareScope } from "../../domain/share";
import { sessionOf } from "./sessions";
import { findAndTouchActiveToken } from "./tokens";

/**
 * Who is calling: the rules both transports apply (REST and tRPC read the same credentials from their
 * requests). The admin token comes from the environment and may do everything; what anyone else may do in
 * a project — a person by their role, a project token by its scopes, the read token, a share link — is
 * project-access.ts's to decide, by the project's visibility (docs/access.md).
 */
export type Principal =
  /** The admin token; `viaSession`: a browser session signed in with it (audit entries say which). */
  | { kind: "admin"; viaSession?: true }
  /** A project token: what it may do on its own project is its scopes' (server/domain/access/roles.ts). */
  | { kind: "project-token"; tokenId: string; projectId: string; name: string; scopes: string[] }
  /** A person signed in with the identity provider (a session); their roles are read per project (project-access.ts). */
  | { kind: "user"; user: SignedInUser }
  /** The read token, or a browser signed in with it: reads everything, writes nothing. */
  | { kind: "reader" }
  /** A share link: reads one comparison or one run, nothing else. `token`: as links carry it (share-grants.ts). */
  | { kind: "share"; scope: ShareScope; token: string }
  /** No credential; `refusedShare`: a share link was sent that opens nothing (so a refusal can say why). */
  | { kind: "anonymous"; refusedShare?: ShareRefusal; refusedSession?: "removed" };

/** A signed-in person, as their users row says on this request. */
export interface SignedInUser {
  id: string;
  email: string | null;
  name: string | null;
  groups: string[];
  serverAdmin: boolean;
}

/** What a request carries that may identify its caller; each transport reads these from its own request. */
export interface Credentials {
  /** The Authorization header. */
  authorization?: string | null;
  /** The session cookie's value (sessions.ts). */
  session?: string | null;
  /** A share link's token: a stored link's id, or a sealed token minted before (share-grants.ts). */
  share?: string | null;
}

/** The value of one cookie of a Cookie header, or null. */
function cookieValue(cookieHeader: string | null, name: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const separator = part.indexOf("=");
    if (separator === -1) continue;
    if (part.slice(0, separator).trim() !== name) continue;
    const raw = part.slice(separator + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return null;
}

/**
 * The credentials a request's headers carry, read the same way by both transports: the Authorization
 * header, the session cookie, and a share link's token in the header the dashboard forwards it in (a
 * REST request may also carry it as `?share=`: server/http/auth.ts).
 */
export function credentialsOfHeaders(headers: Headers): Credentials {
  return {
    authorization: headers.get("authorization"),
    session: cookieValue(headers.get("cookie"), SESSION_COOKIE),
    share: headers.get(SHARE_HEADER),
  };
}

/**
 * Who is calling, from every credential a request may carry, strongest first: a bearer token (admin,
 * read or project; an unknown one is refused), then a signed-in session, then a share link. Forged or
 * expired sessions and share links count as none.
 */
async function resolvePrincipal(db: PrismaClient, credentials: Credentials, limitedAddress: string | null = null): Promise<Principal> {
  // The failed-authentication limit (limitedAddress: the caller's, when limited) is checked before any
  // token is: with the token's lookup in one statement (authenticateToken), on its own otherwise.
  const checkFailures = async () => {
    if (limitedAddress !== null) await checkAuthFailures(db, limitedAddress);
  };
  let token: string | null;
  try {
    token = bearerTokenOf(credentials.authorization ?? null);
  } catch (error) {
    await checkFailures();
    throw error;
  }
  if (token !== null) {
    const readToken = getEnv().BENCHTRACK_READ_TOKEN;
    if (readToken && sameSecret(token, readToken)) {
      await checkFailures();
      return { kind: "reader" };
    }
    return authenticateToken(db, token, limitedAddress);
  }
  const session = await sessionOf(credentials.session);
  if (session?.role === "admin") return { kind: "admin", viaSession: true };
  if (session?.role === "read") return { kind: "reader" };
  if (session?.role === "user") {
    const user = await signedInUserOf(db, session.userId);
    // Removed by an admin (or gone): the session opens nothing, and the refusal says why.
    return user === null ? { kind: "anonymous", refusedSession: "removed" } : { kind: "user", user };
  }
  if (credentials.share === null || credentials.share === undefined || credentials.share === "") return { kind: "anonymous" };
  const link = await readShareLink(db, credentials.share);
  if (link.status === "open") return { kind: "share", scope: link.scope, token: link.token };
  return { kind: "anonymous", refusedShare: link.status };
}

/** A person's session's user as it stands now: null when gone or disabled by an admin (the session opens nothing). */
export async function signedInUserOf(db: PrismaClient, userId: string): Promise<SignedInUser | null> {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { id: true, email: true, name: true, groups: true, serverAdmin: true, disabledAt: true },
  });
  if (user === null || user.disabledAt !== null) return null;
  return { id: user.id, email: user.email, name: user.name, groups: user.groups, serverAdmin: user.serverAdmin };
}

// What a share link opens is pure and decided in server/domain/share.ts (the dashboard asks it too, to
// keep a shared page's links inside the link); re-exported here as part of access's face.
export { readTargetOfPage, shareCovers, shareReadTarget } from "../../domain/share";
export type { ReadTarget, ShareRead } from "../../domain/share";

/**
 * Whether the server's default is private (BENCHTRACK_READ_TOKEN set): then a project with no visibility of
 * its own is private (project-access.ts:effectiveVisibility). Not whether a given project is: ask that.
 */
export function isPrivate(): boolean {
  return Boolean(getEnv().BENCHTRACK_READ_TOKEN);
}

/** Why a share link (`?share=` or the X-Benchtrack-Share header) opened nothing, in the 401's message. */
export const SHARE_REFUSALS: Record<ShareRefusal, string> = {
  expired: "This share link has expired (the ?share= parameter or X-Benchtrack-Share header): ask for a new link, or send Authorization: Bearer <read, admin or project token>",
  revoked: "This share link was revoked (the ?share= parameter or X-Benchtrack-Share header): ask for a new link, or send Authorization: Bearer <read, admin or project token>",
  invalid:
    "This share link is not valid (the ?share= parameter or X-Benchtrack-Share header: a link's id of 22 characters, as its URL carries it): check it was copied whole, ask for a new link, or send Authorization: Bearer <read, admin or project token>",
};

/**
 * Said after a refusal on a server with no admin token, so a 401 is not taken for a mistyped token: the
 * admin token the caller reached for does not exist here. Names the variable and the file `npm start`
 * would keep it in, never a path of this machine.
 */
export function noAdminTokenNote(): string {
  const env = getEnv();
  if (env.BENCHTRACK_ADMIN_TOKEN) return "";
  return env.DATABASE_URL
    ? " This server has no admin token configured: set BENCHTRACK_ADMIN_TOKEN (16 characters or more) in its environment and restart it."
    : " This server has no admin token configured: start it with `npm start`, which makes one (kept in $BENCHTRACK_DATA_DIR/admin-token), or set BENCHTRACK_ADMIN_TOKEN (16 characters or more) in its environment.";
}

/** The token of an `Authorization: Bearer <token>` header (null without a header); any other form is refused. */
function bearerTokenOf(authorization: string | null): string | null {
  if (!authorization) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (match?.[1]) return match[1];
  // "Bearer " and nothing: the shell variable meant to hold the token was empty.
  const message = /^Bearer\s*$/i.test(authorization)
    ? 'The Authorization header holds no token after "Bearer" (was the variable meant to hold it empty in your shell?).'
    : 'The Authorization header must be "Bearer <token>".';
  throw new ServiceError("unauthorized", `${message}${noAdminTokenNote()}`);
}

/** Compares secrets in constant time (hashing first makes the lengths equal). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * The principal a bearer token stands for (null: no token); an unknown, revoked or expired token is
 * refused, an expired one saying so (its secret matched a row: tokens.ts). A
 * project token is looked up and its last use set in one statement, which also checks the
 * failed-authentication limit of `limitedAddress` (null: not limited) first: over it, 429 and nothing
 * looked at.
 */
export async function authenticateToken(db: PrismaClient, token: string | null, limitedAddress: string | null = null): Promise<Principal> {
  if (token === null) return { kind: "anonymous" };
  const adminToken = getEnv().BENCHTRACK_ADMIN_TOKEN;
  if (adminToken && sameSecret(token, adminToken)) {
    if (limitedAddress !== null) await checkAuthFailures(db, limitedAddress);
    return { kind: "admin" };
  }
  const failures = limitedAddress === null ? null : authFailureLimit(limitedAddress);
  const found = await findAndTouchActiveToken(db, token, failures);
  if (found.blocked && failures) throw failures.refusal();
  if (found.token) return { kind: "project-token", tokenId: found.token.id, projectId: found.token.projectId, name: found.token.name, scopes: found.token.scopes };
  if (found.expiredAt) {
    throw new ServiceError(
      "unauthorized",
      `This project token expired on ${found.expiredAt.toISOString()}: ask a maintainer of the project for a new one (Settings → Tokens, or npm run token).`,
    );
  }
  throw new ServiceError("unauthorized", `The token is not valid (unknown or revoked).${noAdminTokenNote()}`);
}

/** Any write: a bearer token first (which one may do what, each service decides). */
export function requireToken(action: string): never {
  throw new ServiceError("unauthorized", `${action} needs a token: Authorization: Bearer <project or admin token>.${noAdminTokenNote()}`);
}

/** The server's admin: the admin token, a session signed in with it, or a person made a server admin. */
export function isServerAdmin(principal: Principal): boolean {
  return principal.kind === "admin" || (principal.kind === "user" && principal.user.serverAdmin);
}

export function requireAdmin(principal: Principal): void {
  if (isServerAdmin(principal)) return;
  if (principal.kind === "user") throw new ServiceError("forbidden", "This needs a server admin; ask one to do it or to make you one");
  if (principal.kind === "anonymous" || principal.kind === "share") {
    throw new ServiceError("unauthorized", `This call needs the admin token: Authorization: Bearer $BENCHTRACK_ADMIN_TOKEN.${noAdminTokenNote()}`);
  }
  throw new ServiceError("forbidden", "This call needs the admin token; a project or read token may not do it");
}

/**
 * Signing a browser in: the token it typed becomes a session role — "admin" for the admin token,
 * "read" for the read token or a project token (which may read). A wrong token is refused.
 */
export async function signInRole(db: PrismaClient, token: string): Promise<"admin" | "read"> {
  const trimmed = token.trim();
  if (trimmed === "" || /\s/.test(trimmed)) throw new ServiceError("unauthorized", "Enter a token");
  const principal = await resolvePrincipal(db, { authorization: `Bearer ${trimmed}` }).catch(() => null);
  if (principal?.kind === "admin") return "admin";
  if (principal?.kind === "reader" || principal?.kind === "project-token") return "read";
  throw new ServiceError("unauthorized", "That token is not valid (unknown or revoked)");
}

const NEXT_PATH_BASE = "http://placeholder.invalid";

/**
 * Where to go after signing in: a path of this site only, as the browser will read it, else "/".
 * A browser resolves the Location header with the WHATWG URL parser, which drops tabs and newlines
 * anywhere, trims leading spaces and controls, and reads a backslash as a slash: `/<TAB>/evil.example`
 * becomes `//evil.example`, another site. So `next` is resolved by that same parser against a
 * placeholder origin and kept only if the origin is unchanged, and anything a parser or a proxy could
 * read differently is refused outright: control characters (C0, DEL; tab, CR and LF included), a
 * backslash, a path that starts (or, decoded once, would start) with `//` or `/\`, malformed or encoded
 * control characters. The answer is the parsed URL's own pathname, query and fragment (percent-encoded,
 * plain ASCII), so what the Location header carries is exactly what was checked.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || !next.startsWith("/") || next.startsWith("//")) return "/";
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\u0000-\u001f\u007f\\]/.test(next)) return "/";
  let url: URL;
  try {
    url = new URL(next, NEXT_PATH_BASE);
  } catch {
    return "/";
  }
  if (url.origin !== NEXT_PATH_BASE || url.username !== "" || url.password !== "") return "/";
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments can leave an empty first segment: `/.//evil` parses to the path `//evil`.
  if (!path.startsWith("/") || path.startsWith("//")) return "/";
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return "/";
  }
  // eslint-disable-next-line no-control-regex -- encoded control characters (%0D%0A) are refused too
  if (/^\/[\\/]/.test(decoded) || /[\u0000-\u001f\u007f]/.test(decoded)) return "/";
  // The answer must stand on its own: read again, it names the same page of the same origin.
  const again = new URL(path, NEXT_PATH_BASE);
  return again.origin === NEXT_PATH_BASE && `${again.pathname}${again.search}${again.hash}` === path ? path : "/";
}

/**
 * resolvePrincipal behind the failed-authentication limit (rate-limits.ts): a client address that sent
 * too many wrong tokens this minute is refused (429) before its token is even looked at, and each wrong
 * token counts. `address` null (an in-process call) is not limited.
 */
export async function resolvePrincipalLimited(db: PrismaClient, credentials: Credentials, address: string | null): Promise<Principal> {
  const sendsToken = Boolean(credentials.authorization);
  try {
    return await resolvePrincipal(db, credentials, sendsToken ? address : null);
  } catch (error) {
    if (address !== null && error instanceof ServiceError && error.code === "unauthorized") await recordAuthFailure(db, address);
    throw error;
  }
}

/**
 * Who may read GET /metrics: the admin token or BENCHTRACK_METRICS_TOKEN as a bearer token (no session,
 * no project token: the metrics name every project's routes and queues). Null for anyone else. No database.
 */
export function metricsReaderOf(authorization: string | null): "admin" | "metrics-token" | null {
  let token: string | null;
  try {
    token = bearerTokenOf(authorization);
  } catch {
    return null;
  }
  if (token === null) return null;
  const { BENCHTRACK_ADMIN_TOKEN: adminToken, BENCHTRACK_METRICS_TOKEN: metricsToken } = getEnv();
  if (adminToken && sameSecret(token, adminToken)) return "admin";
  if (metricsToken && sameSecret(token, metricsToken)) return "metrics-token";
  return null;
}
