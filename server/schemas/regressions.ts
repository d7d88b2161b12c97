import { z } from "zod";

/** Wire schemas of the regressions inbox: filters and status changes. */

/** How many improvements the incidents inbox lists, newest first. */
export const IMPROVEMENTS_LISTED = 50;
export const regressionStatusSchema = z.enum(["open", "acknowledged", "dismissed"]);
export const regressionsQuerySchema = z.object({
  status: regressionStatusSchema.optional().describe("Only regressions with this status."),
  kind: z.enum(["regression", "improvement"]).optional().describe("Only regressions, or only improvements."),
});
export const updateRegressionSchema = z
  .object({ status: regressionStatusSchema, by: z.string().min(1).max(200).optional().describe("Who changed it (free text).") })
  .describe("A regression's new status.");

// ---- Answers ----

export const regressionSchema = z
  .object({
    id: z.string(),
    kind: z.enum(["regression", "improvement"]),
    endpoint: z.string().nullable().describe("The endpoint; null for the run aggregate (all endpoints)."),
    metric: z.string().describe('"p95", "mean", "throughput", "errorRate", "metrics.<key>"…'),
    firstRunId: z.string().describe("The first run after the change point."),
    before: z.number().describe("Mean before the change (ms for latency, req/s, 0..1 for errorRate)."),
    after: z.number().describe("Mean from the first changed run on."),
    deltaPct: z.number().describe("100 · (after − before) / before."),
    pValue: z.number().nullable(),
    status: regressionStatusSchema,
    statusChangedAt: z.iso.datetime().nullable(),
    statusChangedBy: z.string().nullable(),
    createdAt: z.iso.datetime(),
    firstRun: z.object({
      label: z.string().nullable(),
      round: z.number().int().nullable(),
      startedAt: z.iso.datetime(),
      gitCommit: z.string().nullable(),
      gitBranch: z.string().nullable(),
    }),
    compareUrl: z.url().nullable().describe("The runs before the change vs the runs from it on; null without both."),
    trendUrl: z.url().describe("The endpoint's trend page, the change point marked."),
  })
  .describe("A detected change in an endpoint's history on the default branch.");

export const regressionListSchema = z.array(regressionSchema).describe("Newest first.");
