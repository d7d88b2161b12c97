import { z } from "zod";
import type { EndpointComparison, MetricComparison } from "../domain/compare/compare-runs";

/** Wire schemas of comparisons: the query (base and head selectors) and the answer, tied to the domain types below. */
export const compareQuerySchema = z.object({
  base: z.string().min(1).max(4000).describe("Run ids (a,b,c) or label:<label>, branch:<branch>, commit:<sha>."),
  head: z.string().min(1).max(4000).describe("Same syntax as base."),
  last: z.coerce.number().int().min(1).max(50).optional().describe("Newest n runs of each selector (default: all, capped at 50)."),
  test: z.enum(["welch", "mann-whitney"]).default("welch").describe("Significance test for groups."),
  tool: z.string().min(1).max(200).optional().describe("Only runs of this tool on both sides (one series: see notComparable)."),
  format: z.enum(["json", "markdown"]).optional().describe("markdown: the same as Accept: text/markdown."),
});

const verdictSchema = z.enum(["regressed", "improved", "unchanged", "inconclusive"]);
const intervalSchema = z.tuple([z.number(), z.number()]).readonly().nullable();

const sideSummarySchema = z.object({
  n: z.number().int().describe("Runs with a value on this side."),
  mean: z.number().nullable(),
  sd: z.number().nullable(),
  ci95: intervalSchema.describe("95% CI of the mean (t distribution)."),
  values: z.array(z.number()).describe("Per-run values, newest run first."),
  runIds: z.array(z.string()),
});

const metricComparisonSchema = z.object({
  metric: z.string().describe('"p50", "p90", "p95", "p99", "mean", "throughput", "errorRate" or "metrics.<key>".'),
  unit: z.string().nullable(),
  better: z.enum(["lower", "higher"]).nullable().describe("Which way is an improvement; null when the tool did not say (no verdict)."),
  aggregation: z.string().describe('How a side\'s value is formed, e.g. "mean of per-run p95 (5 runs)".'),
  base: sideSummarySchema,
  head: sideSummarySchema,
  deltaPct: z.number().nullable().describe("100 · (head − base) / base."),
  deltaPctCi95: intervalSchema.describe("Fieller 95% CI of deltaPct."),
  pValue: z.number().nullable(),
  adjustedPValue: z.number().nullable().describe("pValue corrected for every test of the comparison (Holm); a change counts only when this is below alpha."),
  test: z.enum(["welch", "mann-whitney", "noise-band", "prediction"]).nullable(),
  noiseBandPct: z.number().nullable().describe("1 vs 1: the band |Δ%| had to exceed."),
  verdict: verdictSchema,
  reason: z.string(),
  pooled: z.object({ baseMs: z.number(), headMs: z.number(), deltaPct: z.number().nullable() }).nullable(),
});

const endpointComparisonSchema = z.object({
  name: z.string(),
  metrics: z.array(metricComparisonSchema),
  verdict: verdictSchema,
});

const sideSchema = z.object({
  selector: z.string(),
  runs: z.array(
    z.object({
      id: z.string(),
      url: z.string(),
      label: z.string().nullable(),
      round: z.number().nullable(),
      startedAt: z.string(),
      branch: z.string().nullable(),
      commit: z.string().nullable(),
    }),
  ),
});

export const comparisonResponseSchema = z
  .object({
    url: z.string().describe("The comparison page."),
    base: sideSchema,
    head: sideSchema,
    verdict: verdictSchema,
    counts: z.record(verdictSchema, z.number()).describe("Endpoints per verdict."),
    kind: z.enum(["groups", "group-vs-run", "pairwise", "mixed"]),
    options: z.object({ minEffectPct: z.number(), alpha: z.number(), test: z.enum(["welch", "mann-whitney"]) }),
    endpoints: z.array(endpointComparisonSchema),
    aggregate: endpointComparisonSchema,
    warnings: z.array(z.string()).describe("Differences that make base and head not like for like."),
    notComparable: z
      .string()
      .nullable()
      .describe("Why the sides cannot be compared at all (runs of several tools); every verdict is then inconclusive."),
    tools: z
      .array(z.object({ tool: z.string(), base: z.number().int(), head: z.number().int(), url: z.string().describe("This comparison for this tool only.") }))
      .describe("Tools with runs on both sides: runs per side, and the comparison of that tool alone."),
  })
  .describe("A before/after comparison of two run selections.");

// Compile-time link between the domain result and this schema.
type Assert<T extends true> = T;
export type MetricShapeMatches = Assert<MetricComparison extends z.infer<typeof metricComparisonSchema> ? true : false>;
export type EndpointShapeMatches = Assert<EndpointComparison extends z.infer<typeof endpointComparisonSchema> ? true : false>;
