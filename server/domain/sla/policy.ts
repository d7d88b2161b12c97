/**
 * A project's SLA policy: the targets a run is graded against (see docs/statistics.md "SLA grade" and
 * `grade.ts`). The schema is the stored and public shape, so every field carries `.describe()` for the
 * OpenAPI document. Thresholds are stored as the user wrote them; `canonicalThreshold` converts them to
 * the units of the normalized run (`run.ts`: latency in ms, throughput in req/s, error rate 0..1).
 * What a metric name means (its unit, how it is read) is the metric registry's (`../metrics`).
 */
import { z } from "zod";
import { CUSTOM_METRIC_PREFIX, METRICS, customMetricKey, percentileMetric } from "../metrics";
import type { BuiltInMetricName, MetricDefinition } from "../metrics";

const LATENCY_STATS = ["mean", "min", "max"] as const satisfies readonly BuiltInMetricName[];
const NAMED_METRICS = [...LATENCY_STATS, "errorRate", "throughput"] as const satisfies readonly BuiltInMetricName[];

/**
 * Latency threshold units and their factor to milliseconds. A benchmark's time per operation is its
 * latency (docs/benchmarks.md), so its tools' units ("ns/op", "us/op", "ms/op", "s/op") are accepted too.
 */
export const LATENCY_UNIT_TO_MS = {
  s: 1000,
  ms: 1,
  us: 0.001,
  ns: 0.000_001,
  "s/op": 1000,
  "ms/op": 1,
  "us/op": 0.001,
  "ns/op": 0.000_001,
} as const;
/** Throughput units: requests per second for load tests, operations per second for benchmarks (one number). */
const THROUGHPUT_UNITS: readonly string[] = ["req/s", "ops/s"];
export type LatencyUnit = keyof typeof LATENCY_UNIT_TO_MS;

export const THROUGHPUT_UNIT = METRICS.throughput.unit;

export const slaMetricSchema = z
  .union([
    z.templateLiteral(["p", z.number()]),
    z.enum(NAMED_METRICS),
    z.templateLiteral([CUSTOM_METRIC_PREFIX, z.string().min(1)]),
  ])
  .describe(
    'What to measure: a latency percentile "p<number>" ("p50", "p95", "p99", "p99.9"), ' +
      'latency "mean" | "min" | "max", "errorRate" (failures / requests, 0..1), ' +
      '"throughput" (req/s), or a custom metric "metrics.<key>" (e.g. "metrics.cpu").',
  );

export const slaOperatorSchema = z
  .enum(["<=", "<", ">=", ">"])
  .describe('How the measured value must compare with the threshold, e.g. "<=" for "p95 <= 50 ms".');

export const slaScopeSchema = z
  .union([
    z.enum(["endpoints", "aggregate"]),
    z
      .object({
        match: z
          .string()
          .min(1)
          .describe('Endpoint-name glob: "*" matches any run of characters, "?" exactly one; case-sensitive.'),
      })
      .describe("Only the endpoints whose name matches the glob."),
  ])
  .describe(
    'Which results the target applies to: "endpoints" (each endpoint, the default), "aggregate" ' +
      '(the run\'s all-endpoints result), or { "match": "<glob>" } (endpoints whose name matches).',
  );

export const slaTargetSchema = z
  .object({
    metric: slaMetricSchema,
    op: slaOperatorSchema,
    threshold: z
      .number()
      .finite()
      .describe(
        "The limit, in `unit`. Latency thresholds are converted to milliseconds; errorRate is a " +
          "fraction 0..1 (1% = 0.01); throughput is in req/s.",
      ),
    unit: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Unit of `threshold`. Latency (a benchmark\'s time per operation): "s", "ms" (default), "us" or "ns", ' +
          'or "s/op", "ms/op", "us/op", "ns/op". Throughput: "req/s" (default), or "ops/s" for benchmarks. ' +
          'errorRate: none (always a fraction). Custom metrics: the metric\'s own unit ("%", "MB"); when ' +
          "given, a run reporting the metric in another unit has no data for this target.",
      ),
    scope: slaScopeSchema.default("endpoints"),
    weight: z
      .number()
      .finite()
      .positive()
      .default(1)
      .describe("Relative weight of each of this target's checks in the compliance score (default 1)."),
  })
  .superRefine((target, context) => {
    const problem = findTargetProblem(target.metric, target.threshold, target.unit);
    if (problem) context.addIssue({ code: "custom", path: [problem.path], message: problem.message });
  })
  .describe('One SLA target, e.g. { "metric": "p95", "op": "<=", "threshold": 50, "unit": "ms" }.');

export const slaPolicySchema = z
  .object({
    targets: z
      .array(slaTargetSchema)
      .describe("The targets; an empty list means the project has no SLA and runs are not graded."),
  })
  .describe("A project's SLA policy. Each (target × endpoint in scope) is one pass/fail check.");

export type SlaMetric = z.infer<typeof slaMetricSchema>;
export type SlaOperator = z.infer<typeof slaOperatorSchema>;
/** A validated target, defaults applied. */
export type SlaTarget = z.infer<typeof slaTargetSchema>;
/** A target as a user may write it (scope and weight optional). */
export type SlaTargetInput = z.input<typeof slaTargetSchema>;
export type SlaPolicy = z.infer<typeof slaPolicySchema>;
export type SlaPolicyInput = z.input<typeof slaPolicySchema>;

/** A metric name taken apart, so evaluation switches on a kind instead of re-parsing strings. */
export type MetricRef =
  | { kind: "percentile"; percentile: number }
  | { kind: "latency"; stat: (typeof LATENCY_STATS)[number] }
  | { kind: "errorRate" }
  | { kind: "throughput" }
  | { kind: "custom"; key: string };

export function parseMetric(metric: SlaMetric): MetricRef {
  if (metric === "errorRate") return { kind: "errorRate" };
  if (metric === "throughput") return { kind: "throughput" };
  if (metric === "mean" || metric === "min" || metric === "max") return { kind: "latency", stat: metric };
  const key = customMetricKey(metric);
  if (key !== null) return { kind: "custom", key };
  return { kind: "percentile", percentile: Number(metric.slice(1)) };
}

/** The registry's definition of a built-in metric a target names (custom metrics are the run's: see measure.ts). */
export function builtInMetricOf(ref: Exclude<MetricRef, { kind: "custom" }>): MetricDefinition {
  switch (ref.kind) {
    case "percentile":
      return percentileMetric(ref.percentile);
    case "latency":
      return METRICS[ref.stat];
    case "errorRate":
      return METRICS.errorRate;
    case "throughput":
      return METRICS.throughput;
  }
}

/** True when the measured value must stay under the threshold (latency, error rate, CPU…). */
export function isLowerBetter(op: SlaOperator): boolean {
  return op === "<=" || op === "<";
}

export function meetsTarget(value: number, op: SlaOperator, threshold: number): boolean {
  switch (op) {
    case "<=":
      return value <= threshold;
    case "<":
      return value < threshold;
    case ">=":
      return value >= threshold;
    case ">":
      return value > threshold;
  }
}

/**
 * The threshold in the normalized run's units, and that unit: ms for latency, req/s for throughput,
 * null (a fraction) for error rate, the target's own unit (or none) for custom metrics.
 */
export function canonicalThreshold(target: Pick<SlaTarget, "metric" | "threshold" | "unit">): {
  threshold: number;
  unit: string | null;
} {
  const ref = parseMetric(target.metric);
  switch (ref.kind) {
    case "percentile":
    case "latency": {
      const unit = target.unit ?? "ms";
      // Only reachable with a target that skipped `slaTargetSchema`: a programming error, not input.
      if (!isLatencyUnit(unit)) throw new Error(`unvalidated SLA target: latency unit "${unit}"`);
      const factor = LATENCY_UNIT_TO_MS[unit];
      // Round away binary noise (0.05 s × 1000 = 50.00000000000001) so "≤ 50 ms" compares as written.
      return { threshold: Number((target.threshold * factor).toPrecision(12)), unit: builtInMetricOf(ref).unit };
    }
    case "errorRate":
    case "throughput":
      return { threshold: target.threshold, unit: builtInMetricOf(ref).unit };
    case "custom":
      return { threshold: target.threshold, unit: target.unit ?? null };
  }
}

/** A short human label, "p95 <= 50 ms (endpoints)", for notes and Markdown summaries. */
export function describeTarget(target: SlaTarget): string {
  const unit = target.unit ?? canonicalThreshold(target).unit;
  const scope = typeof target.scope === "string" ? target.scope : `matching "${target.scope.match}"`;
  return `${target.metric} ${target.op} ${target.threshold}${unit ? ` ${unit}` : ""} (${scope})`;
}

function isLatencyUnit(unit: string): unit is LatencyUnit {
  return Object.hasOwn(LATENCY_UNIT_TO_MS, unit);
}

function findTargetProblem(
  metric: SlaMetric,
  threshold: number,
  unit: string | undefined,
): { path: "metric" | "threshold" | "unit"; message: string } | null {
  const ref = parseMetric(metric);
  switch (ref.kind) {
    case "percentile":
      if (!(ref.percentile > 0 && ref.percentile <= 100)) {
        return { path: "metric", message: `percentile must be in (0, 100], got "${metric}"` };
      }
      return latencyUnitProblem(unit);
    case "latency":
      return latencyUnitProblem(unit);
    case "errorRate":
      // A "%" unit would make 1 mean 1% to the writer and 100% to the grader: refuse the ambiguity.
      if (unit !== undefined) {
        return { path: "unit", message: "errorRate takes no unit: give the threshold as a fraction (1% = 0.01)" };
      }
      if (threshold < 0 || threshold > 1) {
        return { path: "threshold", message: "errorRate threshold must be a fraction between 0 and 1 (1% = 0.01)" };
      }
      return null;
    case "throughput":
      if (unit !== undefined && !THROUGHPUT_UNITS.includes(unit)) {
        return { path: "unit", message: `throughput is measured in "${THROUGHPUT_UNIT}" (or "ops/s" for benchmarks), got "${unit}"` };
      }
      return null;
    case "custom":
      return null;
  }
}

function latencyUnitProblem(unit: string | undefined): { path: "unit"; message: string } | null {
  if (unit === undefined || isLatencyUnit(unit)) return null;
  return { path: "unit", message: `latency unit must be one of s, ms, us, ns (or per operation: ns/op, us/op, ms/op, s/op); got "${unit}"` };
}
