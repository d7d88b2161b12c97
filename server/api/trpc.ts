import { initTRPC } from "@trpc/server";
import superjson from "superjson";
import { getDb } from "../db";
import type { PrismaClient } from "../generated/prisma/client";
import type { Credentials, ReadTarget } from "../services/auth";
import { isPrivate, requireAdmin, requireReadAccess, resolvePrincipalLimited } from "../services/auth";
import { SESSION_COOKIE, SHARE_HEADER } from "../domain/share";
import { textProblems } from "../domain/parsers/validate";
import { ServiceError, toServiceError } from "../services/errors";
import { clientAddressOf } from "../services/rate-limits";
import { toTRPCError } from "./errors";

/**
 * What every procedure receives: the database and the caller's credentials — the Authorization header
 * (the dashboard sends the admin token there once it is entered), the session cookie a sign-in left,
 * and a share link's token (the page forwards `?share=` in a header). They become a principal by the
 * same rules as the REST API (server/services/auth.ts).
 */
export interface TRPCContext extends Credentials {
  db: PrismaClient;
  /** The client's address, for the failed-authentication limit (null: an in-process call, not limited). */
  clientAddress?: string | null;
}

/** The value of one cookie of a Cookie header. */
function cookieOf(header: string | null, name: string): string | null {
  const match = header?.split(";").find((part) => part.trim().startsWith(`${name}=`));
  if (!match) return null;
  const raw = match.slice(match.indexOf("=") + 1).trim();
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export async function createTRPCContext(options: { headers: Headers }): Promise<TRPCContext> {
  return {
    db: await getDb(),
    authorization: options.headers.get("authorization"),
    session: cookieOf(options.headers.get("cookie"), SESSION_COOKIE),
    share: options.headers.get(SHARE_HEADER),
    clientAddress: clientAddressOf(options.headers),
  };
}

const t = initTRPC.context<TRPCContext>().create({
  // Dates and other non-JSON values survive the trip to the browser.
  transformer: superjson,
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

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * What a read asks for, from the procedure and its input, so that a share link opens its one comparison
 * or run (and its project's name for the page header) and nothing else.
 */
function readTargetOf(path: string, input: unknown): ReadTarget {
  const field = (key: string) => {
    const value = typeof input === "object" && input !== null ? (input as Record<string, unknown>)[key] : undefined;
    return typeof value === "string" ? value : null;
  };
  const project = field("project");
  if (project === null) return { kind: "any" };
  if (path === "project.get") return { kind: "project", project };
  if (path === "compare.get") {
    const [base, head] = [field("base"), field("head")];
    if (base !== null && head !== null) return { kind: "compare", project, base, head, tool: field("tool") };
  }
  if (path === "run.get" && field("id") !== null) return { kind: "run", project, runId: field("id")! };
  return { kind: "any" };
}

/** What anyone may ask, signed in or not, private server or not: what their own session grants. */
export const openProcedure = t.procedure.use(mapErrors);

/**
 * Reads: open unless the server is private (BENCHTRACK_READ_TOKEN); then a token, a signed-in session,
 * or a share link covering the call (services/auth.ts:requireReadAccess).
 */
export const publicProcedure = t.procedure.use(mapErrors).use(async ({ ctx, path, getRawInput, next }) => {
  if (!isPrivate()) return next();
  const principal = await resolvePrincipalLimited(ctx.db, ctx, ctx.clientAddress ?? null);
  requireReadAccess(principal, readTargetOf(path, await getRawInput()));
  return next({ ctx: { ...ctx, principal } });
});

/** The admin only: the admin token, or a session signed in with it, as for the REST API's admin calls. */
export const adminProcedure = t.procedure.use(mapErrors).use(async ({ ctx, next }) => {
  const principal = await resolvePrincipalLimited(ctx.db, ctx, ctx.clientAddress ?? null);
  requireAdmin(principal);
  return next({ ctx: { ...ctx, principal } });
});
