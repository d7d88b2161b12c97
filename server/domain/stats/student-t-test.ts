/**
 * Student's pooled-variance t-test from summary statistics, two-sided.
 *
 *   s²_p = ((n₁ − 1)s₁² + (n₂ − 1)s₂²) / (n₁ + n₂ − 2),  t = (x̄₂ − x̄₁) / (s_p √(1/n₁ + 1/n₂)),  df = n₁ + n₂ − 2
 *
 * Why it exists next to Welch: change-point detection tests a split of one series into two
 * segments whose noise is, under the null, the same. With a 6-point segment next to a 200-point one,
 * Welch leans on the 6-point variance, and a short run of by-chance-tight values then looks
 * "significant"; pooling the variance is both exact under the null and much more stable. Apache
 * Otava (Hunter) tests its candidate splits the same way (scipy `ttest_ind_from_stats`, equal_var).
 * Reference: Student (1908), Biometrika 6(1).
 */
import { twoSidedTPValue } from "./t-distribution";
import type { SampleMoments } from "./welch-t-test";

export interface StudentTTest {
  readonly t: number;
  readonly degreesOfFreedom: number;
  readonly pValue: number;
  readonly pooledSd: number;
}

/** Needs n₁ + n₂ ≥ 3 (df ≥ 1); the caller guarantees it. Constant segments: same convention as Welch. */
export function studentTTestFromMoments(first: SampleMoments, second: SampleMoments): StudentTTest {
  const degreesOfFreedom = first.n + second.n - 2;
  if (degreesOfFreedom < 1) throw new RangeError("Student's t-test needs at least 3 values in total");
  const pooledVariance = ((first.n - 1) * first.variance + (second.n - 1) * second.variance) / degreesOfFreedom;
  const pooledSd = Math.sqrt(Math.max(0, pooledVariance));
  const delta = second.mean - first.mean;
  const standardError = pooledSd * Math.sqrt(1 / first.n + 1 / second.n);
  if (standardError === 0) {
    const t = delta === 0 ? 0 : Math.sign(delta) * Number.POSITIVE_INFINITY;
    return { t, degreesOfFreedom, pValue: delta === 0 ? 1 : 0, pooledSd };
  }
  const t = delta / standardError;
  return { t, degreesOfFreedom, pValue: twoSidedTPValue(t, degreesOfFreedom), pooledSd };
}
