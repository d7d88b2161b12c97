import { z } from "zod";
import { PROJECT_VISIBILITIES } from "../domain/access/roles";
import { AUTO_GATE_METRIC } from "../domain/compare/gate-metric";

/** Wire schemas of projects: the slug in every URL, creating and changing a project. */
export const projectSlugSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{0,62}$/, "lower-case letters, digits, '.', '_' and '-', starting with a letter or digit, at most 63")
  .describe('Project slug used in URLs, e.g. "listings".');

export function parseProjectSlug(value: string): string {
  return projectSlugSchema.parse(decodeURIComponent(value));
}

export const createProjectSchema = z
  .object({
    slug: projectSlugSchema,
    name: z.string().min(1).max(200).optional().describe("Display name; defaults to the slug."),
    description: z.string().max(2000).optional(),
    defaultBranch: z.string().min(1).max(255).optional().describe('Branch whose history is the baseline; default "main".'),
    repoUrl: z.url().max(1024).optional().describe("Repository URL, used to link commits."),
  })
  .describe("A new project.");

/** "auto" or a metric the gate can judge: a latency percentile, the mean, or a custom metric. */
export const gateMetricSchema = z
  .string()
  .max(200)
  .refine((name) => name === AUTO_GATE_METRIC || /^p\d+(\.\d+)?$/.test(name) || ["mean", "min", "max"].includes(name) || /^metrics\.[^\s]+$/.test(name), {
    message: 'use "auto", a percentile ("p95", "p99.9"), "mean", or a custom metric ("metrics.<key>")',
  })
  .describe('The metric each endpoint is gated on: "auto" (default: p95, else the highest tail percentile the runs support), "p99", "mean", "metrics.<key>"…');

/** The gate's minimum effect, one rule for the settings and a budget file (schemas/budget.ts). */
export const minEffectPctSchema = z.number().min(0).max(1000).describe("Smallest |Δ%| that counts as a change (default 5).");

/** The gate's family-wise level, one rule for the settings and a budget file. */
export const alphaSchema = z
  .number()
  .gt(0)
  .lt(1)
  .describe("Family-wise level of the one-sided tests: the CI gate fails an unchanged run at most this often (default 0.01).");

/** Run retention by age (docs/operations.md, "Deleting and retention"). */
export const runRetentionDaysSchema = z
  .number()
  .int()
  .min(1)
  .max(36_500)
  .describe("Runs older than this many days are deleted nightly, except the protected ones (docs/operations.md). Null: no age rule.");

/** Run retention by count: the newest this many runs of each series are kept. */
export const runRetentionKeepRunsSchema = z
  .number()
  .int()
  .min(1)
  .max(1_000_000)
  .describe("Each series (tool, label, branch, testbed) keeps its newest this many runs; older ones are deleted nightly, except the protected ones. Null: no count rule.");

export const updateProjectSchema = z
  .object({
    name: z.string().min(1).max(200).optional(),
    description: z.string().max(2000).nullable().optional(),
    defaultBranch: z.string().min(1).max(255).optional().describe("Branch whose history is the baseline."),
    repoUrl: z.url().max(1024).nullable().optional().describe("Repository URL, used to link commits."),
    minEffectPct: minEffectPctSchema.optional(),
    alpha: alphaSchema.optional(),
    gateMetric: gateMetricSchema.optional(),
    rawRetentionDays: z
      .number()
      .int()
      .min(1)
      .max(36_500)
      .nullable()
      .optional()
      .describe("Raw uploads older than this many days are dropped nightly (never a pinned baseline's; summaries stay). Null keeps them all."),
    retentionDays: runRetentionDaysSchema.nullable().optional(),
    retentionKeepRuns: runRetentionKeepRunsSchema.nullable().optional(),
    visibility: z
      .enum(PROJECT_VISIBILITIES)
      .nullable()
      .optional()
      .describe('Who may read the project: "public" (anyone), "private" (its members, the read token, its tokens with the read scope, share links), null for the server\'s default (docs/access.md).'),
  })
  .strict()
  .describe("Project settings to change (admin).");


// ---- Answers ----

export const projectSettingsSchema = z
  .object({
    slug: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    defaultBranch: z.string(),
    repoUrl: z.string().nullable(),
    minEffectPct: z.number(),
    alpha: z.number(),
    gateMetric: z.string(),
    rawRetentionDays: z.number().int().nullable().describe("Raw uploads older than this many days are dropped; null keeps them all."),
    retentionDays: z.number().int().nullable().describe("Runs older than this many days are deleted nightly (protected runs excepted); null: no age rule."),
    retentionKeepRuns: z.number().int().nullable().describe("Each series keeps its newest this many runs (protected runs excepted); null: no count rule."),
    visibility: z.enum(PROJECT_VISIBILITIES).nullable().describe("As set: null is the server's default."),
    effectiveVisibility: z.enum(PROJECT_VISIBILITIES).describe("What applies now: the project's own, else the server's default (private when BENCHTRACK_READ_TOKEN is set)."),
    isDemo: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .describe("A project and its settings.");

export const createdProjectSchema = z
  .object({
    slug: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    defaultBranch: z.string(),
  })
  .describe("The project just created.");

export const projectListSchema = z
  .object({
    projects: z.array(
      z.object({
        slug: z.string(),
        name: z.string(),
        description: z.string().nullable(),
        runCount: z.number().int(),
        createdAt: z.iso.datetime(),
      }),
    ),
  })
  .describe("Every project, most recently active first.");

// ---- Dashboard (tRPC) inputs: the resource's fields plus the project it lives in ----

/** The input of every procedure that reads or changes one project as a whole. */
export const projectInputSchema = z.object({ project: projectSlugSchema });

export const updateProjectInputSchema = updateProjectSchema.extend({ project: projectSlugSchema });
