import type { PrismaClient } from "../generated/prisma/client";
import { SHARE_PARAM } from "../domain/share";
import type { Credentials, Principal, ReadTarget } from "../services/access";
import { credentialsOfHeaders, isPrivate, requireAdmin, requireReadAccess, requireToken, resolvePrincipalLimited } from "../services/access";
import { clientAddressOf, takeRateLimit } from "../services/platform";

/**
 * The client's address for per-address rate limits: the last X-Forwarded-For hop (the one the nearest
 * proxy saw; Next.js sets it to the socket's address when no proxy did), else "unknown".
 */
export function clientAddress(request: Request): string {
  return clientAddressOf(request.headers);
}

/** Who sent the request, by its bearer token only (writes: CI sends a token, never a cookie). services/access/auth.ts holds the rules. */
async function authenticate(request: Request, db: PrismaClient): Promise<Principal> {
  return resolvePrincipalLimited(db, { authorization: request.headers.get("authorization") }, clientAddress(request));
}

/** Everything a request carries that may identify its caller: bearer token, session cookie, share link (also as `?share=`). */
function credentialsOf(request: Request): Credentials {
  const credentials = credentialsOfHeaders(request.headers);
  return { ...credentials, share: new URL(request.url).searchParams.get(SHARE_PARAM) ?? credentials.share };
}

/**
 * A REST read: counted against the client address's read limit, then refused unless the server's
 * privacy allows it (BENCHTRACK_READ_TOKEN set): a token, a signed-in session, or a share link
 * covering `target`.
 */
async function requireRead(request: Request, db: PrismaClient, target: ReadTarget = { kind: "any" }): Promise<Principal> {
  const address = clientAddress(request);
  await takeRateLimit(db, "read", [address]);
  // A public server reads for anyone: no token lookup (and no token bookkeeping) on every read.
  if (!isPrivate()) return { kind: "anonymous" };
  const principal = await resolvePrincipalLimited(db, credentialsOf(request), address);
  requireReadAccess(principal, target);
  return principal;
}

/**
 * Who may call a REST route, checked before its handler runs (and so before it reads the body):
 * - "read": counted against the read limit, then open unless the server is private (requireRead); a
 *   share link only opens the read its route declares (`share`: services/access/auth.ts:shareReadTarget).
 * - "write": the caller's bearer token becomes a principal (none: anonymous), and the service the route
 *   calls applies its own rule to it (the admin, or a token of the project): the service takes it.
 * - "admin": the admin token, checked here, for routes whose services take no principal.
 * - "upload": as "write"; the route's authorizeUpload (services/ingest) then counts the upload against the
 *   limits of the token and of the address (clientAddress) in the statement that reads the project.
 * A write with no token at all ("write", "admin", "upload") is refused (401) before its body is read.
 */
export type RouteAccess = "read" | "write" | "admin" | "upload";

/** The principal of a request under a route's access rule, or the 401/403/429 that refuses it. */
export async function admit(request: Request, db: PrismaClient, access: RouteAccess, target: ReadTarget = { kind: "any" }): Promise<Principal> {
  if (access === "read") return requireRead(request, db, target);
  const principal = await authenticate(request, db);
  // No write takes an anonymous caller: refused here, before the handler reads a byte of the body.
  if (principal.kind === "anonymous") requireToken(access === "upload" ? "Uploading" : "This call");
  if (access === "admin") requireAdmin(principal);
  return principal;
}
