/**
 * How many rounds per side a group comparison needs to detect a change of a given size at the observed
 * noise: the sample-size calculation of the test the comparison itself runs (docs/statistics.md,
 * "How many rounds?").
 *
 * Welch's (or Student's) t-test, one-sided in the direction of the change as the verdict tests it
 * (stats/shift-test.ts), n rounds on each side, round-to-round standard deviations s_b and s_h:
 *
 *   n ≥ (t(1 − α, ν) + t(power, ν))² · (s_b² + s_h²) / δ²,   ν = (n − 1)(s_b² + s_h²)² / (s_b⁴ + s_h⁴)
 *
 * the smallest whole n ≥ 3 that satisfies it (ν is the Welch–Satterthwaite df at n per side; 3 because a
 * comparison needs 6 runs in all to judge at all, compare-runs.ts MIN_RUNS_IN_ALL). Why t
 * quantiles and not the textbook z formula 2(z₁₋α/₂ + z₁₋β)²σ²/δ²: with a handful of rounds the z formula
 * promises power it does not have (δ/σ = 1: 16 per side by z, which give 78%; 17 in truth). The t form
 * is the usual approximation of the noncentral-t power by a shifted central t; with equal spreads it
 * gives the integers of the exact noncentral-t answer (R's power.t.test; Cohen 1992, "A power primer",
 * Psychological Bulletin 112(1), Table 2: d = 0.5 → 64, d = 0.8 → 26), and the test simulates Welch's
 * test at its answer to check the 80%.
 *
 * Mann–Whitney U: the same n divided by the test's asymptotic relative efficiency against the t-test
 * under normal noise, 3/π ≈ 0.955 (Pitman ARE; Hodges & Lehmann 1956, Ann. Math. Statist. 27(2);
 * Lehmann 2006, "Nonparametrics", §2.4): the rank test with n rounds has about the power of the t-test
 * with 0.955·n. And never fewer rounds than the exact test needs to reach p < α at all (one-sided, 3 vs 3
 * cannot go below p = 0.05: 4 per side for α = 0.05).
 */
import { insufficientData, type InsufficientData } from "./insufficient";
import { exactTwoSidedPValue, MANN_WHITNEY_EXACT_MAX_SIZE } from "./mann-whitney";
import { lowerTQuantile } from "./t-distribution";
import type { SignificanceTest } from "./verdict";

/** The fewest rounds per side a comparison judges at all (6 runs in all). */
export const MIN_ROUNDS_PER_SIDE = 3;
/** Mann–Whitney's asymptotic relative efficiency against the t-test for normal data (Hodges & Lehmann 1956). */
export const MANN_WHITNEY_NORMAL_ARE = 3 / Math.PI;
export const DEFAULT_POWER = 0.8;
export const DEFAULT_MAX_ROUNDS = 50;

export interface RoundsToDetectInput {
  /** Round-to-round standard deviation of the metric on each side (the observed noise), in its unit. */
  readonly baseSd: number;
  readonly headSd: number;
  /** The change to detect, |head mean − base mean|, in the metric's unit; > 0. */
  readonly effect: number;
  /** One-sided significance level. */
  readonly alpha: number;
  /** Probability of detecting a change of `effect` when it is there (default 0.8). */
  readonly power?: number;
  readonly test: SignificanceTest;
  /** Above this many rounds per side the answer is "more than maxRounds" (default 50). */
  readonly maxRounds?: number;
}

export type RoundsToDetect =
  | { readonly status: "ok"; readonly roundsPerSide: number }
  /** Even maxRounds per side would not do: the noise is too large for this effect. */
  | { readonly status: "beyond"; readonly maxRounds: number }
  | InsufficientData;

export function roundsToDetect(input: RoundsToDetectInput): RoundsToDetect {
  const { baseSd, headSd, effect, alpha, test } = input;
  const power = input.power ?? DEFAULT_POWER;
  const maxRounds = input.maxRounds ?? DEFAULT_MAX_ROUNDS;
  for (const [name, value] of [
    ["baseSd", baseSd],
    ["headSd", headSd],
    ["effect", effect],
  ] as const) {
    if (!Number.isFinite(value) || value < 0)
      throw new RangeError(`${name} is ${value}; it must be a finite number ≥ 0`);
  }
  if (!(alpha > 0 && alpha < 1) || !(power > 0 && power < 1))
    throw new RangeError(`alpha ${alpha} and power ${power} must lie in (0, 1)`);
  if (effect === 0) return insufficientData("cannot tell: a change of 0 is never detected");

  const variance = baseSd ** 2 + headSd ** 2;
  const efficiency = test === "mann-whitney" ? MANN_WHITNEY_NORMAL_ARE : 1;
  /** Is n per side enough? The t-test's condition at the rounds the test is worth (efficiency · n). */
  const isEnough = (n: number) => {
    if (test === "mann-whitney" && n <= MANN_WHITNEY_EXACT_MAX_SIZE && exactTwoSidedPValue(0, n, n) / 2 >= alpha)
      return false;
    const worth = efficiency * n;
    if (variance === 0) return worth >= 2;
    // Welch–Satterthwaite df at `worth` rounds per side; equal spreads give 2(worth − 1).
    const df = ((worth - 1) * variance ** 2) / (baseSd ** 4 + headSd ** 4);
    if (!(df > 0)) return false;
    const quantiles = lowerTQuantile(1 - alpha, df) + lowerTQuantile(power, df);
    return (quantiles ** 2 * variance) / effect ** 2 <= worth;
  };
  for (let n = MIN_ROUNDS_PER_SIDE; n <= maxRounds; n++) {
    if (isEnough(n)) return { status: "ok", roundsPerSide: n };
  }
  return { status: "beyond", maxRounds };
}
