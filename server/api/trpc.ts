import { initTRPC } from "@trpc/server";
import superjson from "superjson";
import { getDb } from "../db";

/** What every procedure receives: the database. Built per request (or per server render). */
export async function createTRPCContext() {
  return { db: await getDb() };
}

export type TRPCContext = Awaited<ReturnType<typeof createTRPCContext>>;

const t = initTRPC.context<TRPCContext>().create({
  // Dates and other non-JSON values survive the trip to the browser.
  transformer: superjson,
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure;
