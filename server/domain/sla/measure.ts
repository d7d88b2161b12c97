/**
 * Reads the value a target measures from one endpoint result, in the normalized run's units. A missing
 * value is a typed "no data" with the reason, never 0: the grade excludes it and the report shows why.
 */
import { errorRateOf, type CustomMetric, type EndpointResult } from "../run";
import { parseMetric, type SlaTarget } from "./policy";

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
  switch (ref.kind) {
    case "percentile":
      return measured(findPercentile(result.latency.percentiles, ref.percentile), `${target.metric} not reported`);
    case "latency": {
      const byStat = { mean: result.latency.meanMs, min: result.latency.minMs, max: result.latency.maxMs };
      return measured(byStat[ref.stat], `${ref.stat} latency not reported`);
    }
    case "errorRate":
      if (result.requests === 0) return noData("no requests");
      return measured(errorRateOf(result), "requests or failures not reported");
    case "throughput":
      return measured(result.throughput, "throughput not reported");
    case "custom": {
      const metric = Object.hasOwn(result.metrics, ref.key)
        ? result.metrics[ref.key]
        : Object.hasOwn(fallbackMetrics, ref.key)
          ? fallbackMetrics[ref.key]
          : undefined;
      if (metric === undefined) return noData(`metric "${ref.key}" not reported`);
      // Units of custom metrics are free text, so they cannot be converted; a mismatch is not comparable.
      if (target.unit !== undefined && metric.unit !== null && metric.unit !== target.unit) {
        return noData(`metric "${ref.key}" reported in ${metric.unit}, target is in ${target.unit}`);
      }
      return measured(metric.value, `metric "${ref.key}" has no value`);
    }
  }
}

/** Tools spell percentiles differently ("99.9", "99.90"); compare them as numbers. */
function findPercentile(percentiles: Record<string, number>, percentile: number): number | undefined {
  for (const [key, value] of Object.entries(percentiles)) {
    if (Number(key) === percentile) return value;
  }
  return undefined;
}
