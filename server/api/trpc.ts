import { initTRPC } from "@trpc/server";
import { describeCrossSiteRequest } from "../cross-site";
import type { ReadDb } from "../db";
import { databaseOf, getDb } from "../db";
import type { PrismaClient } from "../generated/prisma/client";
import { publicBaseUrl } from "../public-url";
import type { Credentials, ReadCaller, ShareRead } from "../services/access";
import { admitRead, credentialsOfHeaders, requireAdmin, resolvePrincipalLimited, shareReadTarget } from "../services/access";
import { textProblems } from "../domain/parsers/validate";
import { ServiceError, noteCaller, toServiceError } from "../services/platform";
import { clientAddressOf } from "../services/platform";
import { chooseReader, currentWalPosition, shouldRetryOnPrimary, walPositionHeaders, walPositionOf } from "../services/platform";
import { toTRPCError } from "./errors";
import { wireTransformer } from "./wire-json";

/**
 * What every procedure receives: the database (the primary: read procedures are handed a reader in its
 * place, services/platform/read-replicas.ts) and the caller's credentials — the Authorization header
 * (the dashboard sends the admin token there once it is entered), the session cookie a sign-in left,
 * and a share link's token (the page forwards `?share=` in a header). They become a principal by the
 * same rules as the REST API (server/services/access/auth.ts).
 */
export interface TRPCContext extends Credentials {
  db: PrismaClient;
  /** The client's address, for the failed-authentication limit (null: an in-process call, not limited). */
  clientAddress?: string | null;
  /** The public base URL links in messages point to (incident notifications); absent in in-process calls. */
  baseUrl?: string;
  /** The primary's WAL position the caller's last write left (a cookie or header): its reads must see it. */
  walPosition?: string | null;
  /** The HTTP answer's headers, where a mutation hands its WAL position back; absent in in-process calls. */
  resHeaders?: Headers;
  /** The request's headers, for the cross-site check every mutation makes (Origin, Sec-Fetch-Site, Host). */
  requestHeaders?: Headers;
}

export async function createTRPCContext(options: { headers: Headers; resHeaders?: Headers }): Promise<TRPCContext> {
  return {
    db: await getDb(),
    ...credentialsOfHeaders(options.headers),
    clientAddress: clientAddressOf(options.headers),
    baseUrl: publicBaseUrl(options.headers),
    walPosition: walPositionOf(options.headers),
    resHeaders: options.resHeaders,
    requestHeaders: options.headers,
  };
}

/** What a procedure declares beside its input: the one read a share link may open through it, if any. */
export interface ProcedureMeta {
  /** A share link opens this read when its scope covers the target named by the input's fields (services/access/auth.ts:shareReadTarget). */
  share?: ShareRead;
}

const t = initTRPC.context<TRPCContext>().meta<ProcedureMeta>().create({
  // Dates and other non-JSON values survive the trip to the browser (superjson, wire-json.ts).
  transformer: wireTransformer,
  // The service's error code and the path at fault travel with every error, as in the REST envelope.
  errorFormatter({ shape, error }) {
    const serviceError = error.cause === undefined ? null : toServiceError(error.cause);
    return {
      ...shape,
      data: { ...shape.data, stack: undefined, serviceCode: serviceError?.code ?? null, details: serviceError?.details ?? [] },
    };
  },
});

/**
 * Every error leaves as a mapped TRPCError: service codes become tRPC codes, internals stay hidden.
 * Input text the database could never hold (NUL, lone surrogates) is refused first, with its path.
 */
const mapErrors = t.middleware(async ({ next, getRawInput }) => {
  const problems = [...textProblems(await getRawInput(), "input")].slice(0, 20);
  if (problems.length > 0) {
    throw toTRPCError(new ServiceError("bad_request", `Invalid text at ${problems[0]!.path}: ${problems[0]!.message}`, problems));
  }
  const result = await next();
  if (!result.ok) throw toTRPCError(result.error);
  return result;
});

/**
 * A mutation another site sent is refused (FORBIDDEN) before its caller is even looked at: the browser
 * would have sent the session cookie along (cross-site request forgery). The rule, and what a request with
 * no Origin or Sec-Fetch-Site (curl, an in-process call) may do, is server/cross-site.ts's. Queries are
 * not checked: another site cannot read their answers (no CORS), and a page's in-process reads carry the
 * headers of a navigation that may well come from a link on another site. The REST API needs no such
 * check: its writes take a bearer token only, never a cookie.
 */
const refuseCrossSiteMutations = t.middleware(({ ctx, type, next }) => {
  if (type === "mutation" && ctx.requestHeaders) {
    const crossSite = describeCrossSiteRequest(ctx.requestHeaders);
    if (crossSite !== null) throw new ServiceError("forbidden", `${crossSite}: changes are only made from this site's own pages.`);
  }
  return next();
});

/** Every procedure's first steps: errors mapped, and mutations sent by another site refused. */
const baseProcedure = t.procedure.use(mapErrors).use(refuseCrossSiteMutations);

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

/** What anyone may ask, signed in or not, private project or not: what their own session grants. */
export const openProcedure = baseProcedure;

/**
 * Reads, by the visibility of the project the input names (`project`: services/access/project-access.ts
 * admitRead): a public project reads for anyone, with no token lookup; a private one for whoever may read
 * it (its members, server admins, the admin and read tokens, its own tokens with a reading scope), or a share
 * link covering the read the procedure declares in `.meta({ share })` (services/access/auth.ts:shareReadTarget):
 * without that declaration a share link opens nothing. A read naming no project (the project list) is
 * handed the caller's principal, and lists only what it may read (readableProjectsWhere).
 * The caller is admitted on the primary (failed authentications are counted there); the procedure then
 * gets a reader as `ctx.db` (a ReadDb: it cannot write), a replica when DATABASE_READ_URL names some, and
 * is asked again on the primary when it misses there (services/platform/read-replicas.ts).
 */
export const readProcedure = baseProcedure.use(async ({ ctx, meta, getRawInput, next }) => {
  const input = await getRawInput();
  const field = (name: string) => {
    const value = typeof input === "object" && input !== null ? (input as Record<string, unknown>)[name] : undefined;
    return typeof value === "string" ? value : null;
  };
  const principal = await admitRead(ctx.db, field("project"), shareReadTarget(meta?.share, field), callerOf(ctx));
  const primary = ctx.db;
  const reader = await chooseReader(databaseOf(primary), ctx.walPosition ?? null);
  const readOn = (db: ReadDb) => next({ ctx: { ...ctx, db, principal } });
  const result = await readOn(reader);
  if (result.ok || reader === primary) return result;
  if (result.error.code !== "NOT_FOUND" && !shouldRetryOnPrimary(result.error.cause)) return result;
  return readOn(primary);
});

/** The caller as admitRead asks for it: resolved only when a read needs to know who it is. */
function callerOf(ctx: TRPCContext): ReadCaller {
  return {
    hasCredentials: Boolean(ctx.authorization || ctx.session || ctx.share),
    resolve: async () => {
      const principal = await resolvePrincipalLimited(ctx.db, ctx, ctx.clientAddress ?? null);
      noteCaller(principal, Boolean(ctx.authorization));
      return principal;
    },
  };
}

/**
 * A mutation's answer carries the primary's WAL position it left, so the browser's next reads (on a
 * replica) see the change (services/platform/read-replicas.ts).
 */
const handBackWalPosition = t.middleware(async ({ ctx, type, next }) => {
  const result = await next();
  if (result.ok && type === "mutation" && ctx.resHeaders) {
    const position = await currentWalPosition(databaseOf(ctx.db));
    if (position !== null) for (const [name, value] of Object.entries(walPositionHeaders(position))) ctx.resHeaders.append(name, value);
  }
  return result;
});

/** Every call that needs its caller known (access.mine): the principal, from its token or session. On the primary. */
export const callerProcedure = baseProcedure.use(handBackWalPosition).use(async ({ ctx, next }) => {
  const principal = await callerOf(ctx).resolve();
  return next({ ctx: { ...ctx, principal } });
});

/**
 * Calls over one project whose service checks what the caller may do there (requireProjectAccess with
 * the action of docs/access.md: mark, triage, share, manage…), as the REST API's "write" routes: writes,
 * and the reads of a project only its maintainers see (tokens, webhook, audit, job activity).
 */
export const writeProcedure = callerProcedure;

/** Server-wide acts, a server admin's alone (the admin token, a session signed in with it, a person made server admin). */
export const adminProcedure = callerProcedure.use(async ({ ctx, next }) => {
  requireAdmin(ctx.principal);
  return next();
});
