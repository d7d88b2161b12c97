/**
 * One benchmark run against one, judged on each run's repetitions and beyond the machine's shift
 * (docs/benchmarks.md, "Statistics"): what `compareMetric` (metric-comparison.ts) uses when a metric is a
 * benchmark's mean time per operation and each side has a single run.
 */
import type { SuiteShifts } from "./benchmark-suite";
import { describeHeadShift, PRIOR_DEGREES_OF_FREEDOM, RUN_TO_RUN_NOISE_PRIOR } from "./benchmark-suite";
import type { ComparableRun, CompareOptions, MetricComparison } from "./comparison";
import { MIN_RUNS_IN_ALL } from "./comparison";
import { formatDeltaPct, formatPct } from "../format";
import type { MetricDefinition } from "../metrics";
import { METRICS } from "../metrics";
import type { Better, EndpointResult } from "../run";
import { isBenchmark } from "../run";
import { RELATIVE_NOISE_FLOOR } from "../stats/shift-test";
import { lowerTQuantile, twoSidedTPValue } from "../stats/t-distribution";
import type { Verdict } from "../stats/verdict";
import { decideVerdict, SIGNIFICANCE_TEST_NAMES } from "../stats/verdict";
import { welchSatterthwaiteDf, type SampleMoments } from "../stats/welch-t-test";

/** Whether a metric of these results is judged beyond each run's machine shift: a benchmark's mean time per operation, with the suite's shifts measured. */
export function isMachineJudged(spec: MetricDefinition, suite: SuiteShifts | null, results: readonly (EndpointResult | undefined)[]): suite is SuiteShifts {
  return suite !== null && spec.name === METRICS.mean.name && results.some((result) => result !== undefined && isBenchmark(result));
}

/** The head's change beyond its machine shift, for one benchmark run against one (the pairwise suite). */
export interface MachineAdjustment {
  /** head's shift − base's shift, on the log scale. */
  shift: number;
  /** The standard error of that shift. */
  shiftStandardError: number;
  /** Run-to-run noise beyond the repetitions (log sd) and its degrees of freedom. */
  tau: number;
  tauDf: number;
  /** The shift in words. */
  how: string;
}

export function machineOf(suite: SuiteShifts | null, base: ComparableRun, head: ComparableRun): MachineAdjustment {
  if (suite === null || suite.head === null || suite.mode !== "pairwise") {
    return { shift: 0, shiftStandardError: 0, tau: RUN_TO_RUN_NOISE_PRIOR, tauDf: PRIOR_DEGREES_OF_FREEDOM, how: `no machine shift measured (too few benchmarks), noise beyond the repetitions taken as ${formatPct(RUN_TO_RUN_NOISE_PRIOR, 1)}` };
  }
  const shift = (suite.byRun.get(head.id) ?? 0) - (suite.byRun.get(base.id) ?? 0);
  const { tau, tauFrom, standardError } = suite.head;
  return { shift, shiftStandardError: standardError, tau, tauDf: tauFrom > 0 ? tauFrom - 1 : PRIOR_DEGREES_OF_FREEDOM, how: describeHeadShift(suite) };
}

/**
 * A change beyond the machine decides the verdict; the change itself, as measured, must be at least the
 * minimum effect the same way (a benchmark 25% beyond a machine 20% faster, unchanged itself, is not
 * flagged: the shift is an estimate, and no user would call it slower).
 */
export function judgeBeyondMachine(
  input: { better: Better; deltaPct: number; beyondPct: number; pValue: number },
  options: Pick<CompareOptions, "minEffectPct" | "alpha">,
): { verdict: Verdict; reason: string } {
  const decision = decideVerdict({ better: input.better, deltaPct: input.beyondPct, pValue: input.pValue }, options);
  const beyond = `${formatDeltaPct(input.beyondPct)} beyond the machine (${formatDeltaPct(input.deltaPct)} as measured)`;
  const isOwnAlike = Math.abs(input.deltaPct) >= options.minEffectPct && Math.sign(input.deltaPct) === Math.sign(input.beyondPct);
  if ((decision.verdict === "regressed" || decision.verdict === "improved") && !isOwnAlike) {
    return { verdict: "unchanged", reason: `${beyond}: ${decision.reason}, but as measured it is not a ${options.minEffectPct}% change the same way` };
  }
  return { verdict: decision.verdict, reason: `${beyond}: ${decision.reason}` };
}

/**
 * The repetitions within one benchmark run on each side (docs/benchmarks.md, "Statistics"): the time per
 * operation's mean, standard deviation and sample count that the tool measured (go test -count, hyperfine
 * runs, pytest rounds, Google Benchmark repetitions, vitest samples). Only for the mean time per
 * operation of benchmarks, and only when each side has at least 2 samples and their sd.
 */
export function repetitionsOf(spec: MetricDefinition, base: EndpointResult | undefined, head: EndpointResult | undefined): { base: SampleMoments; head: SampleMoments } | null {
  if (spec.name !== METRICS.mean.name || !base || !head || !isBenchmark(base) || !isBenchmark(head)) return null;
  const moments = (result: EndpointResult): SampleMoments | null => {
    const { meanMs, stdDevMs } = result.latency;
    const n = result.requests;
    if (n === null || n < 2 || meanMs === null || stdDevMs === null) return null;
    return { n, mean: meanMs, variance: stdDevMs * stdDevMs };
  };
  const baseMoments = moments(base);
  const headMoments = moments(head);
  if (!baseMoments || !headMoments || baseMoments.n + headMoments.n < MIN_RUNS_IN_ALL) return null;
  return { base: baseMoments, head: headMoments };
}

/**
 * One benchmark run against one: Welch's t test on the log of the two runs' mean times per operation
 * (the ratio of means by the delta method: each side's variance of its log mean is cv²/n), from their
 * repetitions' moments; benchstat runs Mann–Whitney on the same repetitions, which needs the samples
 * themselves. One-sided, with each side's spread floored at 0.1% of its level and at the tool's resolution
 * (shift-test.ts). On the log scale a change is a ratio whatever the level, as the suite stage reads it
 * (benchmark-suite.ts); the interval of Δ% is the ratio's. `standardError` is the log ratio's, in units of
 * the base level (a relative standard error times the base mean), as detectableChangePct reads it.
 * Why it can be trusted less than runs against runs: repetitions within one run share that run's machine
 * state, so a burst that slows a whole run is not in their spread (benchmark-suite.ts measures that from the
 * suite). The noise band takes over as soon as the series has history enough (noise-band.ts), and rounds
 * (several runs a side) are compared run against run.
 */
export function compareRepetitions(
  spec: MetricDefinition,
  sides: { base: SampleMoments; head: SampleMoments },
  common: Omit<MetricComparison, "deltaPctCi95" | "pValue" | "test" | "noiseBandPct" | "verdict" | "reason" | "inconclusiveKind">,
  resolution: number,
  options: CompareOptions,
  machine: MachineAdjustment,
): MetricComparison {
  const { base, head } = sides;
  if (!(base.mean > 0 && head.mean > 0)) {
    return { ...common, deltaPct: null, deltaPctCi95: null, pValue: null, test: null, noiseBandPct: null, verdict: "inconclusive", reason: "relative change undefined: a mean time per operation is 0", inconclusiveKind: "no-data" };
  }
  // Each side's relative variance of its mean, floored (0.1% of the level; the resolution's quantisation noise).
  const term = (side: SampleMoments) => {
    const floorSd = Math.max(RELATIVE_NOISE_FLOOR * side.mean, resolution / Math.sqrt(12));
    return Math.max(side.variance, floorSd * floorSd) / (side.mean * side.mean) / side.n;
  };
  const baseTerm = term(base);
  const headTerm = term(head);
  const withinVariance = baseTerm + headTerm;
  const withinDf = welchSatterthwaiteDf(baseTerm, base.n, headTerm, head.n);
  // Beyond the repetitions: the run-to-run noise τ of a benchmark, and the uncertainty of the machine's shift.
  const extraVariance = machine.tau ** 2 + machine.shiftStandardError ** 2;
  const logStandardError = Math.sqrt(withinVariance + extraVariance);
  const degreesOfFreedom = satterthwaiteDf(withinVariance, withinDf, extraVariance, machine.tauDf);
  const logRatio = Math.log(head.mean / base.mean);
  const deltaPct = Math.expm1(logRatio) * 100;
  const beyond = logRatio - machine.shift;
  const within = Math.abs(head.mean - base.mean) <= resolution;
  const pValue = within ? 1 : twoSidedTPValue(beyond / logStandardError, degreesOfFreedom) / 2;
  const judged = judgeBeyondMachine({ better: spec.better!, deltaPct, beyondPct: Math.expm1(beyond) * 100, pValue }, options);
  const halfWidth = lowerTQuantile(0.975, degreesOfFreedom) * logStandardError;
  const how = `1 vs 1 on each run's repetitions (${head.n} vs ${base.n} samples, ${SIGNIFICANCE_TEST_NAMES.welch} on the log ratio, one-sided, beyond ${machine.how})`;
  return {
    ...common,
    deltaPct,
    deltaPctCi95: [Math.expm1(logRatio - halfWidth) * 100, Math.expm1(logRatio + halfWidth) * 100],
    pValue,
    test: "repetitions",
    noiseBandPct: null,
    verdict: judged.verdict,
    reason: `${how}: ${judged.reason}`,
    inconclusiveKind: null,
    standardError: logStandardError * base.mean,
    degreesOfFreedom,
  };
}

/** Welch–Satterthwaite degrees of freedom of a sum of two variance estimates. */
function satterthwaiteDf(a: number, dfA: number, b: number, dfB: number): number {
  const denominator = (a * a) / dfA + (b * b) / dfB;
  return denominator === 0 ? Math.min(dfA, dfB) : (a + b) ** 2 / denominator;
}
