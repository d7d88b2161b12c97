/**
 * Pairwise (1 vs 1) comparison against a noise band learnt from the endpoint's recent history on the
 * base branch.
 *
 * Noise band. For history x₁…x_k (k ≥ 5, oldest first), take successive relative differences
 *   d_i = (x_i − x_{i−1}) / median(x)
 * and their robust standard deviation σ_d = 1.4826 · median(|d_i|). The band is k_band · σ_d in percent
 * (k_band = 3 by default).
 * Why successive differences: a difference of two runs is exactly what a 1 vs 1 comparison looks at,
 * and it has the same spread (√2·σ) as head − base when both are ordinary runs; a past step in the
 * history spoils only one difference instead of inflating the whole spread, and a slow drift cancels
 * out (von Neumann et al. 1941, "The mean square successive difference", Ann. Math. Statist. 12(2)).
 * Why the median: one outlier run in the history must not widen the band; 1.4826 = 1/Φ⁻¹(3/4) makes
 * the median of |d| a consistent estimate of σ for normal noise (Rousseeuw & Croux 1993, JASA 88(424)).
 * Why 3: for normal noise a 3σ band is crossed by chance about 0.3% of the time.
 *
 * Decision: Δ% = 100·(head − base)/base; regressed/improved (by direction) when |Δ%| > max(minEffectPct,
 * band), else unchanged; inconclusive with fewer than 5 history points, or a zero base/median.
 *
 * History: the series' runs since its last known change (`sinceLastKnownChange`), the latest
 * NOISE_HISTORY_RUNS of them after any change point detected in them (`noiseHistory`). The compare
 * page's 1 vs 1 and the trend page's band (`learnNoiseBand`, clamped to the metric's range) both learn
 * by this one rule.
 */
import type { ValueRange } from "../metrics";
import { UNBOUNDED } from "../metrics";
import type { Better } from "../run";
import { detectChangePoints } from "./change-points";
import { formatDeltaPct } from "../format";
import { median } from "./descriptive";
import { assertFiniteValues, isInsufficient } from "./insufficient";
import { percentChange } from "./relative-change";
import { DEFAULT_VERDICT_OPTIONS, isWorse, type Verdict } from "./verdict";

export const MIN_NOISE_HISTORY = 5;
/** How many of a series' latest runs a noise band is learnt from, at most. */
export const NOISE_HISTORY_RUNS = 20;

/**
 * The part of a history the noise band is learnt from: after its last change point, so a past step
 * (a regression, a hardware change) is not taken for noise. The whole history when it has none.
 */
export function historySinceLastChange(history: readonly number[]): readonly number[] {
  const changes = detectChangePoints(history);
  const last = changes.at(-1);
  return last ? history.slice(last.index) : history;
}

/**
 * Where a series' current regime begins, as stored: a recorded change (a regression or improvement not
 * dismissed) at its first run, or a change marker at a time (the regime begins at the first run at or
 * after it).
 */
export type RegimeStart = { runId: string } | { at: number };

/**
 * Where, in a series' runs (oldest first), the regime of a moment begins: `at(time)` is the index of the
 * first run after the newest start known at that time (a recorded change at its first run, if that run
 * started by then; a marker at or before then, at the first run at or after it, or past the end when it
 * comes after every run); 0 when none.
 */
export function regimeStartIndex(
  runs: readonly { runId: string; time: number }[],
  starts: readonly RegimeStart[],
): (time: number) => number {
  const indexOf = new Map(runs.map((run, index) => [run.runId, index]));
  const known = starts.flatMap((start) => {
    if ("at" in start) {
      const index = runs.findIndex((run) => run.time >= start.at);
      return [{ time: start.at, index: index === -1 ? runs.length : index }];
    }
    const index = indexOf.get(start.runId);
    return index === undefined ? [] : [{ time: runs[index]!.time, index }];
  });
  return (time) => known.reduce((from, start) => (start.time <= time && start.index > from ? start.index : from), 0);
}

/** The runs (oldest first) of the regime a run started at `until` belongs to: since the newest known change before it. */
export function sinceLastKnownChange<R extends { runId: string; time: number }>(
  runs: readonly R[],
  starts: readonly RegimeStart[],
  until = Number.POSITIVE_INFINITY,
): R[] {
  return runs.slice(regimeStartIndex(runs, starts)(until));
}

/**
 * THE rule for what a noise band is learnt from, wherever one is shown or judged (the compare page's
 * 1 vs 1, the trend page's band): of the series' values before the judged run, oldest first, already cut
 * at its last known change (`sinceLastKnownChange`), the latest NOISE_HISTORY_RUNS, after the last change
 * point detected in them (a step not recorded yet, or on a branch detection does not watch).
 */
export function noiseHistory(values: readonly number[]): readonly number[] {
  return historySinceLastChange(values.slice(-NOISE_HISTORY_RUNS));
}

export const DEFAULT_NOISE_BAND_MULTIPLIER = 3;
/** 1 / Φ⁻¹(0.75): turns a median absolute value into a normal-consistent standard deviation. */
const MAD_TO_SD = 1.4826;

export interface NoiseBandOptions {
  readonly better: Better;
  readonly minEffectPct?: number;
  /** Width of the band in robust standard deviations of a run-to-run difference. */
  readonly bandMultiplier?: number;
}

export interface NoiseBandComparison {
  /** 100 · (head − base) / base; null when base is 0. */
  readonly deltaPct: number | null;
  /** Learnt band in percent; null with too little history. */
  readonly noiseBandPct: number | null;
  /** max(minEffectPct, noiseBandPct): what |Δ%| had to exceed. */
  readonly thresholdPct: number | null;
  readonly verdict: Verdict;
  readonly reason: string;
}

/** Run-to-run noise of a history, in percent of its median: 1.4826 · median(|Δx_i|) / median(x) · 100. */
export function learnRunToRunNoisePct(history: readonly number[]): number | null {
  if (history.length < 2) return null;
  const level = median(history);
  const spread = median(history.slice(1).map((value, i) => Math.abs(value - (history[i] ?? value))));
  if (level === null || level === 0 || spread === null) return null;
  return (100 * MAD_TO_SD * spread) / Math.abs(level);
}

/** A band in the metric's own unit: around the median of the history it was learnt from. */
export interface LearntBand {
  median: number;
  /** median − band, clamped to the metric's range (a latency band never goes below 0 ms). */
  low: number;
  /** median + band, clamped likewise (an error rate's never above 1). */
  high: number;
  /** How many runs it was learnt from (MIN_NOISE_HISTORY … NOISE_HISTORY_RUNS). */
  runs: number;
}

/**
 * The band around a history's median: median ± multiplier × run-to-run noise (the same width the 1 vs 1
 * judgement uses), clamped to the metric's range. Null with fewer than MIN_NOISE_HISTORY values or a
 * median of 0. `history` is what `noiseHistory` kept.
 * Why clamp: the noise is estimated symmetric, but a latency cannot be negative; a band reaching below 0
 * would only say the noise is large compared with the level, which the band's height already shows.
 */
export function learnNoiseBand(
  history: readonly number[],
  options: { bandMultiplier?: number; range?: ValueRange } = {},
): LearntBand | null {
  if (history.length < MIN_NOISE_HISTORY) return null;
  const noisePct = learnRunToRunNoisePct(history);
  const level = median(history);
  if (noisePct === null || level === null) return null;
  const range = options.range ?? UNBOUNDED;
  const halfWidth = ((options.bandMultiplier ?? DEFAULT_NOISE_BAND_MULTIPLIER) * noisePct * Math.abs(level)) / 100;
  return {
    median: level,
    low: Math.min(range.max, Math.max(range.min, level - halfWidth)),
    high: Math.max(range.min, Math.min(range.max, level + halfWidth)),
    runs: history.length,
  };
}

export function compareWithNoiseBand(
  base: number,
  head: number,
  history: readonly number[],
  options: NoiseBandOptions,
): NoiseBandComparison {
  assertFiniteValues([base, head], "base/head");
  assertFiniteValues(history, "history");
  const minEffectPct = options.minEffectPct ?? DEFAULT_VERDICT_OPTIONS.minEffectPct;
  const bandMultiplier = options.bandMultiplier ?? DEFAULT_NOISE_BAND_MULTIPLIER;

  const change = percentChange(base, head);
  const deltaPct = isInsufficient(change) ? null : change.deltaPct;
  if (deltaPct === null) {
    return {
      deltaPct,
      noiseBandPct: null,
      thresholdPct: null,
      verdict: "inconclusive",
      reason: "relative change undefined: the base value is 0",
    };
  }
  if (history.length < MIN_NOISE_HISTORY) {
    return {
      deltaPct,
      noiseBandPct: null,
      thresholdPct: null,
      verdict: "inconclusive",
      reason: `insufficient data: need ${MIN_NOISE_HISTORY} history points on the base branch to learn the noise band, have ${history.length}`,
    };
  }
  const noisePct = learnRunToRunNoisePct(history);
  if (noisePct === null) {
    return {
      deltaPct,
      noiseBandPct: null,
      thresholdPct: null,
      verdict: "inconclusive",
      reason: "noise band undefined: the history's median is 0",
    };
  }
  const noiseBandPct = bandMultiplier * noisePct;
  const thresholdPct = Math.max(minEffectPct, noiseBandPct);
  const changeText = formatDeltaPct(deltaPct);
  const limits = `noise band ±${noiseBandPct.toFixed(1)}% from ${history.length} runs, minimum effect ${minEffectPct}%`;
  if (Math.abs(deltaPct) <= thresholdPct) {
    return {
      deltaPct,
      noiseBandPct,
      thresholdPct,
      verdict: "unchanged",
      reason: `${changeText} is within ±${thresholdPct.toFixed(1)}% (${limits})`,
    };
  }
  const verdict = isWorse(options.better, deltaPct) ? "regressed" : "improved";
  return {
    deltaPct,
    noiseBandPct,
    thresholdPct,
    verdict,
    reason: `${changeText} is beyond ±${thresholdPct.toFixed(1)}% (${limits})`,
  };
}
