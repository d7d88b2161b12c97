import { z } from "zod";
import { getRunReport } from "../../services/run-report";
import { createTRPCRouter, publicProcedure } from "../trpc";

export const runGetInputSchema = z.object({
  project: z.string().min(1).max(100),
  id: z.string().min(1).max(100),
});

// Procedures for the run history and the run report pages.
export const runRouter = createTRPCRouter({
  /** The run report page's data (server/services/run-report.ts); NOT_FOUND for an unknown project or run. */
  get: publicProcedure.input(runGetInputSchema).query(({ ctx, input }) => getRunReport(ctx.db, input.project, input.id)),
});
