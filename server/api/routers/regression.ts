import { z } from "zod";
import { projectSlugSchema } from "../../schemas/projects";
import { regressionStatusSchema, updateRegressionSchema } from "../../schemas/regressions";
import { getRegressionInbox, setRegressionStatus } from "../../services/regressions";
import { adminProcedure, createTRPCRouter, publicProcedure } from "../trpc";

/** The regressions inbox, as GET /api/v1/projects/:project/regressions and PATCH …/regressions/:id. */
export const regressionRouter = createTRPCRouter({
  /** Regressions and improvements under a status filter, each with its compare and trend links. */
  inbox: publicProcedure
    .input(z.object({ project: projectSlugSchema, status: z.union([regressionStatusSchema, z.literal("all")]).default("open") }))
    .query(({ ctx, input }) => getRegressionInbox(ctx.db, input.project, input.status)),

  /** Acknowledge, dismiss or reopen (admin). */
  setStatus: adminProcedure
    .input(updateRegressionSchema.extend({ project: projectSlugSchema, id: z.string().min(1).max(200) }))
    .mutation(({ ctx, input: { project, id, ...change } }) => setRegressionStatus(ctx.db, project, id, change)),
});
