import { z } from "zod";
import { HISTORY_PAGE_SIZE, historyFiltersSchema } from "../../schemas/history";
import { projectSlugSchema } from "../../schemas/projects";
import { requireProject } from "../../services/projects";
import { listRunFilterOptions, listRunHistory } from "../../services/run-history";
import { createTRPCRouter, publicProcedure } from "../trpc";

const projectInput = z.object({ project: projectSlugSchema });

// Procedures for the run history page.
export const historyRouter = createTRPCRouter({
  /** One page of runs under the URL's filters, newest first; `nextCursor` fetches the older ones. */
  list: publicProcedure
    .input(
      projectInput.extend({
        filters: historyFiltersSchema,
        cursor: z.string().max(200).nullish(),
        limit: z.number().int().min(1).max(200).default(HISTORY_PAGE_SIZE),
      }),
    )
    .query(({ ctx, input }) => listRunHistory(ctx.db, input.project, input)),

  /** The distinct branches, labels and tools of the project, for the filter selects. */
  filterOptions: publicProcedure
    .input(projectInput)
    .query(async ({ ctx, input }) => listRunFilterOptions(ctx.db, (await requireProject(ctx.db, input.project)).id)),
});
