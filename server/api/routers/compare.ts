import { z } from "zod";
import { MAX_RUNS_PER_SIDE } from "../../domain/compare/selector";
import { SIGNIFICANCE_TESTS } from "../../domain/stats/verdict";
import { compareProjectRuns, getCompareChoices } from "../../services/compare-runs";
import { createTRPCRouter, publicProcedure } from "../trpc";

export const compareGetInputSchema = z.object({
  project: z.string(),
  /** Selectors as typed; compareProjectRuns parses them. */
  base: z.string(),
  head: z.string(),
  last: z.number().int().min(1).max(MAX_RUNS_PER_SIDE).nullable(),
  test: z.enum(SIGNIFICANCE_TESTS),
  /** Only runs of this tool on both sides; null: any. */
  tool: z.string().min(1).max(200).nullable().default(null),
  /** The public base URL the page was served under, for the absolute links (copy link, Markdown). */
  baseUrl: z.string(),
});

export const compareRouter = createTRPCRouter({
  /** The comparison page's data (server/services/compare-runs.ts); NOT_FOUND when a side matches no run, BAD_REQUEST for a bad selector. */
  get: publicProcedure.input(compareGetInputSchema).query(({ ctx, input }) => {
    const { project, baseUrl, ...request } = input;
    return compareProjectRuns(ctx.db, project, request, baseUrl);
  }),

  /** Labels and branches to pick from when no comparison is chosen yet. */
  choices: publicProcedure.input(z.object({ project: z.string() })).query(({ ctx, input }) => getCompareChoices(ctx.db, input.project)),
});
