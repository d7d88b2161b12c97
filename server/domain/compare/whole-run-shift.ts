/**
 * A guard on one benchmark run against one (docs/benchmarks.md, "Statistics"): judged on their
 * repetitions, the benchmarks of two runs carry no run-to-run noise, and a burst of other work on the
 * machine slows a whole run (20–50% was seen on a shared 2-core runner, minimums included). When the
 * benchmarks judged that way moved together — the median change of their gate metrics is at least the
 * minimum effect — a change of one of them cannot be told from the machine's, so none of their verdicts
 * stands (an "unchanged" in a run that moved is no more trustworthy than a "regressed"): each becomes
 * undecided (inconclusive), saying why and what decides
 * (rounds on each side, or history enough for the noise band). A real change of one or two benchmarks
 * leaves the median where it was, and is judged as usual.
 */
import { formatDeltaPct } from "../format";
import { median } from "../stats/descriptive";
import type { EndpointComparison } from "./comparison";
import { endpointVerdict } from "./families";

/** At least this many benchmarks judged on their repetitions before their median says anything. */
export const MIN_BENCHMARKS_FOR_SHIFT = 3;

export function guardWholeRunShift(endpoints: readonly EndpointComparison[], minEffectPct: number): EndpointComparison[] {
  const judgedOnRepetitions = endpoints.flatMap((endpoint) =>
    endpoint.metrics.filter((metric) => metric.gate && metric.test === "repetitions" && metric.deltaPct !== null),
  );
  if (judgedOnRepetitions.length < MIN_BENCHMARKS_FOR_SHIFT) return [...endpoints];
  const shift = median(judgedOnRepetitions.map((metric) => metric.deltaPct!));
  if (shift === null || Math.abs(shift) < minEffectPct) return [...endpoints];
  const why =
    `the whole run moved: the median change of the ${judgedOnRepetitions.length} benchmarks judged on their repetitions is ` +
    `${formatDeltaPct(shift)}, at least the ${minEffectPct}% minimum effect, and one run against one cannot tell a change ` +
    "of the code from a slower or faster machine (a burst of other work slows a whole run); compare several rounds " +
    "of each side, or wait for the series' noise band (5 runs)";
  return endpoints.map((endpoint) => {
    const metrics = endpoint.metrics.map((metric) =>
      metric.gate && metric.test === "repetitions" && metric.verdict !== "inconclusive"
        ? { ...metric, verdict: "inconclusive" as const, inconclusiveKind: "undecided" as const, reason: `undecided: ${formatDeltaPct(metric.deltaPct)}, but ${why}` }
        : metric,
    );
    return { ...endpoint, metrics, verdict: endpointVerdict(metrics) };
  });
}
