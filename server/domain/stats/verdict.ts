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
import { summarizeSample, type Interval, type SampleSummaryResult } from "./descriptive";
import { formatDeltaPct, formatPValue } from "../format";
import { isInsufficient } from "./insufficient";
import { exactTwoSidedPValue, MANN_WHITNEY_EXACT_MAX_SIZE, mannWhitneyUTest } from "./mann-whitney";
import { percentChange, relativeChangeOfMeans } from "./relative-change";
import { welchTTest } from "./welch-t-test";

export type Verdict = "regressed" | "improved" | "unchanged" | "inconclusive";
export type SignificanceTest = "welch" | "mann-whitney";

export interface VerdictOptions {
  /** Minimum |Δ%| that counts as a change, in percent. */
  readonly minEffectPct: number;
  /** Significance level for the p-value. */
  readonly alpha: number;
}

export const DEFAULT_VERDICT_OPTIONS: VerdictOptions = { minEffectPct: 5, alpha: 0.05 };

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

export interface CompareSamplesOptions extends Partial<VerdictOptions> {
  readonly better: Better;
  /** Welch's t-test by default; Mann–Whitney U for small or skewed samples. */
  readonly test?: SignificanceTest;
}

export interface SampleComparison {
  readonly base: SampleSummaryResult;
  readonly head: SampleSummaryResult;
  /** 100 · (mean_head − mean_base) / mean_base; null when it cannot be computed (see reason). */
  readonly deltaPct: number | null;
  /** Fieller 95% interval of deltaPct; null when unbounded or not computable. */
  readonly deltaPctCi95: Interval | null;
  readonly pValue: number | null;
  readonly test: SignificanceTest;
  readonly verdict: Verdict;
  readonly reason: string;
}

/** Group comparison (≥ 2 values per side, e.g. the p95 of 5 rounds each): summaries, Δ% with CI, p, verdict. */
export function compareSamples(
  base: readonly number[],
  head: readonly number[],
  options: CompareSamplesOptions,
): SampleComparison {
  const test = options.test ?? "welch";
  const verdictOptions: VerdictOptions = {
    minEffectPct: options.minEffectPct ?? DEFAULT_VERDICT_OPTIONS.minEffectPct,
    alpha: options.alpha ?? DEFAULT_VERDICT_OPTIONS.alpha,
  };
  const baseSummary = summarizeSample(base);
  const headSummary = summarizeSample(head);
  const inconclusive = (reason: string): SampleComparison => ({
    base: baseSummary,
    head: headSummary,
    deltaPct: null,
    deltaPctCi95: null,
    pValue: null,
    test,
    verdict: "inconclusive",
    reason,
  });
  if (isInsufficient(baseSummary)) return inconclusive(`base: ${baseSummary.reason}`);
  if (isInsufficient(headSummary)) return inconclusive(`head: ${headSummary.reason}`);

  const change = percentChange(baseSummary.mean, headSummary.mean);
  if (isInsufficient(change)) return inconclusive("relative change undefined: the base mean is 0");
  const interval = relativeChangeOfMeans(base, head);
  const significance = test === "welch" ? welchTTest(base, head) : mannWhitneyUTest(base, head);
  if (isInsufficient(significance)) return inconclusive(significance.reason);

  const decision = decideVerdict(
    { better: options.better, deltaPct: change.deltaPct, pValue: significance.pValue },
    verdictOptions,
  );
  return {
    base: baseSummary,
    head: headSummary,
    deltaPct: change.deltaPct,
    deltaPctCi95: isInsufficient(interval) ? null : interval.ci95,
    pValue: significance.pValue,
    test,
    verdict: decision.verdict,
    reason: decision.reason + unreachableSignificanceNote(test, base.length, head.length, verdictOptions.alpha),
  };
}

/**
 * Why: with 2 or 3 rounds per side the exact Mann–Whitney p-value cannot go below 2 / C(n_b + n_h, n_b)
 * (0.33 for 2 vs 2, 0.1 for 3 vs 3), so "unchanged" there means "this test cannot tell", and the
 * reader should know it.
 */
function unreachableSignificanceNote(test: SignificanceTest, nBase: number, nHead: number, alpha: number): string {
  if (test !== "mann-whitney") return "";
  if (nBase > MANN_WHITNEY_EXACT_MAX_SIZE || nHead > MANN_WHITNEY_EXACT_MAX_SIZE) return "";
  const smallestPValue = exactTwoSidedPValue(0, nBase, nHead);
  if (smallestPValue < alpha) return "";
  return ` (with ${nBase} vs ${nHead} values the Mann–Whitney test cannot reach p < ${alpha}; its smallest p is ${Number(smallestPValue.toPrecision(2))})`;
}
