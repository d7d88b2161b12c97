import { compareInputSchema } from "../../schemas/compare";
import { projectInputSchema } from "../../schemas/projects";
import { compareProjectRuns, getCompareChoices } from "../../services/compare";
import { createTRPCRouter, readProcedure } from "../trpc";

export const compareRouter = createTRPCRouter({
  /** The comparison page's data (server/services/compare/comparisons.ts); NOT_FOUND when a side matches no run, BAD_REQUEST for a bad selector. A share link of this comparison opens it. */
  get: readProcedure
    .meta({ share: "compare" })
    .input(compareInputSchema)
    // Read through a share link, its links carry the token (Copy link and Copy Markdown open for the reader too).
    .query(({ ctx, input: { project, baseUrl, ...request } }) =>
      compareProjectRuns(ctx.db, project, request, baseUrl, { share: ctx.principal.kind === "share" ? ctx.principal.token : null }),
    ),

  /** Labels and branches to pick from when no comparison is chosen yet. */
  choices: readProcedure.input(projectInputSchema).query(({ ctx, input }) => getCompareChoices(ctx.db, input.project)),
});
