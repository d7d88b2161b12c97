import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { projectSlugSchema } from "../../http/schemas";
import { findProject } from "../../services/projects";
import {
  HISTORY_PAGE_SIZE,
  InvalidCursorError,
  historyFiltersSchema,
  listRunFilterOptions,
  listRunHistory,
} from "../../services/run-history";
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
    .query(async ({ ctx, input }) => {
      try {
        const page = await listRunHistory(ctx.db, input.project, input);
        if (!page) throw new TRPCError({ code: "NOT_FOUND", message: `Project "${input.project}" not found` });
        return page;
      } catch (error) {
        if (error instanceof InvalidCursorError) throw new TRPCError({ code: "BAD_REQUEST", message: error.message });
        throw error;
      }
    }),

  /** The distinct branches, labels and tools of the project, for the filter selects. */
  filterOptions: publicProcedure.input(projectInput).query(async ({ ctx, input }) => {
    const project = await findProject(ctx.db, input.project);
    if (!project) throw new TRPCError({ code: "NOT_FOUND", message: `Project "${input.project}" not found` });
    return listRunFilterOptions(ctx.db, project.id);
  }),
});
