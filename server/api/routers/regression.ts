import { regressionInboxInputSchema, setRegressionStatusInputSchema } from "../../schemas/regressions";
import { getRegressionInbox, setRegressionStatus } from "../../services/regressions";
import { adminProcedure, createTRPCRouter, readProcedure } from "../trpc";

/** The regressions inbox, as GET /api/v1/projects/:project/regressions and PATCH …/regressions/:id. */
export const regressionRouter = createTRPCRouter({
  /** Regressions and improvements under a status filter, each with its compare and trend links. */
  inbox: readProcedure
    .input(regressionInboxInputSchema)
    .query(({ ctx, input }) => getRegressionInbox(ctx.db, input.project, input.status)),

  /** Acknowledge, dismiss or reopen (admin). */
  setStatus: adminProcedure
    .input(setRegressionStatusInputSchema)
    .mutation(({ ctx, input: { project, id, ...change } }) => setRegressionStatus(ctx.db, project, id, change)),
});
