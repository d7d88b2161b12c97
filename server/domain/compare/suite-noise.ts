/**
 * What one benchmark run against one can and cannot tell (docs/benchmarks.md, "Statistics"). Judged on
 * their repetitions (metric-comparison.ts, test "repetitions"), two runs' benchmarks carry no run-to-run
 * noise: repetitions within one run share its machine state. Two runs of unchanged code on a shared
 * runner differ by more than their repetitions say (the shared fixtures' two go test runs, back to back:
 * −17% to +10% per benchmark, with 1–7% spread within each run), and a burst of other work slows a whole
 * run (20–50% was seen). The other benchmarks of the suite measure both, since most of them did not change:
 *
 * - **Against the suite** (`judgeAgainstSuite`, before the family correction), with at least
 *   MIN_BENCHMARKS_FOR_SUITE_NOISE benchmarks judged on repetitions: the median of their log changes is
 *   the whole run's shift, and the spread about it, 1.4826 × MAD (robust to the few that really changed:
 *   Rousseeuw & Croux 1993), each benchmark's run-to-run noise on this pair of runs. Each benchmark is
 *   tested on its change beyond the shift, with that noise added to its repetitions' standard error and
 *   df at most (benchmarks − 1); a verdict also needs its own change to be at least the minimum effect the
 *   same way. When the shift itself is at least the minimum effect, the benchmarks that moved with it
 *   are undecided: one run against one cannot tell the code from the machine.
 * - **Too few benchmarks to measure it** (3 or 4): judged on their repetitions alone, said so, and none
 *   of their verdicts stands when their median change is at least the minimum effect.
 */
import { formatDeltaPct, formatPct } from "../format";
import { median } from "../stats/descriptive";
import { twoSidedTPValue } from "../stats/t-distribution";
import { decideVerdict } from "../stats/verdict";
import type { CompareOptions, EndpointComparison, MetricComparison } from "./comparison";
import { endpointVerdict } from "./families";

/** At least this many benchmarks judged on their repetitions before their median says anything. */
const MIN_BENCHMARKS_FOR_SHIFT = 3;
/** At least this many before their spread is read as the run-to-run noise (a MAD of fewer is too rough). */
const MIN_BENCHMARKS_FOR_SUITE_NOISE = 5;
/** The MAD of a normal sample times this estimates its standard deviation. */
const MAD_TO_SD = 1.4826;

const isRepetitionGate = (metric: MetricComparison) => metric.gate && metric.test === "repetitions" && metric.deltaPct !== null;
const logChange = (metric: MetricComparison) => Math.log1p(metric.deltaPct! / 100);

interface SuiteNoise {
  /** The whole run's shift: the median log change. */
  shift: number;
  /** A benchmark's run-to-run noise about it (sd of a log change). */
  sd: number;
  benchmarks: number;
}

/** The suite's shift and run-to-run noise on this pair of runs, and how many benchmarks gave them. */
function suiteNoise(endpoints: readonly EndpointComparison[]): SuiteNoise | null {
  const changes = endpoints.flatMap((endpoint) => endpoint.metrics.filter(isRepetitionGate).map(logChange));
  if (changes.length < MIN_BENCHMARKS_FOR_SUITE_NOISE) return null;
  const shift = median(changes)!;
  return { shift, sd: MAD_TO_SD * median(changes.map((change) => Math.abs(change - shift)))!, benchmarks: changes.length };
}

export function judgeAgainstSuite(endpoints: readonly EndpointComparison[], options: CompareOptions): EndpointComparison[] {
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

function retest(metric: MetricComparison, noise: SuiteNoise, options: CompareOptions): MetricComparison {
  const level = metric.base.mean;
  if (level === null || level === 0 || metric.standardError === null || metric.degreesOfFreedom === null || metric.better === null) return metric;
  // The repetitions' standard error of the log ratio (metric-comparison.ts keeps it in base units).
  const withinSd = metric.standardError / Math.abs(level);
  const sd = Math.sqrt(withinSd * withinSd + noise.sd * noise.sd);
  const degreesOfFreedom = Math.min(metric.degreesOfFreedom, noise.benchmarks - 1);
  const beyond = logChange(metric) - noise.shift;
  const pValue = sd === 0 ? (beyond === 0 ? 1 : 0) : twoSidedTPValue(beyond / sd, degreesOfFreedom) / 2;
  const beyondPct = Math.expm1(beyond) * 100;
  const decision = decideVerdict({ better: metric.better, deltaPct: beyondPct, pValue }, options);
  const how = metric.reason.slice(0, metric.reason.indexOf("):") + 1);
  const against = `${formatDeltaPct(beyondPct)} beyond the suite's median change of ${formatDeltaPct(Math.expm1(noise.shift) * 100)}, its run-to-run noise ${formatPct(noise.sd, 1)} from ${noise.benchmarks} benchmarks added`;
  const ownChange = metric.deltaPct!;
  const isOwnChangeAlike =
    Math.abs(ownChange) >= options.minEffectPct && Math.sign(ownChange) === Math.sign(beyondPct);
  const judged = { ...metric, pValue, standardError: sd * Math.abs(level), degreesOfFreedom };
  if (decision.verdict !== "unchanged" && decision.verdict !== "inconclusive" && !isOwnChangeAlike) {
    return {
      ...judged,
      verdict: "unchanged",
      reason: `${how}: ${against}: ${decision.reason}, but its own change, ${formatDeltaPct(ownChange)}, is not a ${options.minEffectPct}% change the same way`,
    };
  }
  return { ...judged, verdict: decision.verdict, reason: `${how}: ${against}: ${decision.reason}` };
}

/**
 * After the family correction: when the benchmarks judged on repetitions moved together (median change at
 * least the minimum effect), the verdicts that only say "like the rest" do not stand. With the suite's
 * noise measured (5 benchmarks or more), the unchanged ones (they moved with the run) become undecided and
 * a benchmark that moved beyond the run keeps its verdict; with 3 or 4, every verdict becomes undecided.
 */
export function guardWholeRunShift(endpoints: readonly EndpointComparison[], minEffectPct: number): EndpointComparison[] {
  const judgedOnRepetitions = endpoints.flatMap((endpoint) => endpoint.metrics.filter(isRepetitionGate));
  if (judgedOnRepetitions.length < MIN_BENCHMARKS_FOR_SHIFT) return [...endpoints];
  const shift = median(judgedOnRepetitions.map((metric) => metric.deltaPct!));
  if (shift === null || Math.abs(shift) < minEffectPct) return [...endpoints];
  const isSuiteMeasured = judgedOnRepetitions.length >= MIN_BENCHMARKS_FOR_SUITE_NOISE;
  const why =
    `the whole run moved: the median change of the ${judgedOnRepetitions.length} benchmarks judged on their repetitions is ` +
    `${formatDeltaPct(shift)}, at least the ${minEffectPct}% minimum effect, and one run against one cannot tell a change ` +
    "of the code from a slower or faster machine (a burst of other work slows a whole run); compare several rounds " +
    "of each side, or wait for the series' noise band (5 runs)";
  return endpoints.map((endpoint) => {
    const metrics = endpoint.metrics.map((metric) =>
      isRepetitionGate(metric) && (isSuiteMeasured ? metric.verdict === "unchanged" : metric.verdict !== "inconclusive")
        ? { ...metric, verdict: "inconclusive" as const, inconclusiveKind: "undecided" as const, reason: `undecided: ${formatDeltaPct(metric.deltaPct)}, but ${why}` }
        : metric,
    );
    return { ...endpoint, metrics, verdict: endpointVerdict(metrics) };
  });
}
