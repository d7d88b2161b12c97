import { holmAdjusted } from "../stats/multiple-testing";
import { lowerTQuantile } from "../stats/t-distribution";
import { formatDeltaPct, formatPValue } from "../format";
import type { Verdict } from "../stats/verdict";
import type { CompareOptions, EndpointComparison, MetricComparison } from "./comparison";
import { DETECTABLE_POWER, worstVerdict } from "./comparison";
import { detectableChangePct, plural } from "./metric-comparison";
import { isExactChange } from "./exact-metrics";

/**
 * Two families, each corrected with Holm (../stats/multiple-testing.ts), so that an unchanged head is
 * called "regressed" with probability at most α in each:
 * - the **gate metrics**, one per endpoint (gate-metric.ts): what the CI gate decides on. One test per
 *   endpoint, not four correlated percentiles each, keeps the gate's power (docs/statistics.md, "The CI
 *   gate"); each gets the smallest change it could detect at its family's first Holm level, α/m.
 *   A gate metric worse by the minimum effect and significant alone but not once corrected is
 *   **undecided** (inconclusive, kind "undecided"): a likely slowdown the runs cannot establish yet, not a
 *   pass; the reason says how many more rounds would decide.
 * - every **other metric** (the other percentiles, the mean, throughput, error rate, custom metrics,
 *   the aggregate of runs with endpoints): reported with their own correction, never dividing the
 *   gate's α.
 */
export function correctForMultipleTests(endpoints: readonly EndpointComparison[], options: CompareOptions): EndpointComparison[] {
  const { alpha } = options;
  const adjusted = new Map<MetricComparison, number>();
  const sizes = new Map<MetricComparison, number>();
  for (const isGate of [true, false]) {
    // An A/B job's sequential tests keep their own share of α (ab-comparison.ts); exact counts have no noise.
    const tested = endpoints.flatMap((endpoint) => endpoint.metrics.filter((metric) => metric.gate === isGate && metric.pValue !== null && metric.test !== "ab-pairs"));
    holmAdjusted(tested.map((metric) => metric.pValue!)).forEach((value, index) => {
      adjusted.set(tested[index]!, value);
      sizes.set(tested[index]!, tested.length);
    });
  }
  const family = (metric: MetricComparison) => {
    const tests = sizes.get(metric) ?? 0;
    return metric.gate ? `the ${plural(tests, "endpoint")} judged (one gate metric each)` : `the ${plural(tests, "other metric")} reported`;
  };
  return endpoints.map((endpoint) => {
    const metrics = endpoint.metrics.map((metric): MetricComparison => {
      const adjustedPValue = adjusted.get(metric) ?? null;
      const detectablePct = metric.test === "ab-pairs" ? metric.detectablePct : metric.gate ? detectableChangePct(metric, options, sizes.get(metric) ?? 1) : null;
      const changed = metric.verdict === "regressed" || metric.verdict === "improved";
      if (!changed || adjustedPValue === null || adjustedPValue < alpha) return { ...metric, adjustedPValue, detectablePct };
      const notSignificant = `${formatDeltaPct(metric.deltaPct)} is not significant once corrected for ${family(metric)} (Holm-adjusted ${formatPValue(adjustedPValue)} ≥ ${alpha})`;
      if (metric.gate && metric.verdict === "regressed") {
        // Worse by the minimum effect and significant alone, not once corrected: a slowdown is likely but
        // not established. That is not a pass: say so, and how many more rounds would decide.
        const more = headRoundsToDecide(metric, alpha / (sizes.get(metric) ?? 1));
        return {
          ...metric,
          adjustedPValue,
          detectablePct,
          verdict: "inconclusive",
          inconclusiveKind: "undecided",
          undecidedBy: "correction",
          reason: `undecided: ${formatDeltaPct(metric.deltaPct)} is worse and significant alone (${formatPValue(metric.pValue)}), not once corrected for ${family(metric)} (Holm-adjusted ${formatPValue(adjustedPValue)} ≥ ${alpha}); ${more}`,
        };
      }
      return { ...metric, adjustedPValue, detectablePct, verdict: "unchanged", reason: notSignificant };
    });
    return { ...endpoint, metrics, verdict: endpointVerdict(metrics) };
  });
}

/** Head rounds in all up to which "more rounds" is advice, not a project. */
const MAX_HEAD_ROUNDS_ADVISED = 50;

/**
 * How many more rounds of the head would make the change seen significant at `level` with 80% power, at
 * the spread the test used (its standard error over √(1/n_base + 1/n_head)): the smallest k with
 * (t(1 − level, n_b + k − 2) + t(0.8, n_b + k − 2)) · s · √(1/n_b + 1/k) ≤ |Δ| − resolution. When even
 * MAX_HEAD_ROUNDS_ADVISED rounds would not do (the base's own noise dominates), more history is the answer.
 */
function headRoundsToDecide(metric: MetricComparison, level: number): string {
  const { standardError, base, head } = metric;
  if (standardError === null || base.mean === null || head.mean === null) return "more rounds would decide";
  const sd = standardError / Math.sqrt(1 / base.n + 1 / head.n);
  const effect = Math.abs(head.mean - base.mean) - (metric.resolution ?? 0);
  for (let rounds = head.n + 1; rounds <= MAX_HEAD_ROUNDS_ADVISED; rounds++) {
    const df = base.n + rounds - 2;
    const needed = (lowerTQuantile(1 - level, df) + lowerTQuantile(DETECTABLE_POWER, df)) * sd * Math.sqrt(1 / base.n + 1 / rounds);
    if (needed <= effect) {
      const more = rounds - head.n;
      return `about ${plural(more, "more round")} of the head (${rounds} in all) would decide, if the change is as large as it looks`;
    }
  }
  return `more rounds of the head alone would not decide at this noise (the baseline's ${base.n} runs limit it): more history would`;
}

/**
 * An endpoint's verdict: its gate metric's, or an exact count's change beside it (the worse of them:
 * exact-metrics.ts); without a gate metric, the worst of its metrics.
 */
export function endpointVerdict(metrics: readonly MetricComparison[]): Verdict {
  const gate = metrics.find((metric) => metric.gate);
  if (!gate) return worstVerdict(metrics.map((metric) => metric.verdict));
  const exact = metrics.filter((metric) => !metric.gate && isExactChange(metric));
  return exact.length === 0 ? gate.verdict : worstVerdict([gate.verdict, ...exact.map((metric) => metric.verdict)]);
}
