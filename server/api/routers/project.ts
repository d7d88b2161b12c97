import { TRPCError } from "@trpc/server";
import { projectInputSchema } from "../../schemas/projects";
import { getProjectOverview } from "../../services/projects";
import { hasOnlyBenchmarks, listProjectCards, requireProject } from "../../services/projects";
import { readableProjectsWhere } from "../../services/access";
import { createTRPCRouter, readProcedure } from "../trpc";

export const projectRouter = createTRPCRouter({
  /**
   * The home page's cards: every project the caller may read (public ones, and the private ones it may), with its run count, last run and aggregate p95 sparkline.
   * `generatedAt` is when they were read, the "now" of their "3 h ago" (identical on server and client).
   */
  list: readProcedure.query(async ({ ctx }) => ({ projects: await listProjectCards(ctx.db, readableProjectsWhere(ctx.principal)), generatedAt: new Date() })),

  /** The project's heading (every project page's layout): name, description, demo flag, default branch. A share link of the project opens it. */
  get: readProcedure
    .meta({ share: "project" })
    .input(projectInputSchema)
    .query(async ({ ctx, input }) => {
      const { id, slug, name, description, isDemo, defaultBranch } = await requireProject(ctx.db, input.project);
      // A project of benchmarks only has no capacity to show: its tab is left out.
      return { slug, name, description, isDemo, defaultBranch, hasOnlyBenchmarks: await hasOnlyBenchmarks(ctx.db, id) };
    }),

  /** The overview page: per-endpoint latest numbers, sparklines and trends, and the recent runs. */
  overview: readProcedure.input(projectInputSchema).query(async ({ ctx, input }) => {
    const overview = await getProjectOverview(ctx.db, input.project);
    if (!overview) throw new TRPCError({ code: "NOT_FOUND", message: `Project "${input.project}" not found` });
    return overview;
  }),
});
