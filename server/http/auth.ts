import type { PrismaClient } from "../generated/prisma/client";
import { SHARE_PARAM } from "../domain/share";
import type { Credentials, Principal, ReadTarget } from "../services/access";
import { admitRead, credentialsOfHeaders, requireAdmin, requireToken, resolvePrincipalLimited } from "../services/access";
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
 * A REST read: counted against the client address's read limit, then admitted by the visibility of the
 * project it names (`slug`; null: a server-wide read, handed the caller to list what it may read):
 * services/access/project-access.ts:admitRead. A public project reads for anyone, with no token lookup
 * (and no token bookkeeping); a private one needs a caller who may read it, or a share link covering `target`.
 */
async function requireRead(request: Request, db: PrismaClient, slug: string | null, target: ReadTarget): Promise<Principal> {
  const address = clientAddress(request);
  await takeRateLimit(db, "read", [address]);
  const credentials = credentialsOf(request);
  return admitRead(db, slug, target, {
    hasCredentials: Boolean(credentials.authorization || credentials.session || credentials.share),
    resolve: () => resolvePrincipalLimited(db, credentials, address),
  });
}

/**
 * Who may call a REST route, checked before its handler runs (and so before it reads the body):
 * - "read": counted against the read limit, then open on a public project, and on a private one for who
 *   may read it (requireRead); a share link only opens the read its route declares (`share`:
 *   services/access/auth.ts:shareReadTarget).
 * - "write": the caller's bearer token becomes a principal (none: anonymous), and the service the route
 *   calls checks what it may do in the project (requireProjectAccess with the action docs/access.md names).
 *   People write through the dashboard (tRPC, behind its cross-site check): a REST write takes a bearer
 *   token only, never a session cookie, so another site cannot make a browser send one.
 * - "admin": a server admin's token, checked here, for server-wide routes whose services take no principal.
 * - "upload": as "write"; the route's authorizeUpload (services/ingest) then counts the upload against the
 *   limits of the token and of the address (clientAddress) in the statement that reads the project.
 * A write with no token at all ("write", "admin", "upload") is refused (401) before its body is read.
 */
export type RouteAccess = "read" | "write" | "admin" | "upload";

/** The principal of a request under a route's access rule, or the 401/403/429 that refuses it. */
export async function admit(request: Request, db: PrismaClient, access: RouteAccess, slug: string | null = null, target: ReadTarget = { kind: "any" }): Promise<Principal> {
  if (access === "read") return requireRead(request, db, slug, target);
  const principal = await authenticate(request, db);
  // No write takes an anonymous caller: refused here, before the handler reads a byte of the body.
  if (principal.kind === "anonymous") requireToken(access === "upload" ? "Uploading" : "This call");
  if (access === "admin") requireAdmin(principal);
  return principal;
}
