/**
 * The metric each endpoint is gated on (docs/statistics.md, "The CI gate"): one per endpoint, so that an
 * endpoint's p50, p90, p95 and p99 — four views of one set of requests that move together — do not
 * divide the gate's α four ways. The project sets it (`gateMetric`): a metric name ("p99", "mean",
 * "metrics.cpu"), or "auto", the default: the tail percentile every run of the comparison reports and
 * has requests enough for (percentile-support.ts), in the order p95, p90, p99, p50, then the mean.
 * Why p95 first: it is the tail most SLAs are written on, and a run's p99 varies about twice as much
 * from run to run, which halves the slowdown a gate can see at the same noise; p90 is next because
 * wrk, hey and autocannon print no p95.
 */
import { formatNumber } from "../format";
import type { EndpointResult } from "../run";
import { isBenchmark } from "../run";
import type { MetricDefinition } from "../metrics";
import { customMetricsOf, metricDefinition, METRICS } from "../metrics";
import { minRequestsForPercentile } from "../stats/percentile-support";

export const AUTO_GATE_METRIC = "auto";
const AUTO_ORDER: readonly MetricDefinition[] = [METRICS.p95, METRICS.p90, METRICS.p99, METRICS.p50, METRICS.mean];

export interface GateMetricChoice {
  metric: MetricDefinition;
  /** Why this one, in words: "p95 (auto: every run has ≥ 200 requests)". */
  why: string;
}

/**
 * The gate metric of one endpoint, from its results on both sides (undefined where a run lacks the
 * endpoint). A named metric is used as named, even when the runs cannot support it: the comparison then
 * says why it is inconclusive ("too few requests to judge p99").
 */
export function chooseGateMetric(setting: string, results: readonly (EndpointResult | undefined)[]): GateMetricChoice {
  const present: EndpointResult[] = [];
  for (const result of results) if (result !== undefined) present.push(result);
  if (setting !== AUTO_GATE_METRIC) {
    const reported = customMetricsOf(present.map((result) => result.metrics)).find((spec) => spec.name === setting);
    const metric = reported ?? metricDefinition(setting) ?? METRICS.p95;
    return { metric, why: `${metric.name} (the project's gate metric)` };
  }
  if (present.length > 0 && present.every(isBenchmark)) {
    // A benchmark measured without time (instruction counts under Valgrind) is gated on its exact count,
    // which every run reports: a change in it is a change of the code (exact-metrics.ts).
    if (present.every((result) => result.latency.meanMs === null)) {
      const counted = customMetricsOf(present.map((result) => result.metrics)).find((spec) =>
        present.every((result) => {
          const metric = result.metrics[spec.name.slice("metrics.".length)];
          return metric !== undefined && metric.exact === true && metric.better !== null;
        }),
      );
      if (counted) return { metric: counted, why: `${counted.name} (auto: a benchmark measured without time is gated on its exact count)` };
      // Else on the one figure with a direction every run reports (a github-action-benchmark custom value in
      // MiB/s, a BMF measure): the direction the tool was told is the only judgement there is to make.
      const directed = customMetricsOf(present.map((result) => result.metrics)).filter((spec) =>
        present.every((result) => {
          const metric = result.metrics[spec.name.slice("metrics.".length)];
          return metric !== undefined && metric.better !== null;
        }),
      );
      const [only] = directed;
      if (only && directed.length === 1) return { metric: only, why: `${only.name} (auto: a benchmark measured without time is gated on its one metric with a direction)` };
    }
    // A benchmark's samples are repetitions of the whole operation, not requests: its tail percentiles
    // are the slowest repetitions, not a tail users feel. The mean time per operation is what it measures.
    return { metric: METRICS.mean, why: "mean (auto: benchmarks are gated on their mean time per operation)" };
  }
  // The fewest requests a run has (unknown counts are not held against a percentile: percentile-support.ts).
  let fewest = Number.POSITIVE_INFINITY;
  for (const result of present) if (result.requests !== null && Number.isFinite(result.requests) && result.requests < fewest) fewest = result.requests;
  const isReportedByAll = (spec: MetricDefinition) => present.length > 0 && present.every((result) => spec.read(result) !== null);
  for (const spec of AUTO_ORDER) {
    // The count first: it is one comparison, where reading a percentile of every run is many.
    if (spec.percentile !== null && fewest < minRequestsForPercentile(spec.percentile)) continue;
    if (!isReportedByAll(spec)) continue;
    const requests = Number.isFinite(fewest) ? `every run has ≥ ${formatNumber(fewest, 3)} requests` : "request counts unknown";
    return { metric: spec, why: `${spec.name} (auto: ${spec.percentile === null ? "no percentile has requests enough" : requests})` };
  }
  const fallback = AUTO_ORDER.find((spec) => present.some((result) => spec.read(result) !== null)) ?? METRICS.p95;
  return { metric: fallback, why: `${fallback.name} (auto: no latency statistic that every run reports)` };
}
