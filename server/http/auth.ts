import type { PrismaClient } from "../generated/prisma/client";
import { SESSION_COOKIE, SHARE_HEADER, SHARE_PARAM } from "../domain/share";
import type { Credentials, Principal, ReadTarget } from "../services/auth";
import { isPrivate, requireReadAccess, resolvePrincipalLimited } from "../services/auth";
import { clientAddressOf, takeRateLimit } from "../services/rate-limits";

/**
 * The client's address for per-address rate limits: the last X-Forwarded-For hop (the one the nearest
 * proxy saw; Next.js sets it to the socket's address when no proxy did), else "unknown".
 */
export function clientAddress(request: Request): string {
  return clientAddressOf(request.headers);
}

/** Who sent the request, by its bearer token only (writes: CI sends a token, never a cookie). services/auth.ts holds the rules. */
export async function authenticate(request: Request, db: PrismaClient): Promise<Principal> {
  return resolvePrincipalLimited(db, { authorization: request.headers.get("authorization") }, clientAddress(request));
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

/** Everything a request carries that may identify its caller: bearer token, session cookie, share link. */
export function credentialsOf(request: Request): Credentials {
  return {
    authorization: request.headers.get("authorization"),
    session: cookieValue(request.headers.get("cookie"), SESSION_COOKIE),
    share: new URL(request.url).searchParams.get(SHARE_PARAM) ?? request.headers.get(SHARE_HEADER),
  };
}

/**
 * A REST read: counted against the client address's read limit, then refused unless the server's
 * privacy allows it (BENCHTRACK_READ_TOKEN set): a token, a signed-in session, or a share link
 * covering `target`.
 */
export async function requireRead(request: Request, db: PrismaClient, target: ReadTarget = { kind: "any" }): Promise<Principal> {
  const address = clientAddress(request);
  await takeRateLimit(db, "read", [address]);
  // A public server reads for anyone: no token lookup (and no token bookkeeping) on every read.
  if (!isPrivate()) return { kind: "anonymous" };
  const principal = await resolvePrincipalLimited(db, credentialsOf(request), address);
  requireReadAccess(principal, target);
  return principal;
}

/** Counts an upload against its token's and its address's limits (429 over either). */
export async function takeUploadLimit(request: Request, db: PrismaClient, principal: Principal): Promise<void> {
  const token = principal.kind === "project-token" ? `token:${principal.tokenId}` : `principal:${principal.kind}`;
  await takeRateLimit(db, "upload", [token, clientAddress(request)]);
}
