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
import { isPoolableHistogram, readPooledPercentile } from "../stats/pooled-percentile";
import { percentChange, relativeChangeOfMeans } from "../stats/relative-change";
import { lowerTQuantile } from "../stats/t-distribution";
import { testShift } from "../stats/shift-test";
import { decideVerdict, SIGNIFICANCE_TEST_NAMES } from "../stats/verdict";
import { latencyResolutionMs } from "../parsers/resolution";
import type { EndpointResult } from "../run";
import type { MetricDefinition } from "../metrics";
import { compareExactMetric, isExactOnBothSides } from "./exact-metrics";
import type { SuiteShifts } from "./benchmark-suite";
import { compareAbPairs } from "./ab-comparison";
import { abPairsOf } from "./comparison";
import { compareRepetitions, isMachineJudged, judgeBeyondMachine, machineOf, repetitionsOf } from "./repetitions";
import { describeHeadShift } from "./benchmark-suite";
import type { ComparableRun, CompareOptions, InconclusiveKind, MetricComparison, SideSummary } from "./comparison";
import { DETECTABLE_POWER, MIN_BASE_RUNS, MIN_RUNS_IN_ALL } from "./comparison";
import { historyKey } from "./series-history";

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
  /** The request counts of the runs with a value, in the same order. */
  const requests: (number | null)[] = [];
  let resolution = 0;
  for (const run of runs) {
    const result = pick(run);
    const value = result ? spec.read(result) : null;
    if (value !== null && Number.isFinite(value)) {
      values.push(value);
      runIds.push(run.id);
      requests.push(result!.requests ?? null);
      resolution = Math.max(resolution, latencyResolutionMs(run.format, spec.name, value));
    }
  }
  return { values, runIds, requests, resolution };
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
    results.every((result) => result?.histogram && isPoolableHistogram(result.histogram)) ? results.map((result) => result!.histogram!) : null;
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
  const baseResults = baseRuns.map(pick);
  const headResults = headRuns.map(pick);
  const common = {
    metric: spec.name,
    unit: spec.unit,
    better: spec.better,
    aggregation: aggregationLabel(spec, Math.max(base.n, head.n)),
    base,
    head,
    pooled: pooledPercentile(spec, baseResults, headResults),
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
  if (isExactOnBothSides(spec, baseResults, headResults)) return compareExactMetric(spec, common, { base, head }, options);
  // An A/B job's gate metric: pair by pair, sequentially (ab-comparison.ts).
  const pairs = isGate ? abPairsOf(baseRuns, headRuns) : null;
  if (pairs) return compareAbPairs(spec, pairs, pick, common, options, options.history?.get(historyKey(endpointName, spec.name)) ?? [], { familySize: context.abFamilySize, suite });
  if (spec.percentile !== null) {
    const unsupported = percentileUnsupportedReason(spec.percentile, [...baseData.requests, ...headData.requests]);
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
  const machine = isMachineJudged(spec, suite, [...baseResults, ...headResults]) ? suite : null;
  const normalize = (side: SideSummary) => side.values.map((value, index) => value * Math.exp(-(machine!.byRun.get(side.runIds[index]!) ?? 0)));
  const shift = testShift({
    base: machine ? normalize(base) : base.values,
    head: machine ? normalize(head) : head.values,
    test: options.test,
    resolution,
    longRunSd: longRunSd(options.history?.get(historyKey(endpointName, spec.name)), base.mean!),
  });
  const interval = head.n >= 2 ? relativeChangeOfMeans(base.values, head.values) : null;
  // One object made once (a suite's comparison makes thousands), in one literal (testedMetric).
  const tested = (judgement: Pick<MetricComparison, "pValue" | "verdict" | "reason" | "standardError" | "degreesOfFreedom">): MetricComparison =>
    testedMetric(common, {
      deltaPct,
      deltaPctCi95: interval === null || isInsufficient(interval) ? null : interval.ci95,
      test: shift.test,
      ...judgement,
    });
  if (shift.isWithinResolution) {
    return tested({
      pValue: null,
      verdict: "unchanged",
      reason: `${formatDeltaPct(deltaPct)} is within the tool's resolution (it writes ${spec.name} in steps of ${formatStep(resolution, spec.unit)})`,
      standardError: null,
      degreesOfFreedom: null,
    });
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
    return tested({
      pValue: shift.pValue,
      verdict: judged.verdict,
      reason: `${how}, each run's machine shift taken out (${describeHeadShift(machine)}): ${judged.reason}${floor}`,
      standardError: shift.standardError,
      degreesOfFreedom: shift.degreesOfFreedom,
    });
  }
  const decision = decideVerdict({ better: spec.better, deltaPct, pValue: shift.pValue }, options);
  return tested({
    pValue: shift.pValue,
    verdict: decision.verdict,
    reason: `${how}: ${decision.reason}${floor}`,
    standardError: shift.standardError,
    degreesOfFreedom: shift.degreesOfFreedom,
  });
}

/** What every comparison of a metric says whatever its test (compareMetric's `common`). */
type CommonFields = Pick<
  MetricComparison,
  "metric" | "unit" | "better" | "aggregation" | "base" | "head" | "pooled" | "adjustedPValue" | "gate" | "resolution" | "detectablePct"
>;

/**
 * A tested metric's comparison, every field named in one literal: V8 then makes it with its final shape
 * at once, where `{ ...common, ...judged }` copied 11 fields and grew the object field by field (the
 * gate of a 50-endpoint upload makes one per endpoint; a suite's comparison, thousands).
 */
function testedMetric(
  common: CommonFields,
  judged: Pick<MetricComparison, "deltaPct" | "deltaPctCi95" | "test" | "pValue" | "verdict" | "reason" | "standardError" | "degreesOfFreedom">,
): MetricComparison {
  return {
    metric: common.metric,
    unit: common.unit,
    better: common.better,
    aggregation: common.aggregation,
    base: common.base,
    head: common.head,
    deltaPct: judged.deltaPct,
    deltaPctCi95: judged.deltaPctCi95,
    pValue: judged.pValue,
    adjustedPValue: common.adjustedPValue,
    test: judged.test,
    noiseBandPct: null,
    verdict: judged.verdict,
    reason: judged.reason,
    inconclusiveKind: null,
    gate: common.gate,
    resolution: common.resolution,
    standardError: judged.standardError,
    degreesOfFreedom: judged.degreesOfFreedom,
    detectablePct: common.detectablePct,
    pooled: common.pooled,
  };
}

/** What a metric's comparison reads of the whole comparison: the suite's machine shifts, and how many gate metrics an A/B job judges. */
export interface MetricContext {
  suite: SuiteShifts | null;
  abFamilySize: number;
}
const NO_CONTEXT: MetricContext = { suite: null, abFamilySize: 1 };

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
