import { historyListInputSchema } from "../../schemas/history";
import { projectInputSchema } from "../../schemas/projects";
import { requireProject } from "../../services/projects";
import { listRunFilterOptions, listRunHistory } from "../../services/gate";
import { createTRPCRouter, readProcedure } from "../trpc";

// Procedures for the run history page.
export const historyRouter = createTRPCRouter({
  /** One page of runs under the URL's filters, newest first; `nextCursor` fetches the older ones. */
  list: readProcedure.input(historyListInputSchema).query(({ ctx, input }) => listRunHistory(ctx.db, input.project, input)),

  /** The distinct branches, labels and tools of the project, for the filter selects. */
  filterOptions: readProcedure
    .input(projectInputSchema)
    .query(async ({ ctx, input }) => listRunFilterOptions(ctx.db, (await requireProject(ctx.db, input.project)).id)),
});
