/**
 * Reads the value a target measures from one endpoint result, in the normalized run's units. A missing
 * value is a typed "no data" with the reason, never 0: the grade excludes it and the report shows why.
 * Built-in metrics are read as the metric registry reads them (`../metrics`); custom metrics are read
 * here, because only the target knows which unit it expects and the run may fall back to run-level ones.
 */
import type { CustomMetric, EndpointResult } from "../run";
import { builtInMetricOf, parseMetric, type MetricRef, type SlaTarget } from "./policy";

export type Measurement = { value: number; noDataReason: null } | { value: null; noDataReason: string };

function noData(reason: string): Measurement {
  return { value: null, noDataReason: reason };
}

function measured(value: number | null | undefined, missingReason: string): Measurement {
  return value === null || value === undefined || !Number.isFinite(value)
    ? noData(missingReason)
    : { value, noDataReason: null };
}

/**
 * @param fallbackMetrics run-level custom metrics, consulted for the aggregate only: a run's memory or
 *   CPU belongs to the run as a whole, which is what an "aggregate" target means.
 */
export function measureTarget(
  target: Pick<SlaTarget, "metric" | "unit">,
  result: EndpointResult,
  fallbackMetrics: Record<string, CustomMetric> = {},
): Measurement {
  const ref = parseMetric(target.metric);
  if (ref.kind === "custom") return measureCustomMetric(ref.key, target.unit, result, fallbackMetrics);
  if (ref.kind === "errorRate" && result.requests === 0) return noData("no requests");
  return measured(builtInMetricOf(ref).read(result), missingReason(ref, target.metric));
}

/** Why a built-in metric has no value in a result. */
function missingReason(ref: Exclude<MetricRef, { kind: "custom" }>, metric: string): string {
  switch (ref.kind) {
    case "percentile":
      return `${metric} not reported`;
    case "latency":
      return `${ref.stat} latency not reported`;
    case "errorRate":
      return "requests or failures not reported";
    case "throughput":
      return "throughput not reported";
  }
}

function measureCustomMetric(
  key: string,
  targetUnit: string | undefined,
  result: EndpointResult,
  fallbackMetrics: Record<string, CustomMetric>,
): Measurement {
  const metric = Object.hasOwn(result.metrics, key)
    ? result.metrics[key]
    : Object.hasOwn(fallbackMetrics, key)
      ? fallbackMetrics[key]
      : undefined;
  if (metric === undefined) return noData(`metric "${key}" not reported`);
  // Units of custom metrics are free text, so they cannot be converted; a mismatch is not comparable.
  if (targetUnit !== undefined && metric.unit !== null && metric.unit !== targetUnit) {
    return noData(`metric "${key}" reported in ${metric.unit}, target is in ${targetUnit}`);
  }
  return measured(metric.value, `metric "${key}" has no value`);
}
