/**
 * One metric of one endpoint, base against head (docs/statistics.md): its sides' summaries, Δ% with a
 * Fieller CI, and a one-sided test with the resolution and noise floors of ../stats/shift-test.ts — or
 * the noise band for 1 vs 1 — and the verdict rule, before the family correction (families.ts).
 *
 * What a group value is, said plainly: a group's p95 is the MEAN OF PER-RUN p95s (n runs), not the p95
 * of all requests pooled. Where every run has a latency histogram, the pooled percentile is given
 * beside it.
 */
import type { SampleSummary } from "../stats/descriptive";
import { summarizeSample } from "../stats/descriptive";
import { isInsufficient } from "../stats/insufficient";
import { percentileUnsupportedReason } from "../stats/percentile-support";
import { formatDeltaPct } from "../format";
import { compareWithNoiseBand, learnRunToRunNoisePct, noiseHistory } from "../stats/noise-band";
import { readPooledPercentile } from "../stats/pooled-percentile";
import { percentChange, relativeChangeOfMeans } from "../stats/relative-change";
import { lowerTQuantile, twoSidedTPValue } from "../stats/t-distribution";
import { RELATIVE_NOISE_FLOOR, testShift } from "../stats/shift-test";
import { welchSatterthwaiteDf, type SampleMoments } from "../stats/welch-t-test";
import { decideVerdict, SIGNIFICANCE_TEST_NAMES } from "../stats/verdict";
import { latencyResolutionMs } from "../parsers/resolution";
import type { EndpointResult } from "../run";
import { isBenchmark } from "../run";
import type { MetricDefinition } from "../metrics";
import { METRICS } from "../metrics";
import { compareExactMetric, isExactOnBothSides } from "./exact-metrics";
import type { SuiteShifts } from "./benchmark-suite";
import { compareAbPairs } from "./ab-comparison";
import { abPairsOf } from "./comparison";
import { describeHeadShift, PRIOR_DEGREES_OF_FREEDOM, RUN_TO_RUN_NOISE_PRIOR } from "./benchmark-suite";
import type { Better } from "../run";
import type { Verdict } from "../stats/verdict";
import { formatPct } from "../format";
import type { ComparableRun, CompareOptions, InconclusiveKind, MetricComparison, SideSummary } from "./comparison";
import { DETECTABLE_POWER, historyKey, MIN_BASE_RUNS, MIN_RUNS_IN_ALL } from "./comparison";

function summarizeSide(values: number[], runIds: string[]): SideSummary {
  const summary = summarizeSample(values);
  if (isInsufficient(summary)) {
    return { n: values.length, mean: values.length === 1 ? (values[0] ?? null) : null, sd: null, ci95: null, values, runIds };
  }
  const ok: SampleSummary = summary;
  return { n: ok.n, mean: ok.mean, sd: ok.sd, ci95: ok.ci95, values, runIds };
}

function collect(runs: readonly ComparableRun[], pick: (run: ComparableRun) => EndpointResult | undefined, spec: MetricDefinition) {
  const values: number[] = [];
  const runIds: string[] = [];
  let resolution = 0;
  for (const run of runs) {
    const result = pick(run);
    const value = result ? spec.read(result) : null;
    if (value !== null && Number.isFinite(value)) {
      values.push(value);
      runIds.push(run.id);
      resolution = Math.max(resolution, latencyResolutionMs(run.format, spec.name, value));
    }
  }
  return { values, runIds, resolution };
}

function aggregationLabel(spec: MetricDefinition, n: number): string {
  const runs = `${n} run${n === 1 ? "" : "s"}`;
  if (n === 1) return `${spec.name} of the run`;
  return `mean of per-run ${spec.name} (${runs})`;
}

function pooledPercentile(
  spec: MetricDefinition,
  base: readonly (EndpointResult | undefined)[],
  head: readonly (EndpointResult | undefined)[],
): MetricComparison["pooled"] {
  if (spec.percentile === null) return null;
  const histogramsOf = (results: readonly (EndpointResult | undefined)[]) =>
    results.every((result) => result?.histogram) ? results.map((result) => result!.histogram!) : null;
  const baseHistograms = histogramsOf(base);
  const headHistograms = histogramsOf(head);
  if (!baseHistograms?.length || !headHistograms?.length) return null;
  const basePooled = readPooledPercentile(baseHistograms, spec.percentile);
  const headPooled = readPooledPercentile(headHistograms, spec.percentile);
  if (isInsufficient(basePooled) || isInsufficient(headPooled)) return null;
  const change = percentChange(basePooled.valueMs, headPooled.valueMs);
  return {
    baseMs: basePooled.valueMs,
    headMs: headPooled.valueMs,
    deltaPct: isInsufficient(change) ? null : change.deltaPct,
  };
}

export const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** What would decide a comparison that has too few runs: "3 more rounds of the head, or 3 more base runs". */
export function runsNeededReason(baseRuns: number, headRuns: number): string {
  const baseMissing = Math.max(0, MIN_BASE_RUNS - baseRuns);
  const allMissing = Math.max(0, MIN_RUNS_IN_ALL - baseRuns - headRuns);
  const have = `have ${baseRuns} base + ${headRuns} head`;
  const need = `need ${MIN_RUNS_IN_ALL} runs in all with at least ${MIN_BASE_RUNS} in the base (${have})`;
  if (baseMissing > 0) {
    const rest = allMissing - baseMissing;
    return `${need}: ${plural(baseMissing, "more base run")}${rest > 0 ? ` and ${rest} more on either side` : ""} would decide`;
  }
  return `${need}: ${allMissing} more round${allMissing === 1 ? "" : "s"} of the head, or ${plural(allMissing, "more base run")}, would decide`;
}

/** The series' longer-run noise at the base's level: robust successive differences (noise-band.ts) / √2 for one run. */
function longRunSd(history: readonly number[] | undefined, level: number): number | null {
  if (!history || history.length < 5) return null;
  const noisePct = learnRunToRunNoisePct(history);
  return noisePct === null ? null : ((noisePct / 100) * Math.abs(level)) / Math.SQRT2;
}

export function compareMetric(
  endpointName: string,
  spec: MetricDefinition,
  baseRuns: readonly ComparableRun[],
  headRuns: readonly ComparableRun[],
  pick: (run: ComparableRun) => EndpointResult | undefined,
  options: CompareOptions,
  isGate: boolean,
  context: MetricContext = NO_CONTEXT,
): MetricComparison {
  const { suite } = context;
  const baseData = collect(baseRuns, pick, spec);
  const headData = collect(headRuns, pick, spec);
  const base = summarizeSide(baseData.values, baseData.runIds);
  const head = summarizeSide(headData.values, headData.runIds);
  const resolution = Math.max(baseData.resolution, headData.resolution);
  const common = {
    metric: spec.name,
    unit: spec.unit,
    better: spec.better,
    aggregation: aggregationLabel(spec, Math.max(base.n, head.n)),
    base,
    head,
    pooled: pooledPercentile(spec, baseRuns.map(pick), headRuns.map(pick)),
    adjustedPValue: null,
    gate: isGate,
    resolution: resolution > 0 ? resolution : null,
    standardError: null,
    degreesOfFreedom: null,
    detectablePct: null,
  };
  const inconclusive = (kind: InconclusiveKind, reason: string): MetricComparison => ({
    ...common,
    deltaPct: null,
    deltaPctCi95: null,
    pValue: null,
    test: null,
    noiseBandPct: null,
    verdict: "inconclusive",
    reason,
    inconclusiveKind: kind,
  });

  if (base.n === 0 || head.n === 0) {
    return inconclusive("no-data", `no ${spec.name} on the ${base.n === 0 ? "base" : "head"} side`);
  }
  // A count the tool measured exactly (allocations, instructions): compared as such, no test, no history.
  if (isExactOnBothSides(spec, baseRuns.map(pick), headRuns.map(pick))) return compareExactMetric(spec, common, { base, head }, options);
  // An A/B job's gate metric: pair by pair, sequentially (ab-comparison.ts).
  const pairs = isGate ? abPairsOf(baseRuns, headRuns) : null;
  if (pairs) return compareAbPairs(spec, pairs, pick, common, options, options.history?.get(historyKey(endpointName, spec.name)) ?? [], { familySize: context.abFamilySize, suite });
  if (spec.percentile !== null) {
    const judged = new Set([...baseData.runIds, ...headData.runIds]);
    const counts = [...baseRuns, ...headRuns].filter((run) => judged.has(run.id)).map((run) => pick(run)?.requests ?? null);
    const unsupported = percentileUnsupportedReason(spec.percentile, counts);
    if (unsupported) return inconclusive("too-few-requests", unsupported);
  }
  if (base.mean === 0 && head.mean === 0) {
    return { ...inconclusive("no-data", "0 on both sides"), deltaPct: 0, verdict: "unchanged", inconclusiveKind: null };
  }
  const change = base.mean !== null && head.mean !== null ? percentChange(base.mean, head.mean) : null;
  const deltaPct = change === null || isInsufficient(change) ? null : change.deltaPct;
  if (spec.better === null) {
    // Shown with its change, never judged: nobody said whether up or down is the improvement.
    return { ...inconclusive("no-data", "direction unknown: the tool did not say whether lower or higher is better, so no verdict"), deltaPct };
  }
  if (base.n === 1 && head.n === 1) {
    const history = noiseHistory(options.history?.get(historyKey(endpointName, spec.name)) ?? []);
    const result = compareWithNoiseBand(base.values[0]!, head.values[0]!, history, {
      better: spec.better,
      minEffectPct: options.minEffectPct,
    });
    const isShort = result.verdict === "inconclusive" && result.noiseBandPct === null;
    // A benchmark's run repeats its measurement: without a band yet, its repetitions decide.
    const repeated = isShort ? repetitionsOf(spec, pick(baseRuns[0]!), pick(headRuns[0]!)) : null;
    if (repeated) return compareRepetitions(spec, repeated, { ...common, deltaPct: result.deltaPct }, resolution, options, machineOf(suite, baseRuns[0]!, headRuns[0]!));
    return {
      ...common,
      deltaPct: result.deltaPct,
      deltaPctCi95: null,
      pValue: null,
      test: "noise-band",
      noiseBandPct: result.noiseBandPct,
      verdict: result.verdict,
      reason: `1 vs 1, judged against the noise band of recent history: ${result.reason}`,
      inconclusiveKind: result.verdict === "inconclusive" ? (isShort ? "too-little-history" : "no-data") : null,
    };
  }
  if (base.n < MIN_BASE_RUNS || base.n + head.n < MIN_RUNS_IN_ALL) {
    return { ...inconclusive("too-little-history", runsNeededReason(base.n, head.n)), deltaPct };
  }
  if (deltaPct === null) return inconclusive("no-data", "relative change undefined: the base mean is 0");
  // A benchmark's runs each divided by their run's machine factor (benchmark-suite.ts): judged beyond the machine.
  const machine = isMachineJudged(spec, suite, [...baseRuns, ...headRuns].map(pick)) ? suite : null;
  const normalize = (side: SideSummary) => side.values.map((value, index) => value * Math.exp(-(machine!.byRun.get(side.runIds[index]!) ?? 0)));
  const shift = testShift({
    base: machine ? normalize(base) : base.values,
    head: machine ? normalize(head) : head.values,
    test: options.test,
    resolution,
    longRunSd: longRunSd(options.history?.get(historyKey(endpointName, spec.name)), base.mean!),
  });
  const interval = head.n >= 2 ? relativeChangeOfMeans(base.values, head.values) : null;
  const tested = {
    ...common,
    deltaPct,
    deltaPctCi95: interval === null || isInsufficient(interval) ? null : interval.ci95,
    test: shift.test,
    noiseBandPct: null,
    inconclusiveKind: null,
  };
  if (shift.isWithinResolution) {
    return {
      ...tested,
      pValue: null,
      verdict: "unchanged",
      reason: `${formatDeltaPct(deltaPct)} is within the tool's resolution (it writes ${spec.name} in steps of ${formatStep(resolution, spec.unit)})`,
    };
  }
  const how =
    shift.test === "prediction"
      ? `one head run against ${base.n} base runs (prediction-interval t test, one-sided)`
      : `${head.n} vs ${base.n} runs (${SIGNIFICANCE_TEST_NAMES[shift.test]}, one-sided)`;
  const floor = shift.floor === null ? "" : `; spread floored (${FLOOR_WORDS[shift.floor]})`;
  if (machine) {
    const normalizedMean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const beyondPct = 100 * (normalizedMean(normalize(head)) / normalizedMean(normalize(base)) - 1);
    const judged = judgeBeyondMachine({ better: spec.better, deltaPct, beyondPct, pValue: shift.pValue }, options);
    return {
      ...tested,
      pValue: shift.pValue,
      verdict: judged.verdict,
      reason: `${how}, each run's machine shift taken out (${describeHeadShift(machine)}): ${judged.reason}${floor}`,
      standardError: shift.standardError,
      degreesOfFreedom: shift.degreesOfFreedom,
    };
  }
  const decision = decideVerdict({ better: spec.better, deltaPct, pValue: shift.pValue }, options);
  return {
    ...tested,
    pValue: shift.pValue,
    verdict: decision.verdict,
    reason: `${how}: ${decision.reason}${floor}`,
    standardError: shift.standardError,
    degreesOfFreedom: shift.degreesOfFreedom,
  };
}

/** What a metric's comparison reads of the whole comparison: the suite's machine shifts, and how many gate metrics an A/B job judges. */
export interface MetricContext {
  suite: SuiteShifts | null;
  abFamilySize: number;
}
const NO_CONTEXT: MetricContext = { suite: null, abFamilySize: 1 };

/** Whether a metric of these results is judged beyond each run's machine shift: a benchmark's mean time per operation, with the suite's shifts measured. */
function isMachineJudged(spec: MetricDefinition, suite: SuiteShifts | null, results: readonly (EndpointResult | undefined)[]): suite is SuiteShifts {
  return suite !== null && spec.name === METRICS.mean.name && results.some((result) => result !== undefined && isBenchmark(result));
}

/** The head's change beyond its machine shift, for one benchmark run against one (the pairwise suite). */
interface MachineAdjustment {
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

function machineOf(suite: SuiteShifts | null, base: ComparableRun, head: ComparableRun): MachineAdjustment {
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
function judgeBeyondMachine(
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
function repetitionsOf(spec: MetricDefinition, base: EndpointResult | undefined, head: EndpointResult | undefined): { base: SampleMoments; head: SampleMoments } | null {
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
function compareRepetitions(
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

const FLOOR_WORDS = {
  resolution: "the runs agree to the tool's resolution: its quantisation noise is the floor",
  "long-run": "this window is much quieter than the series has been: half its longer-run noise is the floor",
  relative: "the runs agree to 0.1%: that is the floor",
} as const;

function formatStep(step: number, unit: string | null): string {
  return `${Number(step.toPrecision(3))}${unit === "ms" ? " ms" : unit ? ` ${unit}` : ""}`;
}

/**
 * The smallest change (% of the base) a one-sided test at level α/familySize would flag with 80%
 * power at this standard error: (t(1 − α/m, df) + t(0.8, df)) · SE, plus the resolution step, and never
 * below the minimum effect (the usual normal-approximation power formula with t quantiles; Cohen 1988, §2.3).
 */
export function detectableChangePct(metric: MetricComparison, options: Pick<CompareOptions, "alpha" | "minEffectPct">, familySize: number): number | null {
  const { standardError, degreesOfFreedom: df } = metric;
  const level = metric.base.mean;
  if (standardError === null || df === null || level === null || level === 0) return null;
  const absolute = (lowerTQuantile(1 - options.alpha / familySize, df) + lowerTQuantile(DETECTABLE_POWER, df)) * standardError + (metric.resolution ?? 0);
  return Math.max(options.minEffectPct, (100 * absolute) / Math.abs(level));
}
