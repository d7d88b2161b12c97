import { projectInputSchema } from "../../schemas/projects";
import { describeProjectAccess } from "../../services/access";
import { callerProcedure, createTRPCRouter } from "../trpc";

/** What the caller may do, for the dashboard to show only the controls it can use (docs/access.md). */
export const accessRouter = createTRPCRouter({
  /** The caller's actions in a project (read, upload, mark, triage, share, manage), its role there, and the project's visibility. */
  mine: callerProcedure.input(projectInputSchema).query(({ ctx, input }) => describeProjectAccess(ctx.db, ctx.principal, input.project)),
});
