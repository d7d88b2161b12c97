/**
 * Welch's unequal-variances t-test, two-sided.
 *
 *   t  = (x̄_head − x̄_base) / √(s²_base/n_base + s²_head/n_head)
 *   df = (v_b + v_h)² / (v_b²/(n_b − 1) + v_h²/(n_h − 1)),  v = s²/n   (Welch–Satterthwaite)
 *
 * Why Welch and not Student: a slower build is often also a noisier one, so the two variances differ;
 * Welch keeps its false-positive rate under unequal variances and loses little when they are equal
 * (Delacre, Lakens & Leys 2017, "Why psychologists should by default use Welch's t-test",
 * Int. Rev. Social Psychology 30(1)). References: Welch (1947), Biometrika 34(1–2);
 * Satterthwaite (1946), Biometrics Bulletin 2(6).
 */
import { assertFiniteValues, tooFewValues, type InsufficientData } from "./insufficient";
import { mean, sampleVariance } from "./descriptive";
import { twoSidedTPValue } from "./t-distribution";

export interface WelchTTest {
  readonly status: "ok";
  /** head mean − base mean. */
  readonly delta: number;
  /** √(s²_b/n_b + s²_h/n_h). */
  readonly standardError: number;
  /** delta / standardError; positive when head is larger. ±Infinity when both samples are constant and differ. */
  readonly t: number;
  readonly degreesOfFreedom: number;
  /** Two-sided p-value. */
  readonly pValue: number;
}

export type WelchTTestResult = WelchTTest | InsufficientData;

export interface SampleMoments {
  readonly n: number;
  readonly mean: number;
  readonly variance: number;
}

export function welchTTest(base: readonly number[], head: readonly number[]): WelchTTestResult {
  if (base.length < 2) return tooFewValues(2, base.length, "base values");
  if (head.length < 2) return tooFewValues(2, head.length, "head values");
  assertFiniteValues(base, "base");
  assertFiniteValues(head, "head");
  return welchTTestFromMoments(
    { n: base.length, mean: mean(base), variance: sampleVariance(base) },
    { n: head.length, mean: mean(head), variance: sampleVariance(head) },
  );
}

/**
 * The same test from summary statistics (n, mean, variance per side), e.g. when only per-round
 * summaries are stored. Both n must be ≥ 2 (checked by `welchTTest`).
 *
 * Zero variance on both sides (every round gave exactly the same number, which happens with
 * coarse-grained timers) makes t = 0/0 or d/0. We take the limit as both variances shrink to zero:
 * equal means → t = 0, p = 1 (nothing to see); different means → t = ±∞, p = 0 (the difference is
 * not noise). df then falls back to n_b + n_h − 2, the Welch df when the two variances are equal.
 * Zero variance on one side only needs no special case: df becomes n − 1 of the noisy side.
 */
export function welchTTestFromMoments(base: SampleMoments, head: SampleMoments): WelchTTest {
  const delta = head.mean - base.mean;
  const baseTerm = base.variance / base.n;
  const headTerm = head.variance / head.n;
  const standardError = Math.sqrt(baseTerm + headTerm);
  if (standardError === 0) {
    const t = delta === 0 ? 0 : Math.sign(delta) * Number.POSITIVE_INFINITY;
    return {
      status: "ok",
      delta,
      standardError,
      t,
      degreesOfFreedom: base.n + head.n - 2,
      pValue: delta === 0 ? 1 : 0,
    };
  }
  const degreesOfFreedom = welchSatterthwaiteDf(baseTerm, base.n, headTerm, head.n);
  const t = delta / standardError;
  return { status: "ok", delta, standardError, t, degreesOfFreedom, pValue: twoSidedTPValue(t, degreesOfFreedom) };
}

/**
 * Welch–Satterthwaite effective degrees of freedom of a sum of two variance terms v₁ = s₁²/n₁,
 * v₂ = s₂²/n₂. Exported because the relative-change interval uses it too.
 */
export function welchSatterthwaiteDf(term1: number, n1: number, term2: number, n2: number): number {
  const denominator = (term1 * term1) / (n1 - 1) + (term2 * term2) / (n2 - 1);
  if (denominator === 0) return n1 + n2 - 2;
  return (term1 + term2) ** 2 / denominator;
}
