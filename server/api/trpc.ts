import { initTRPC } from "@trpc/server";
import superjson from "superjson";
import { getDb } from "../db";
import type { PrismaClient } from "../generated/prisma/client";
import { authenticateToken, bearerTokenOf, requireAdmin } from "../services/auth";
import { toServiceError } from "../services/errors";
import { toTRPCError } from "./errors";

/**
 * What every procedure receives: the database and the caller's bearer token, from the request's
 * Authorization header (the dashboard sends the admin token there once it is entered; a server render
 * has none). The token is turned into a principal by the same rules as the REST API
 * (server/services/auth.ts), only where a procedure needs one, so reads never wait on it.
 */
export interface TRPCContext {
  db: PrismaClient;
  /** The Authorization header, when the call came with one. */
  authorization?: string | null;
}

export async function createTRPCContext(options: { headers: Headers }): Promise<TRPCContext> {
  return { db: await getDb(), authorization: options.headers.get("authorization") };
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

/** Every error leaves as a mapped TRPCError: service codes become tRPC codes, internals stay hidden. */
const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) throw toTRPCError(result.error);
  return result;
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Open to anyone (reads; BENCHTRACK_READ_TOKEN does not gate the dashboard yet). */
export const publicProcedure = t.procedure.use(mapErrors);

/** The admin only: the token must be BENCHTRACK_ADMIN_TOKEN, as for the REST API's admin calls. */
export const adminProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const principal = await authenticateToken(ctx.db, bearerTokenOf(ctx.authorization ?? null));
  requireAdmin(principal);
  return next({ ctx: { ...ctx, principal } });
});
