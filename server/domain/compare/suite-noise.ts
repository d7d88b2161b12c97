/**
 * What one benchmark run against one can and cannot tell (docs/benchmarks.md, "Statistics"). Judged on
 * their repetitions (metric-comparison.ts, test "repetitions"), two runs' benchmarks carry no run-to-run
 * noise: repetitions within one run share its machine state. Two runs of unchanged code on a shared
 * runner differ by more than their repetitions say (the shared fixtures' two go test runs, back to back:
 * −17% to +10% per benchmark, with 1–7% spread within each run), and a burst of other work slows a whole
 * run (20–50% was seen). The other benchmarks of the suite measure that noise, since most of them did
 * not change:
 *
 * - **Run-to-run floor** (`floorBySuiteNoise`, before the family correction): with at least
 *   MIN_BENCHMARKS_FOR_SUITE_NOISE benchmarks judged on repetitions, the spread of their log changes
 *   about the median, 1.4826 × MAD (robust to the few that really changed: Rousseeuw & Croux 1993), is
 *   each benchmark's run-to-run noise on this pair of runs. Each test is redone with it added to the
 *   repetitions' standard error, df at most (benchmarks − 1). Fewer benchmarks: repetitions alone, said so.
 * - **Whole-run shift** (`guardWholeRunShift`, after it): with at least MIN_BENCHMARKS_FOR_SHIFT such
 *   benchmarks whose median change is at least the minimum effect, the machine moved as much as any
 *   verdict would claim, so none stands: each becomes undecided (inconclusive), saying what decides.
 */
import { formatDeltaPct, formatPct } from "../format";
import { median } from "../stats/descriptive";
import { twoSidedTPValue } from "../stats/t-distribution";
import { decideVerdict } from "../stats/verdict";
import type { CompareOptions, EndpointComparison, MetricComparison } from "./comparison";
import { endpointVerdict } from "./families";

/** At least this many benchmarks judged on their repetitions before their median says anything. */
export const MIN_BENCHMARKS_FOR_SHIFT = 3;
/** At least this many before their spread is read as the run-to-run noise (a MAD of fewer is too rough). */
export const MIN_BENCHMARKS_FOR_SUITE_NOISE = 5;
/** The MAD of a normal sample times this estimates its standard deviation. */
const MAD_TO_SD = 1.4826;

const isRepetitionGate = (metric: MetricComparison) => metric.gate && metric.test === "repetitions" && metric.deltaPct !== null;
const logChange = (metric: MetricComparison) => Math.log1p(metric.deltaPct! / 100);

/** The suite's run-to-run noise (sd of a log change) on this pair of runs, and how many benchmarks gave it. */
export function suiteNoise(endpoints: readonly EndpointComparison[]): { sd: number; benchmarks: number } | null {
  const changes = endpoints.flatMap((endpoint) => endpoint.metrics.filter(isRepetitionGate).map(logChange));
  if (changes.length < MIN_BENCHMARKS_FOR_SUITE_NOISE) return null;
  const center = median(changes)!;
  return { sd: MAD_TO_SD * median(changes.map((change) => Math.abs(change - center)))!, benchmarks: changes.length };
}

export function floorBySuiteNoise(endpoints: readonly EndpointComparison[], options: CompareOptions): EndpointComparison[] {
  const noise = suiteNoise(endpoints);
  if (noise === null) {
    const counted = endpoints.flatMap((endpoint) => endpoint.metrics.filter(isRepetitionGate)).length;
    if (counted === 0) return [...endpoints];
    const alone = `; repetitions alone: ${counted} benchmark${counted === 1 ? "" : "s"} cannot measure the run-to-run noise (${MIN_BENCHMARKS_FOR_SUITE_NOISE} can)`;
    return endpoints.map((endpoint) => ({
      ...endpoint,
      metrics: endpoint.metrics.map((metric) => (isRepetitionGate(metric) ? { ...metric, reason: `${metric.reason}${alone}` } : metric)),
    }));
  }
  return endpoints.map((endpoint) => {
    const metrics = endpoint.metrics.map((metric) => (isRepetitionGate(metric) ? retest(metric, noise, options) : metric));
    return { ...endpoint, metrics, verdict: endpointVerdict(metrics) };
  });
}

function retest(metric: MetricComparison, noise: { sd: number; benchmarks: number }, options: CompareOptions): MetricComparison {
  const level = metric.base.mean;
  if (level === null || level === 0 || metric.standardError === null || metric.degreesOfFreedom === null || metric.better === null) return metric;
  const withinSd = metric.standardError / Math.abs(level);
  const sd = Math.sqrt(withinSd * withinSd + noise.sd * noise.sd);
  const degreesOfFreedom = Math.min(metric.degreesOfFreedom, noise.benchmarks - 1);
  const change = logChange(metric);
  const pValue = sd === 0 ? (change === 0 ? 1 : 0) : twoSidedTPValue(change / sd, degreesOfFreedom) / 2;
  const decision = decideVerdict({ better: metric.better, deltaPct: metric.deltaPct!, pValue }, options);
  const how = metric.reason.slice(0, metric.reason.indexOf("):") + 1);
  const floor = `spread floored by the suite's run-to-run noise, ${formatPct(noise.sd, 1)} from ${noise.benchmarks} benchmarks`;
  return {
    ...metric,
    pValue,
    verdict: decision.verdict,
    standardError: sd * Math.abs(level),
    degreesOfFreedom,
    reason: `${how}: ${decision.reason}; ${floor}`,
  };
}

export function guardWholeRunShift(endpoints: readonly EndpointComparison[], minEffectPct: number): EndpointComparison[] {
  const judgedOnRepetitions = endpoints.flatMap((endpoint) => endpoint.metrics.filter(isRepetitionGate));
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
      isRepetitionGate(metric) && metric.verdict !== "inconclusive"
        ? { ...metric, verdict: "inconclusive" as const, inconclusiveKind: "undecided" as const, reason: `undecided: ${formatDeltaPct(metric.deltaPct)}, but ${why}` }
        : metric,
    );
    return { ...endpoint, metrics, verdict: endpointVerdict(metrics) };
  });
}
