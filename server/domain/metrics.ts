import type { Better, CustomMetric, EndpointResult } from "./run";
import { errorRateOf } from "./run";

/**
 * The metric registry: every metric Benchtrack judges, charts or grades, once — its name (as in URLs,
 * the API, SLA targets and regressions), label, unit, direction, the stored results column that holds
 * it, and how to read it from a normalized result. Comparison, the CI verdict, change-point detection,
 * SLA grading, regressions, webhooks and the pages all look metrics up here.
 *
 * Units are the normalized run's (see ./run): latency in ms, throughput in req/s, error rate a fraction
 * 0..1 (unit null, shown as %). Custom metrics are `metrics.<key>` with the unit and direction the run
 * reported.
 */

/** The `results` columns that store a metric (see prisma/schema.prisma). */
export type ResultColumn = "minMs" | "meanMs" | "p50Ms" | "p90Ms" | "p95Ms" | "p99Ms" | "maxMs" | "throughput" | "errorRate";

export interface MetricDefinition {
  /** Its one spelling everywhere: "p95", "mean", "throughput", "errorRate", "metrics.cpu". */
  name: string;
  /** How a page titles it: "p95 latency", "Throughput", "Error rate", or a custom metric's key. */
  label: string;
  /** "ms", "req/s", a custom metric's own unit; null for the error rate (a fraction) and unitless metrics. */
  unit: string | null;
  /** Which way is an improvement; null for a custom metric whose direction nobody stated (never judged). */
  better: Better | null;
  /** The results column that stores it; null when it lives only in JSON (p99.9, custom metrics). */
  column: ResultColumn | null;
  /** For latency percentiles: which one (so histograms can be pooled); null otherwise. */
  percentile: number | null;
  read(result: EndpointResult): number | null;
}

export const CUSTOM_METRIC_PREFIX = "metrics.";

/** The values a metric can take: what a band or an axis drawn around its values may never leave. */
export interface ValueRange {
  min: number;
  max: number;
}

export const UNBOUNDED: ValueRange = { min: Number.NEGATIVE_INFINITY, max: Number.POSITIVE_INFINITY };
const NON_NEGATIVE: ValueRange = { min: 0, max: Number.POSITIVE_INFINITY };
/** The error rate is stored as a fraction (failures / requests). */
const FRACTION: ValueRange = { min: 0, max: 1 };
/**
 * Units whose values are never negative: durations, sizes, rates, counts and percentages of a whole
 * (CPU %, which may pass 100 on several cores). Any other unit (a temperature, a difference) is unbounded.
 */
const NON_NEGATIVE_UNIT = /^(?:ns|us|µs|ms|s|min|h|b|kb|mb|gb|kib|mib|gib|bytes?|%|count|calls|requests|iterations|[a-z]*\/(?:s|op))$/i;

/**
 * The range of a metric's values: latency, throughput and counts are never negative; the error rate
 * (a fraction) lies within [0, 1]; a custom metric is bounded below by 0 when its unit says so.
 */
export function metricRange(metric: Pick<MetricDefinition, "name" | "unit">): ValueRange {
  if (metric.name === "errorRate") return FRACTION;
  if (metric.unit !== null && NON_NEGATIVE_UNIT.test(metric.unit.trim())) return NON_NEGATIVE;
  return UNBOUNDED;
}

/** Tools spell percentiles differently ("99.9", "99.90"): read them as numbers. */
function readPercentile(result: EndpointResult, percentile: number, key: string | number): number | null {
  const { percentiles } = result.latency;
  const exact = percentiles[key];
  if (exact !== undefined) return exact;
  return percentilesByNumber(percentiles).get(percentile) ?? null;
}

/**
 * A result's percentiles by their number (the first of a number spelt twice), made once per result: a
 * percentile a tool does not report (k6's p99) is asked of every run of a series on every comparison.
 */
const byNumber = new WeakMap<Readonly<Record<string, number>>, ReadonlyMap<number, number>>();

function percentilesByNumber(percentiles: Readonly<Record<string, number>>): ReadonlyMap<number, number> {
  const known = byNumber.get(percentiles);
  if (known) return known;
  const made = new Map<number, number>();
  for (const [key, value] of Object.entries(percentiles)) if (!made.has(Number(key))) made.set(Number(key), value);
  byNumber.set(percentiles, made);
  return made;
}

const STORED_PERCENTILE_COLUMNS: Readonly<Record<number, ResultColumn>> = { 50: "p50Ms", 90: "p90Ms", 95: "p95Ms", 99: "p99Ms" };

/** A latency percentile, "p50" … "p99.9". */
export function percentileMetric(percentile: number): MetricDefinition {
  // The key as the usual spelling reads it, made once (a comparison reads it of every run of every
  // endpoint): an integer's as a number, an index lookup, where its string would be converted each time.
  const key = Number.isInteger(percentile) ? percentile : String(percentile);
  return {
    name: `p${percentile}`,
    label: `p${percentile} latency`,
    unit: "ms",
    better: "lower",
    column: STORED_PERCENTILE_COLUMNS[percentile] ?? null,
    percentile,
    read: (result) => readPercentile(result, percentile, key),
  };
}

function latencyStat(name: "mean" | "min" | "max", label: string, column: ResultColumn, stat: "meanMs" | "minMs" | "maxMs"): MetricDefinition {
  return { name, label, unit: "ms", better: "lower", column, percentile: null, read: (result) => result.latency[stat] };
}

/** The built-in metrics, by name. */
export const METRICS = {
  p50: percentileMetric(50),
  p90: percentileMetric(90),
  p95: percentileMetric(95),
  p99: percentileMetric(99),
  mean: latencyStat("mean", "Mean latency", "meanMs", "meanMs"),
  min: latencyStat("min", "Min latency", "minMs", "minMs"),
  max: latencyStat("max", "Max latency", "maxMs", "maxMs"),
  throughput: {
    name: "throughput",
    label: "Throughput",
    unit: "req/s",
    better: "higher",
    column: "throughput",
    percentile: null,
    read: (result) => result.throughput,
  },
  errorRate: {
    name: "errorRate",
    label: "Error rate",
    unit: null,
    better: "lower",
    column: "errorRate",
    percentile: null,
    read: (result) => errorRateOf(result),
  },
} as const satisfies Record<string, MetricDefinition>;

export type BuiltInMetricName = keyof typeof METRICS;

/** What a comparison and the CI verdict judge, in table order (custom metrics follow). */
export const COMPARED_METRICS: readonly MetricDefinition[] = [
  METRICS.p50,
  METRICS.p90,
  METRICS.p95,
  METRICS.p99,
  METRICS.mean,
  METRICS.throughput,
  METRICS.errorRate,
];

/** Metrics an SLA target is usually written on, for the editor's suggestions (any "p<number>" works too). */
export const SLA_SUGGESTED_METRICS: readonly string[] = ["p50", "p90", "p95", "p99", "p99.9", "mean", "max", "errorRate", "throughput"];

/**
 * Custom metrics that describe the load generator rather than the service: k6's iteration count and
 * rate follow from latency under a closed model (slower answers, fewer iterations), so a latency step
 * would open a second, derived regression on them. They are shown and compared, but change-point
 * detection does not track them.
 */
export const LOAD_GENERATOR_METRIC_KEYS: ReadonlySet<string> = new Set(["iterations", "iterations_per_second"]);

/** Whether change-point detection tracks this custom metric (by its key, without "metrics."). */
export function isTrackedCustomMetric(key: string): boolean {
  return !LOAD_GENERATOR_METRIC_KEYS.has(key);
}

function isBuiltInMetric(name: string): name is BuiltInMetricName {
  return Object.hasOwn(METRICS, name);
}

function customMetricName(key: string): string {
  return `${CUSTOM_METRIC_PREFIX}${key}`;
}

/** The key of a custom metric's name ("metrics.cpu" → "cpu"); null for any other metric. */
export function customMetricKey(name: string): string | null {
  return name.startsWith(CUSTOM_METRIC_PREFIX) ? name.slice(CUSTOM_METRIC_PREFIX.length) : null;
}

/** A custom metric with the unit and direction a run reported for it. */
export function customMetric(key: string, reported: Pick<CustomMetric, "unit" | "better">): MetricDefinition {
  return {
    name: customMetricName(key),
    label: key,
    unit: reported.unit,
    better: reported.better,
    column: null,
    percentile: null,
    read: (result) => result.metrics[key]?.value ?? null,
  };
}

/** Definitions for the custom metrics present in any of the given metric maps (the first unit and direction seen win), by key. */
export function customMetricsOf(metricMaps: readonly Record<string, CustomMetric>[]): MetricDefinition[] {
  const seen = new Map<string, CustomMetric>();
  for (const metrics of metricMaps) {
    for (const [key, metric] of Object.entries(metrics)) if (!seen.has(key)) seen.set(key, metric);
  }
  return [...seen.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, first]) => customMetric(key, first));
}

const PERCENTILE_NAME = /^p(\d+(?:\.\d+)?)$/;

/**
 * The definition of a metric name: a built-in metric, any latency percentile "p<number>", or a custom
 * metric (whose unit and direction only a run knows: pass what it reported, else unit null and lower
 * is better). Null for a name that is none of these.
 */
export function metricDefinition(name: string, reported?: Pick<CustomMetric, "unit" | "better">): MetricDefinition | null {
  if (isBuiltInMetric(name)) return METRICS[name];
  const percentile = PERCENTILE_NAME.exec(name);
  if (percentile) {
    const value = Number(percentile[1]);
    return value > 0 && value <= 100 ? percentileMetric(value) : null;
  }
  const key = customMetricKey(name);
  if (key !== null && key.length > 0) return customMetric(key, reported ?? { unit: null, better: "lower" });
  return null;
}
