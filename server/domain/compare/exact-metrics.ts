/**
 * Exact counts, judged exactly (docs/statistics.md, "Exact counts"). Allocations and bytes allocated per
 * operation (go test -benchmem), instruction counts (Valgrind) and any count a Benchtrack JSON upload marks
 * `exact` do not vary between a run's repetitions: the tool counts them, it does not time them. A change in
 * such a count is a change of the code, whatever the machine did, so no test and no history are needed:
 *
 * - each side's runs must agree on the count (one value a side), and every run must have it exact
 *   (parsers/benchmark.ts: the same in every repetition); otherwise it is compared as any metric;
 * - the same count on both sides: unchanged; a count that was 0 and is not (or the reverse): changed,
 *   worse or better by the metric's direction; otherwise Δ% = 100 · (head − base) / base, a regression
 *   or an improvement when |Δ%| is at least the project's minimum effect (a smaller exact change is real
 *   but, by the project's own rule, too small to fail on: the reason says so).
 *
 * An exact count that regressed fails the gate (its endpoint regressed) beside the endpoint's gate metric,
 * outside the Holm families: it has no p-value, and no noise to correct for.
 */
import { formatDeltaPct, formatNumber } from "../format";
import type { CustomMetric, EndpointResult } from "../run";
import type { MetricDefinition } from "../metrics";
import { customMetricKey, customMetricsOf } from "../metrics";
import { isWorse } from "../stats/verdict";
import type { CompareOptions, MetricComparison, SideSummary } from "./comparison";

/** The custom metric of a result, when it is an exact count with a direction. */
function exactMetricOf(result: EndpointResult | undefined, key: string): CustomMetric | null {
  const metric = result?.metrics[key];
  return metric !== undefined && metric.exact === true && metric.better !== null ? metric : null;
}

/** Whether a result reports any exact count: without one on some run, no metric is exact on both sides (isExactOnBothSides). */
function hasExactCount(result: EndpointResult): boolean {
  for (const key in result.metrics) if (result.metrics[key]!.exact === true) return true;
  return false;
}

/**
 * Whether a custom metric is an exact count on every run of both sides that has the endpoint (at least
 * one a side), with one value per side: then it is compared exactly.
 */
export function isExactOnBothSides(spec: MetricDefinition, base: readonly (EndpointResult | undefined)[], head: readonly (EndpointResult | undefined)[]): boolean {
  const key = customMetricKey(spec.name);
  if (key === null || spec.better === null) return false;
  const sideValue = (results: readonly (EndpointResult | undefined)[]) => {
    const present = results.filter((result): result is EndpointResult => result !== undefined);
    if (present.length === 0) return null;
    const values = present.map((result) => exactMetricOf(result, key)?.value ?? null);
    return values.every((value) => value !== null && value === values[0]) ? values[0]! : null;
  };
  return sideValue(base) !== null && sideValue(head) !== null;
}

/** "2 → 16" in the metric's unit, as the reason says it. */
function describeCounts(base: number, head: number, unit: string | null): string {
  const format = (value: number) => formatNumber(value, 3);
  return `${format(base)} → ${format(head)}${unit ? ` ${unit}` : ""}`;
}

/**
 * One exact count, base against head (isExactOnBothSides already holds). `common` is the comparison's
 * shared part (sides, flags), as metric-comparison.ts builds it.
 */
export function compareExactMetric(
  spec: MetricDefinition,
  common: Omit<MetricComparison, "deltaPct" | "deltaPctCi95" | "pValue" | "test" | "noiseBandPct" | "verdict" | "reason" | "inconclusiveKind">,
  sides: { base: SideSummary; head: SideSummary },
  options: Pick<CompareOptions, "minEffectPct">,
): MetricComparison {
  const base = sides.base.values[0]!;
  const head = sides.head.values[0]!;
  const counts = describeCounts(base, head, spec.unit);
  const judged = { ...common, deltaPctCi95: null, pValue: null, test: "exact" as const, noiseBandPct: null, inconclusiveKind: null, standardError: 0 };
  if (base === head) return { ...judged, deltaPct: 0, verdict: "unchanged", reason: `${counts}, exact: unchanged` };
  const better = spec.better!;
  const worse = isWorse(better, head - base);
  if (base === 0 || head === 0) {
    const deltaPct = base === 0 ? null : -100;
    return { ...judged, deltaPct, verdict: worse ? "regressed" : "improved", reason: `${counts}, exact: a count ${base === 0 ? "that was 0 is not" : "fell to 0"}` };
  }
  const deltaPct = (100 * (head - base)) / base;
  if (Math.abs(deltaPct) < options.minEffectPct) {
    return { ...judged, deltaPct, verdict: "unchanged", reason: `${counts} (${formatDeltaPct(deltaPct)}), exact: a real change, smaller than the ${options.minEffectPct}% minimum effect` };
  }
  return { ...judged, deltaPct, verdict: worse ? "regressed" : "improved", reason: `${counts} (${formatDeltaPct(deltaPct)}), exact: a change of the code, not noise` };
}

/** Whether a comparison is an exact count's (compared by compareExactMetric). */
export function isExactComparison(metric: Pick<MetricComparison, "test">): boolean {
  return metric.test === "exact";
}

/** An exact count that changed by the minimum effect: it decides its endpoint beside the gate metric. */
export function isExactChange(metric: Pick<MetricComparison, "test" | "verdict">): boolean {
  return isExactComparison(metric) && (metric.verdict === "regressed" || metric.verdict === "improved");
}

/** The custom metrics that are exact counts on both sides (isExactOnBothSides), looked for only where a result reports one. */
export function exactCountsOf(base: readonly (EndpointResult | undefined)[], head: readonly (EndpointResult | undefined)[]): MetricDefinition[] {
  const present = [...base, ...head].filter((result): result is EndpointResult => result !== undefined);
  if (!present.some(hasExactCount)) return [];
  return customMetricsOf(present.map((result) => result.metrics)).filter((spec) => isExactOnBothSides(spec, base, head));
}
