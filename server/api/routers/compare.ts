import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { parseRunSelector } from "../../domain/compare/selector";
import { InputError } from "../../domain/input-error";
import { compareSelections } from "../../services/compare-runs";
import { renderComparisonMarkdown } from "../../services/compare-markdown";
import { findProject } from "../../services/projects";
import { createTRPCRouter, publicProcedure } from "../trpc";

export const compareRouter = createTRPCRouter({
  /** The comparison page's data; `pageUrl` is only used to link from the Markdown. */
  get: publicProcedure
    .input(
      z.object({
        project: z.string(),
        base: z.string(),
        head: z.string(),
        last: z.number().int().min(1).max(50).nullable(),
        test: z.enum(["welch", "mann-whitney"]),
        pageUrl: z.string(),
      }),
    )
    .query(async ({ ctx, input }) => {
      const project = await findProject(ctx.db, input.project);
      if (!project) throw new TRPCError({ code: "NOT_FOUND", message: `Project "${input.project}" not found` });
      let selectors;
      try {
        selectors = { base: parseRunSelector(input.base, "base"), head: parseRunSelector(input.head, "head") };
      } catch (error) {
        if (error instanceof InputError) return { status: "invalid" as const, message: error.message };
        throw error;
      }
      const result = await compareSelections(ctx.db, project, { ...selectors, last: input.last, test: input.test });
      const missing = (["base", "head"] as const).filter((side) => result[side].runs.length === 0);
      if (missing.length > 0) {
        return { status: "empty" as const, message: `No runs match the ${missing.join(" and ")} selector.`, result };
      }
      return { status: "ok" as const, result, markdown: renderComparisonMarkdown(result, input.pageUrl) };
    }),

  /** Labels and branches to pick from when no comparison is chosen yet. */
  choices: publicProcedure.input(z.object({ project: z.string() })).query(async ({ ctx, input }) => {
    const project = await findProject(ctx.db, input.project);
    if (!project) throw new TRPCError({ code: "NOT_FOUND", message: `Project "${input.project}" not found` });
    const [labels, branches] = await Promise.all([
      ctx.db.run.groupBy({ by: ["label"], where: { projectId: project.id, label: { not: null } }, _count: true, orderBy: { label: "asc" } }),
      ctx.db.run.groupBy({ by: ["gitBranch"], where: { projectId: project.id, gitBranch: { not: null } }, _count: true, orderBy: { gitBranch: "asc" } }),
    ]);
    return {
      labels: labels.map((row) => ({ value: row.label!, runs: row._count })),
      branches: branches.map((row) => ({ value: row.gitBranch!, runs: row._count })),
    };
  }),
});
