/**
 * The comparison verdict (docs/statistics.md, "Verdict"):
 *   regressed  when the change is in the bad direction, |Δ%| ≥ minEffectPct and p < alpha;
 *   improved   the same in the good direction;
 *   unchanged  otherwise;
 *   inconclusive when data is missing or too few to compute Δ% or p.
 * Why both thresholds: with many rounds a 0.3% change can be "significant" yet irrelevant, and with
 * few rounds a 20% change can be noise. Requiring practical and statistical significance together
 * is the usual rule of equivalence/"minimum effect" testing (Lakens 2017, "Equivalence tests",
 * Social Psychological and Personality Science 8(4)); Bencher and tachometer gate the same way.
 */
import type { Better } from "../run";
import { formatDeltaPct, formatPValue } from "../format";

export type Verdict = "regressed" | "improved" | "unchanged" | "inconclusive";
/** The tests a group comparison may use (stats/shift-test.ts). */
export const SIGNIFICANCE_TESTS = ["welch", "student", "mann-whitney"] as const;
export type SignificanceTest = (typeof SIGNIFICANCE_TESTS)[number];
/** Each test's name in prose ("…, α = 0.01"): one spelling for the page, its Markdown and the docs. */
export const SIGNIFICANCE_TEST_NAMES: Record<SignificanceTest, string> = {
  welch: "Welch's t-test",
  student: "pooled-variance t-test",
  "mann-whitney": "Mann–Whitney U",
};

export interface VerdictOptions {
  /** Minimum |Δ%| that counts as a change, in percent. */
  readonly minEffectPct: number;
  /** Significance level for the (one-sided) p-value. */
  readonly alpha: number;
}

export const DEFAULT_VERDICT_OPTIONS: VerdictOptions = { minEffectPct: 5, alpha: 0.01 };

export interface VerdictDecision {
  readonly verdict: Verdict;
  readonly reason: string;
}

/** True when head − base moves the metric the wrong way. */
export function isWorse(better: Better, deltaPct: number): boolean {
  return better === "lower" ? deltaPct > 0 : deltaPct < 0;
}

/** Applies the rule to a computed Δ% and p-value. */
export function decideVerdict(
  input: { readonly better: Better; readonly deltaPct: number; readonly pValue: number },
  options: VerdictOptions = DEFAULT_VERDICT_OPTIONS,
): VerdictDecision {
  const { better, deltaPct, pValue } = input;
  const change = formatDeltaPct(deltaPct);
  const isLargeEnough = Math.abs(deltaPct) >= options.minEffectPct;
  const isSignificant = pValue < options.alpha;
  if (deltaPct !== 0 && isLargeEnough && isSignificant) {
    const verdict = isWorse(better, deltaPct) ? "regressed" : "improved";
    const direction = isWorse(better, deltaPct) ? "worse" : "better";
    return {
      verdict,
      reason: `${change} (${direction}; ${better} is better): at least the ${options.minEffectPct}% minimum effect, and ${formatPValue(pValue)} < ${options.alpha}`,
    };
  }
  const why: string[] = [];
  if (!isLargeEnough) why.push(`below the ${options.minEffectPct}% minimum effect`);
  if (!isSignificant) why.push(`not statistically significant (${formatPValue(pValue)} ≥ ${options.alpha})`);
  return { verdict: "unchanged", reason: `${change} is ${why.join(" and ")}` };
}
