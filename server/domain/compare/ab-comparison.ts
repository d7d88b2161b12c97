/**
 * A same-job A/B job's gate metrics, pair by pair (docs/statistics.md, "A/B jobs"). The job ran the base
 * and the head one after the other, ABBA…; each pair's runs shared the machine's state, so a burst that
 * slows the job slows both sides and cancels in the pair's ratio. Each gate metric is judged on the log
 * ratios d_j = log(head_j / base_j) of its pairs, with a sequential probability ratio test (Wald 1945):
 *
 *   H0: no change (δ = 0)   against   H1: a slowdown of D (δ = D),
 *   D = max(the minimum effect, 4 σ) on the log scale, σ the metric's run-to-run noise (below):
 *   the slowdown the job promises to catch 95% of the time. With σ_d the noise of one pair's ratio,
 *   Λ_k = (D / σ_d²) · (Σ d_j − k · D / 2)   after k pairs;
 *   regressed when Λ_k ≥ ln((1 − β) / α′) (and the mean change is at least the minimum effect),
 *   unchanged when Λ_k ≤ ln(β / (1 − α′)): no slowdown of D or more; else undecided: another pair.
 * α′ = α / m over the m gate metrics judged (Bonferroni: valid whatever their dependence), β = 0.05. Wald's
 * bounds keep the error rates at most about α′ and β however many pairs are run (Wald 1945, §3.2), so the
 * job may stop at any pair. An improvement is the same test towards −D.
 *
 * σ_d², the noise of one pair's ratio: a model — the repetitions' variance plus twice a run's noise σ²,
 * σ the series' run-to-run noise when it has history (robust successive differences, noise-band.ts: a load
 * test's usual source), else the prior (benchmark-suite.ts); for a suite of benchmarks, the suite's noise
 * beyond each pair's machine shift — weighed as MODEL_WEIGHT_PAIRS pairs against the variance of the job's
 * own pairs (a pooled estimate, as a conjugate prior would: the job's runs share their machine, so they
 * usually vary less than the series; a noisier job is judged on its own noise).
 */
import { formatDeltaPct, formatPct } from "../format";
import type { EndpointResult } from "../run";
import { isBenchmark } from "../run";
import type { MetricDefinition } from "../metrics";
import { learnRunToRunNoisePct, noiseHistory } from "../stats/noise-band";
import { twoSidedTPValue } from "../stats/t-distribution";
import { isWorse } from "../stats/verdict";
import type { ComparableRun, CompareOptions, MetricComparison } from "./comparison";
import { RUN_TO_RUN_NOISE_PRIOR } from "./benchmark-suite";
import type { SuiteShifts } from "./benchmark-suite";

/** The power the job promises at D, and the multiple of the noise D is. */
export const AB_POWER = 0.95;
export const AB_DETECTABLE_NOISE_MULTIPLE = 4;
/**
 * A benchmark suite's A/B job decides nothing before a whole ABBA cycle (2 pairs): a burst of other work
 * during one benchmark of one run moves that benchmark alone by up to 2x (benchmark-suite.ts,
 * SINGLE_BENCHMARK_BURST), which one pair cannot tell from a change; and the cycle cancels a steady drift.
 * A load test's run lasts minutes, and a burst moves its pair as a whole: one pair may decide.
 */
export const MIN_BENCHMARK_PAIRS = 2;
/** The noise model (the series' history, or the suite's, or the prior) weighs as this many pairs' degrees of freedom against the job's own spread. */
const MODEL_WEIGHT_PAIRS = 3;

/** A run's value of the metric, and the relative variance of that value from its repetitions (benchmarks' mean). */
function readValue(spec: MetricDefinition, result: EndpointResult | undefined): { value: number; repetitionVariance: number } | null {
  const value = result ? spec.read(result) : null;
  if (value === null || !(value > 0)) return null;
  let repetitionVariance = 0;
  if (result && isBenchmark(result) && spec.name === "mean" && result.requests !== null && result.requests >= 2 && result.latency.stdDevMs !== null) {
    repetitionVariance = (result.latency.stdDevMs / value) ** 2 / result.requests;
  }
  return { value, repetitionVariance };
}

const sampleVariance = (values: readonly number[]) => {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1);
};

export interface AbContext {
  /** How many gate metrics the job judges (α is divided among them). */
  familySize: number;
  /** A suite of benchmarks: each pair's machine shift and the noise beyond it (benchmark-suite.ts, mode "pairs"). */
  suite: SuiteShifts | null;
}

/**
 * One gate metric of an A/B job, judged pair by pair. `common` is the comparison's shared part, as
 * metric-comparison.ts builds it.
 */
export function compareAbPairs(
  spec: MetricDefinition,
  pairs: readonly { base: ComparableRun; head: ComparableRun }[],
  pick: (run: ComparableRun) => EndpointResult | undefined,
  common: Omit<MetricComparison, "deltaPct" | "deltaPctCi95" | "pValue" | "test" | "noiseBandPct" | "verdict" | "reason" | "inconclusiveKind">,
  options: CompareOptions,
  historyValues: readonly number[],
  context: AbContext,
): MetricComparison {
  // A suite of benchmarks: each pair's ratio beyond that pair's machine shift, and the suite's noise beyond the repetitions.
  const suite = context.suite?.mode === "pairs" && context.suite.pairNoise !== null && spec.name === "mean" ? context.suite : null;
  const shiftOf = (run: ComparableRun) => (suite ? (suite.byRun.get(run.id) ?? 0) : 0);
  const read = pairs.flatMap((pair) => {
    const base = readValue(spec, pick(pair.base));
    const head = readValue(spec, pick(pair.head));
    const d = base && head ? Math.log(head.value / base.value) - (shiftOf(pair.head) - shiftOf(pair.base)) : null;
    return base && head ? [{ d: d!, repetitionVariance: base.repetitionVariance + head.repetitionVariance }] : [];
  });
  const k = read.length;
  const judged = { ...common, noiseBandPct: null, deltaPctCi95: null, test: "ab-pairs" as const };
  if (k === 0 || spec.better === null) {
    return { ...judged, deltaPct: null, pValue: null, verdict: "inconclusive", inconclusiveKind: "no-data", reason: `no complete pair has ${spec.name} on both sides` };
  }
  const meanD = read.reduce((sum, pair) => sum + pair.d, 0) / k;
  const deltaPct = Math.expm1(meanD) * 100;
  // A run's noise beyond what its pair shares: a suite's, measured on the job's own pairs beyond each pair's
  // machine shift (per pair's ratio); else the series' history, else the prior (per run: twice in a ratio).
  const history = noiseHistory(historyValues);
  const learnt = suite === null && history.length >= 5 ? learnRunToRunNoisePct(history) : null;
  // learnRunToRunNoisePct is the noise of a difference of two successive runs: a pair's ratio, as is.
  // A noise learnt from a few runs is itself uncertain: its variance is taken up by ν / (ν − 2), the
  // variance of a t with the estimate's effective degrees of freedom (a MAD of successive differences keeps
  // about 37% of the runs' information: ν ≈ 0.37 (n − 1), at least 3), so a history that happens to look
  // calm does not make a small pair ratio look significant.
  const historyDf = Math.max(3, 0.37 * (history.length - 1));
  const pairExtra = suite
    ? suite.pairNoise!.tau ** 2
    : learnt === null
      ? 2 * RUN_TO_RUN_NOISE_PRIOR ** 2
      : (Math.log1p(learnt / 100) ** 2 * historyDf) / (historyDf - 2);
  const runNoise = Math.sqrt(pairExtra / 2);
  const repetitionVariance = read.reduce((sum, pair) => sum + pair.repetitionVariance, 0) / k;
  const modelVariance = repetitionVariance + pairExtra;
  // The job's own pairs, as they come, weigh against the model (ν0 pairs' worth): a job whose runs share
  // their machine varies less than the series did, and one noisier than the model is judged on its noise.
  const spread = k >= 2 ? sampleVariance(read.map((pair) => pair.d)) : 0;
  const pairVariance = (MODEL_WEIGHT_PAIRS * modelVariance + (k - 1) * spread) / (MODEL_WEIGHT_PAIRS + k - 1);
  const pairSd = Math.sqrt(pairVariance);
  const minEffect = Math.log1p(options.minEffectPct / 100);
  // D follows the noise the job expects (its model: repetitions, the suite's or the series' noise), not the
  // spread its pairs happen to show: a noisier job needs more pairs to decide, it does not lower its aim.
  const detectable = Math.max(minEffect, AB_DETECTABLE_NOISE_MULTIPLE * Math.sqrt(modelVariance / 2));
  const alpha = options.alpha / Math.max(1, context.familySize);
  const beta = 1 - AB_POWER;
  const upper = Math.log((1 - beta) / alpha);
  const lower = Math.log(beta / (1 - alpha));
  const sum = read.reduce((total, pair) => total + pair.d, 0);
  // Towards a slowdown and towards an improvement, in the metric's own direction.
  const worseSign = isWorse(spec.better, 1) ? 1 : -1;
  const llr = (sign: number) => (detectable / pairVariance) * (sign * sum - (k * detectable) / 2);
  const towardsWorse = llr(worseSign);
  const towardsBetter = llr(-worseSign);
  const standardError = pairSd / Math.sqrt(k);
  // Informational (the verdict is the sequential test's): a t test of the mean ratio, with the pooled variance's degrees of freedom.
  const pValue = twoSidedTPValue(Math.abs(meanD) / standardError, MODEL_WEIGHT_PAIRS + k - 1) / 2;
  const noise = suite
    ? `${formatPct(runNoise, 1)} (the suite's, beyond each pair's machine shift of the whole run)`
    : learnt === null
      ? `${formatPct(runNoise, 1)} (the prior: no history yet)`
      : `${formatPct(runNoise, 1)} (the series' history)`;
  const how =
    `A/B job, ${k} pair${k === 1 ? "" : "s"}: head/base ${formatDeltaPct(deltaPct)} on average; sequential test against a slowdown of ` +
    `${formatDeltaPct(Math.expm1(detectable) * 100)} (max of the minimum effect and 4 × a run's noise of ${noise}), caught ${Math.round(AB_POWER * 100)}% of the time, ` +
    `false alarms at most ${Number((alpha * 100).toPrecision(2))}% for each of the ${context.familySize} judged`;
  const base = { ...judged, deltaPct, pValue, standardError: standardError * (common.base.mean ?? 1), degreesOfFreedom: null, detectablePct: Math.expm1(detectable) * 100 };
  if (suite !== null && k < MIN_BENCHMARK_PAIRS) {
    return {
      ...base,
      verdict: "inconclusive",
      inconclusiveKind: "undecided",
      undecidedBy: "pairs",
      reason: `undecided: ${how}: a benchmark decides after a whole ABBA cycle (${MIN_BENCHMARK_PAIRS} pairs), since a burst during one benchmark of one run can move it alone; another pair`,
    };
  }
  if (towardsWorse >= upper && Math.abs(meanD) >= minEffect) {
    return { ...base, verdict: "regressed", inconclusiveKind: null, reason: `${how}: regressed` };
  }
  if (towardsBetter >= upper && Math.abs(meanD) >= minEffect) {
    return { ...base, verdict: "improved", inconclusiveKind: null, reason: `${how}: improved` };
  }
  if (towardsWorse <= lower) {
    return { ...base, verdict: "unchanged", inconclusiveKind: null, reason: `${how}: no slowdown of ${formatDeltaPct(Math.expm1(detectable) * 100)} or more` };
  }
  return {
    ...base,
    verdict: "inconclusive",
    inconclusiveKind: "undecided",
    undecidedBy: "pairs",
    reason: `undecided: ${how}: neither yet; another pair would help decide`,
  };
}
