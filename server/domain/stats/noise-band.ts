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
 */
import type { Better } from "../run";
import { detectChangePoints } from "./change-points";
import { formatDeltaPct } from "../format";
import { median } from "./descriptive";
import { assertFiniteValues, isInsufficient } from "./insufficient";
import { percentChange } from "./relative-change";
import { DEFAULT_VERDICT_OPTIONS, isWorse, type Verdict } from "./verdict";

export const MIN_NOISE_HISTORY = 5;

/**
 * The part of a history the noise band is learnt from: after its last change point, so a past step
 * (a regression, a hardware change) is not taken for noise. The whole history when it has none.
 */
export function historySinceLastChange(history: readonly number[]): readonly number[] {
  const changes = detectChangePoints(history);
  const last = changes.at(-1);
  return last ? history.slice(last.index) : history;
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
