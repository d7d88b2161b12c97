import { runReportInputSchema } from "../../schemas/runs";
import { getRunReport } from "../../services/gate";
import { createTRPCRouter, readProcedure } from "../trpc";

// Procedures for the run history and the run report pages.
export const runRouter = createTRPCRouter({
  /** The run report page's data (server/services/gate/run-page.ts); NOT_FOUND for an unknown project or run. A share link of this run opens it. */
  get: readProcedure
    .meta({ share: "run" })
    .input(runReportInputSchema)
    // Read through a share link, its Copy link and Copy Markdown carry the token.
    .query(({ ctx, input }) => getRunReport(ctx.db, input.project, input.id, input.baseUrl, { share: ctx.principal.kind === "share" ? ctx.principal.token : null })),
});
