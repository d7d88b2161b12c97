/**
 * The group comparison from the product's seed issue: p95 latency of 5 `baseline` rounds vs 5 rounds
 * of a change, reported as means 2.4832 → 4.3728 ms (+76.1%), Welch t ≈ 14.9, df ≈ 5.6.
 * The issue gives only those figures, so these rounds were chosen to reproduce them exactly:
 * both means match to 4 decimals, and the spreads were solved from t and df:
 *   SE = Δ/t = 1.8896/14.9 ⇒ s_b² + s_h² ≈ 0.0804 (n = 5 each), and
 *   df = 4(v_b + v_h)²/(v_b² + v_h²) = 5.6 ⇒ v_h/v_b = (5 + √21)/2 ≈ 4.79,
 * giving s_b ≈ 0.118 and s_h ≈ 0.258; the values below have s_b = 0.11807, s_h = 0.25784.
 * Shared by the tests of descriptive, welch-t-test, relative-change and verdict.
 */
export const ISSUE_BASE_P95_MS: readonly number[] = [2.31, 2.56, 2.45, 2.62, 2.476];
export const ISSUE_HEAD_P95_MS: readonly number[] = [4.09, 4.63, 4.35, 4.64, 4.154];
