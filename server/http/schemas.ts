import { z } from "zod";

/** Wire schemas of the REST API's own requests (tool formats live with their parsers). */
export const projectSlugSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{0,62}$/, "lower-case letters, digits, '.', '_' and '-', starting with a letter or digit, at most 63")
  .describe('Project slug used in URLs, e.g. "listings".');

export const createProjectSchema = z
  .object({
    slug: projectSlugSchema,
    name: z.string().min(1).max(200).optional().describe("Display name; defaults to the slug."),
    description: z.string().max(2000).optional(),
    defaultBranch: z.string().min(1).max(255).optional().describe('Branch whose history is the baseline; default "main".'),
    repoUrl: z.url().max(1024).optional().describe("Repository URL, used to link commits."),
  })
  .describe("A new project.");

export const createTokenSchema = z
  .object({ name: z.string().min(1).max(200).default("ci").describe("What the token is for, e.g. github-actions.") })
  .describe("A new upload token for the project.");

export const listRunsQuerySchema = z.object({
  label: z.string().max(1024).optional(),
  branch: z.string().max(1024).optional(),
  tool: z.string().max(200).optional(),
  cursor: z.string().max(200).optional().describe("The nextCursor of the previous page."),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export type ListRunsQuery = z.infer<typeof listRunsQuerySchema>;

export function parseProjectSlug(value: string): string {
  return projectSlugSchema.parse(decodeURIComponent(value));
}

export const compareQuerySchema = z.object({
  base: z.string().min(1).max(4000).describe("Run ids (a,b,c) or label:<label>, branch:<branch>, commit:<sha>."),
  head: z.string().min(1).max(4000).describe("Same syntax as base."),
  last: z.coerce.number().int().min(1).max(50).optional().describe("Newest n runs of each selector (default: all, capped at 50)."),
  test: z.enum(["welch", "mann-whitney"]).default("welch").describe("Significance test for groups."),
  format: z.enum(["json", "markdown"]).optional().describe("markdown: the same as Accept: text/markdown."),
});

export const updateProjectSchema = z
  .object({
    name: z.string().min(1).max(200).optional(),
    description: z.string().max(2000).nullable().optional(),
    defaultBranch: z.string().min(1).max(255).optional().describe("Branch whose history is the baseline."),
    repoUrl: z.url().max(1024).nullable().optional().describe("Repository URL, used to link commits."),
    minEffectPct: z.number().min(0).max(1000).optional().describe("Smallest |Δ%| that counts as a change (default 5)."),
    alpha: z.number().gt(0).lt(1).optional().describe("Significance level for verdicts (default 0.05)."),
  })
  .strict()
  .describe("Project settings to change (admin).");
