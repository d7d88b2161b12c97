import padjust from "@stdlib/stats-padjust";

/**
 * Family-wise error control for a comparison that runs many tests at once (every endpoint × metric):
 * at α = 0.05 each, 25 independent tests of an unchanged run flag something 72% of the time. Holm's
 * step-down procedure (Holm 1979, "A simple sequentially rejective multiple test procedure", Scand. J.
 * Statist. 6(2)) keeps the probability of even one false "regressed" or "improved" at most α, under any
 * dependence between the tests (an endpoint's p50 and p95 are far from independent), and rejects
 * everything Bonferroni does and more. The adjustment is @stdlib/stats-padjust's.
 */
export function holmAdjusted(pValues: readonly number[]): number[] {
  if (pValues.length === 0) return [];
  return padjust([...pValues], "holm");
}
