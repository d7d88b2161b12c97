/**
 * Relative change of means, head vs base, in percent, with a 95% confidence interval.
 *
 *   delta = x̄_head − x̄_base,   relativeDelta = delta / x̄_base,   deltaPct = 100 · relativeDelta
 *
 * Interval: Fieller's theorem for the ratio ρ = μ_head / μ_base of two independent means, then
 * Δ% = 100·(ρ − 1). With v = s²/n per side, g = t²·v_b / x̄_b² and ρ̂ = x̄_h / x̄_b:
 *
 *   ρ = [ ρ̂ ± (t / |x̄_b|) · √( v_h·(1 − g) + ρ̂²·v_b ) ] / (1 − g)
 *
 * t is the 97.5% quantile of Student's t with the Welch–Satterthwaite df of v_h + ρ̂²·v_b (the
 * variance of x̄_h − ρ·x̄_b at ρ = ρ̂).
 * Why Fieller rather than dividing the Welch interval of the difference by x̄_base (tachometer's
 * shortcut) or the delta method: both ignore or linearise the uncertainty of the denominator, which
 * with 5 rounds is not small; Fieller's interval is exact for normal means and becomes asymmetric
 * when it should. When g ≥ 1 the base mean is not clearly different from zero and the interval is
 * unbounded: that is reported as insufficient data rather than as an infinite interval.
 * References: Fieller (1954), "Some problems in interval estimation", JRSS B 16(2); Franz (2007),
 * "Ratios: a short guide to confidence limits and proper use", arXiv:0710.2024.
 */
import { assertFiniteValues, insufficientData, tooFewValues, type InsufficientData } from "./insufficient";
import { mean, sampleVariance, type Interval } from "./descriptive";
import { twoSidedTCritical } from "./t-distribution";
import { welchSatterthwaiteDf } from "./welch-t-test";

export interface RelativeChange {
  readonly status: "ok";
  /** 100 · (x̄_head − x̄_base) / x̄_base. */
  readonly deltaPct: number;
  /** 95% Fieller interval of deltaPct. */
  readonly ci95: Interval;
  readonly degreesOfFreedom: number;
}

export type RelativeChangeResult = RelativeChange | InsufficientData;

export interface PercentChange {
  readonly status: "ok";
  readonly deltaPct: number;
}

/** 100 · (head − base) / base for two single numbers; insufficient when base is 0. */
export function percentChange(base: number, head: number): PercentChange | InsufficientData {
  if (base === 0) return insufficientData("relative change undefined: the base value is 0");
  return { status: "ok", deltaPct: (100 * (head - base)) / base };
}

export function relativeChangeOfMeans(base: readonly number[], head: readonly number[]): RelativeChangeResult {
  if (base.length < 2) return tooFewValues(2, base.length, "base values");
  if (head.length < 2) return tooFewValues(2, head.length, "head values");
  assertFiniteValues(base, "base");
  assertFiniteValues(head, "head");

  const baseMean = mean(base);
  const headMean = mean(head);
  if (baseMean === 0) return insufficientData("relative change undefined: the base mean is 0");

  const baseTerm = sampleVariance(base) / base.length;
  const headTerm = sampleVariance(head) / head.length;
  const ratio = headMean / baseMean;
  const degreesOfFreedom = welchSatterthwaiteDf(headTerm, head.length, ratio * ratio * baseTerm, base.length);
  const t = twoSidedTCritical(0.95, degreesOfFreedom);
  const g = (t * t * baseTerm) / (baseMean * baseMean);
  if (g >= 1) {
    return insufficientData(
      "relative change interval unbounded: the base mean is not clearly different from 0 (Fieller g ≥ 1)",
    );
  }
  const halfWidth = (t / Math.abs(baseMean)) * Math.sqrt(headTerm * (1 - g) + ratio * ratio * baseTerm);
  const lowRatio = (ratio - halfWidth) / (1 - g);
  const highRatio = (ratio + halfWidth) / (1 - g);
  return {
    status: "ok",
    deltaPct: 100 * (ratio - 1),
    ci95: [100 * (lowRatio - 1), 100 * (highRatio - 1)],
    degreesOfFreedom,
  };
}
