import { z } from "zod";
import { publicBaseUrl } from "../../public-url";
import { projectSlugSchema } from "../../schemas/projects";
import { runReportInputSchema } from "../../schemas/runs";
import { deleteRun } from "../../services/deletion";
import { getRunReport } from "../../services/gate";
import { createTRPCRouter, readProcedure, writeProcedure } from "../trpc";

// Procedures for the run history and the run report pages.
export const runRouter = createTRPCRouter({
  /** The run report page's data (server/services/gate/run-page.ts); NOT_FOUND for an unknown project or run. A share link of this run opens it. */
  get: readProcedure
    .meta({ share: "run" })
    .input(runReportInputSchema)
    // Read through a share link, its Copy link and Copy Markdown carry the token.
    .query(({ ctx, input }) => getRunReport(ctx.db, input.project, input.id, input.baseUrl, { share: ctx.principal.kind === "share" ? ctx.principal.token : null })),

  /** Deletes the run and what rests on it (its maintainers), as DELETE /api/v1/projects/:project/runs/:id. */
  delete: writeProcedure
    .input(z.object({ project: projectSlugSchema, id: z.string().min(1).max(100) }))
    .mutation(({ ctx, input }) =>
      deleteRun(ctx.db, ctx.principal, input.project, input.id, { viaSession: !ctx.authorization, baseUrl: ctx.baseUrl ?? publicBaseUrl(new Headers()) }),
    ),
});
