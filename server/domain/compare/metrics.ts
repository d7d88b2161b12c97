import type { Better, CustomMetric, EndpointResult } from "../run";
import { errorRateOf } from "../run";

/**
 * The metrics a comparison (and an SLA target) can name: latency percentiles and mean in ms,
 * throughput in req/s, error rate as a fraction, and custom metrics as `metrics.<key>`.
 */
export interface MetricSpec {
  metric: string;
  unit: string | null;
  better: Better;
  /** For percentile metrics: the percentile, so histograms can be pooled. */
  percentile: number | null;
  read(result: EndpointResult): number | null;
}

const LATENCY_PERCENTILES = [50, 90, 95, 99] as const;

export const STANDARD_METRICS: readonly MetricSpec[] = [
  ...LATENCY_PERCENTILES.map((percentile) => ({
    metric: `p${percentile}`,
    unit: "ms",
    better: "lower" as const,
    percentile,
    read: (result: EndpointResult) => result.latency.percentiles[String(percentile)] ?? null,
  })),
  { metric: "mean", unit: "ms", better: "lower", percentile: null, read: (result) => result.latency.meanMs },
  { metric: "throughput", unit: "req/s", better: "higher", percentile: null, read: (result) => result.throughput },
  { metric: "errorRate", unit: null, better: "lower", percentile: null, read: (result) => errorRateOf(result) },
];

/** Specs for the custom metrics present in any of the given metric maps (first unit/direction seen wins). */
export function customMetricSpecs(metricMaps: readonly Record<string, CustomMetric>[]): MetricSpec[] {
  const seen = new Map<string, CustomMetric>();
  for (const metrics of metricMaps) {
    for (const [key, metric] of Object.entries(metrics)) if (!seen.has(key)) seen.set(key, metric);
  }
  return [...seen.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, first]) => ({
      metric: `metrics.${key}`,
      unit: first.unit,
      better: first.better,
      percentile: null,
      read: (result: EndpointResult) => result.metrics[key]?.value ?? null,
    }));
}
