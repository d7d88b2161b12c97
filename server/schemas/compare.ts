import { z } from "zod";
import { COMPARISON_TESTS } from "../domain/compare/comparison";
import { decimalIntegerSchema } from "./integers";
import type { EndpointComparison, MetricComparison } from "../domain/compare/compare-runs";
import type { EnvironmentDiff } from "../domain/compare/environment-diff";
import type { RoundsAdvice } from "../domain/compare/rounds-needed";
import { MAX_RUNS_PER_SIDE } from "../domain/compare/selector";
import { SIGNIFICANCE_TESTS } from "../domain/stats/verdict";
import { projectSlugSchema } from "./projects";

/** Wire schemas of comparisons: the query (base and head selectors) and the answer, tied to the domain types below. */
export const compareQuerySchema = z.object({
  base: z.string().min(1).max(4000).describe("Run ids (a,b,c) or label:<label>, branch:<branch>, commit:<sha>."),
  head: z.string().min(1).max(4000).describe("Same syntax as base."),
  last: decimalIntegerSchema({ min: 1, max: 50 }).optional().describe("Newest n runs of each selector (default: all, capped at 50)."),
  test: z
    .enum(SIGNIFICANCE_TESTS)
    .default("welch")
    .describe('Significance test for groups: "welch" (each side its own variance), "student" (pooled variance: what the CI gate uses for rounds against history), "mann-whitney" (ranks).'),
  tool: z.string().min(1).max(200).optional().describe("Only runs of this tool on both sides (one series: see notComparable)."),
  format: z.enum(["json", "markdown"]).optional().describe("markdown: the same as Accept: text/markdown."),
});

export type CompareQuery = z.infer<typeof compareQuerySchema>;

/** The comparison a query asks for, as the use case takes it (services/compare/comparisons.ts:CompareRequest): absent is null. */
export function compareRequestOf(query: CompareQuery) {
  return { base: query.base, head: query.head, last: query.last ?? null, test: query.test, tool: query.tool ?? null };
}

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
  pValue: z.number().nullable().describe("One-sided, in the direction of the change."),
  adjustedPValue: z
    .number()
    .nullable()
    .describe("pValue corrected (Holm) for its family: the endpoints' gate metrics, or the other metrics; a change counts only when this is below alpha."),
  test: z.enum(COMPARISON_TESTS).nullable(),
  noiseBandPct: z.number().nullable().describe("1 vs 1: the band |Δ%| had to exceed."),
  verdict: verdictSchema,
  reason: z.string(),
  inconclusiveKind: z
    .enum(["too-little-history", "undecided", "too-few-requests", "not-comparable", "no-data"])
    .nullable()
    .describe("Why it is inconclusive, in one word; null otherwise."),
  gate: z.boolean().describe("This is its endpoint's gate metric, the one the CI gate decides on."),
  resolution: z.number().nullable().describe("The step the tool writes this metric in (ms for latency), when it is not exact."),
  standardError: z.number().nullable().describe("Of head − base, after the noise floors (t tests)."),
  degreesOfFreedom: z.number().nullable(),
  detectablePct: z.number().nullable().describe("Gate metrics: the smallest change (% of base) the test would flag 80% of the time at this noise."),
  pooled: z.object({ baseMs: z.number(), headMs: z.number(), deltaPct: z.number().nullable() }).nullable(),
});

const endpointComparisonSchema = z.object({
  name: z.string(),
  protocol: z
    .string()
    .nullable()
    .describe('Its protocol, part of its identity: "http", "grpc", "benchmark" for a microbenchmark (docs/benchmarks.md); the aggregate\'s when the runs share one.'),
  metrics: z.array(metricComparisonSchema),
  verdict: verdictSchema.describe("Its gate metric's verdict (the worst of its metrics when it has none)."),
  gateMetric: z
    .object({ name: z.string(), why: z.string() })
    .nullable()
    .describe("The metric the CI gate judges this endpoint on, and why that one; null for the aggregate of runs that have endpoints."),
});

const commitRefSchema = z.object({ sha: z.string(), url: z.string().nullable().describe("The commit on the repository's host, when the project's repoUrl is set.") });

const environmentSchema = z
  .object({
    same: z.array(z.string()).describe('What both sides share, one phrase each: "tool k6 0.52.0", "host perf-1 (16 CPUs, 32 GB)".'),
    differences: z
      .array(
        z.object({
          field: z.enum(["tool", "protocol", "load", "testbed", "hostSize", "toolVersion", "host", "appVersion", "setting", "attribute"]),
          name: z.string().describe('What differs: "tool version", "vus", "host size", "attribute db".'),
          base: z.array(z.string()).describe("The base runs' distinct values (several when they mix; none when unknown)."),
          head: z.array(z.string()),
          isUnfair: z.boolean().describe("Alone, this difference can move the numbers (tool, protocol, load profile, host size)."),
        }),
      )
      .describe("Only what differs, unfair kinds first."),
    unfair: z.array(z.string()).describe("One sentence per unfair difference, saying what differs; also the first of warnings."),
    commits: z
      .object({
        base: z.array(commitRefSchema),
        head: z.array(commitRefSchema),
        diffUrl: z.string().nullable().describe("The diff base...head (GitHub/GitLab style) when the repository is known and each side is one commit."),
        mixed: z.array(z.enum(["base", "head"])).describe("Sides whose runs come from several commits."),
      })
      .nullable()
      .describe("null when both sides are the same commit(s) or no run names one."),
  })
  .describe("What changed between base and head besides the code (docs/statistics.md, \"What changed\").");

const roundsEstimateSchema = z.union([
  z.object({ status: z.literal("ok"), roundsPerSide: z.number().int() }),
  z.object({ status: z.literal("beyond"), maxRounds: z.number().int().describe("More than this many rounds per side would be needed.") }),
  z.object({ status: z.literal("insufficient"), reason: z.string().describe('Why it cannot tell, e.g. "the noise is unknown".') }),
]);

const metricRoundsSchema = z.object({
  endpoint: z.string(),
  metric: z.string(),
  baseNoisePct: z.number().nullable().describe("Round-to-round noise of the base: sd / mean, in percent."),
  headNoisePct: z.number().nullable(),
  have: z.object({ base: z.number().int(), head: z.number().int() }),
  estimate: roundsEstimateSchema,
});

const roundsSchema = z
  .object({
    minEffectPct: z.number(),
    alpha: z.number(),
    power: z.number(),
    test: z.enum(SIGNIFICANCE_TESTS),
    headline: metricRoundsSchema.describe("The aggregate's p95 when undecided, else the metric needing the most rounds."),
    metrics: z.array(metricRoundsSchema).describe("Every undecided metric, the most rounds first."),
    sentence: z.string().describe("The headline in words, as the page and the Markdown say it."),
  })
  .nullable()
  .describe(
    "On a group comparison that found no change it can stand behind: how many rounds per side would detect the minimum effect at the observed noise, with the same test, α and 80% power. null otherwise.",
  );

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
    options: z.object({ minEffectPct: z.number(), alpha: z.number(), test: z.enum(SIGNIFICANCE_TESTS), gateMetric: z.string() }),
    endpoints: z.array(endpointComparisonSchema),
    aggregate: endpointComparisonSchema,
    warnings: z.array(z.string()).describe("Differences that make base and head not like for like (environment.unfair first)."),
    environment: environmentSchema,
    rounds: roundsSchema,
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
export type EnvironmentShapeMatches = Assert<EnvironmentDiff extends z.infer<typeof environmentSchema> ? true : false>;
export type RoundsShapeMatches = Assert<RoundsAdvice extends NonNullable<z.infer<typeof roundsSchema>> ? true : false>;

// ---- Dashboard (tRPC) inputs ----

/** The comparison page's: the selectors as typed (compareProjectRuns parses them), as compareRequestOf gives them. */
export const compareInputSchema = z.object({
  project: projectSlugSchema,
  base: z.string(),
  head: z.string(),
  last: z.number().int().min(1).max(MAX_RUNS_PER_SIDE).nullable(),
  test: z.enum(SIGNIFICANCE_TESTS),
  /** Only runs of this tool on both sides; null: any. */
  tool: z.string().min(1).max(200).nullable().default(null),
  /** The public base URL the page was served under, for the absolute links (copy link, Markdown). */
  baseUrl: z.string(),
});
