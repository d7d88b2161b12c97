import type { PrismaClient } from "../generated/prisma/client";
import type { Credentials, Principal, ReadTarget } from "../services/auth";
import { authenticateToken, bearerTokenOf, requireReadAccess, resolvePrincipal } from "../services/auth";
import { SESSION_COOKIE, SHARE_HEADER, SHARE_PARAM } from "../domain/share";

/** Who sent the request, by its bearer token only (writes: CI sends a token, never a cookie). services/auth.ts holds the rules. */
export async function authenticate(request: Request, db: PrismaClient): Promise<Principal> {
  return authenticateToken(db, bearerTokenOf(request.headers.get("authorization")));
}

/** The value of one cookie of a Cookie header, or null. */
export function cookieValue(cookieHeader: string | null, name: string): string | null {
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
 * Refuses a read the server's privacy does not allow (BENCHTRACK_READ_TOKEN set): the caller needs a
 * token, a signed-in session, or a share link covering `target`.
 */
export async function requireRead(request: Request, db: PrismaClient, target: ReadTarget = { kind: "any" }): Promise<Principal> {
  const principal = await resolvePrincipal(db, credentialsOf(request));
  requireReadAccess(principal, target);
  return principal;
}
