import { projectInputSchema } from "../../schemas/projects";
import { regressionInboxInputSchema, setRegressionStatusInputSchema } from "../../schemas/regressions";
import { getRegressionInbox, listProjectRegressions, setRegressionStatus } from "../../services/regressions";
import { adminProcedure, createTRPCRouter, readProcedure } from "../trpc";

/** The regressions inbox, as GET /api/v1/projects/:project/regressions and PATCH …/regressions/:id. */
export const regressionRouter = createTRPCRouter({
  /** Regressions and improvements under a status filter, each with its compare and trend links. */
  inbox: readProcedure
    .input(regressionInboxInputSchema)
    .query(({ ctx, input }) => getRegressionInbox(ctx.db, input.project, input.status)),

  /** The newest lasting improvements (at most 50), any status, each with its links: the incidents inbox lists them (they open no incident). */
  improvements: readProcedure
    .input(projectInputSchema)
    .query(async ({ ctx, input }) => (await listProjectRegressions(ctx.db, input.project, { kind: "improvement" }, 50)).regressions),

  /** Acknowledge, dismiss or reopen (admin). */
  setStatus: adminProcedure
    .input(setRegressionStatusInputSchema)
    .mutation(({ ctx, input: { project, id, ...change } }) => setRegressionStatus(ctx.db, project, id, change)),
});
