/**
 * Mann–Whitney U test (Wilcoxon rank-sum), two-sided.
 *
 * Why offer it: latency percentiles of a few rounds are often skewed (one slow round), and the rank
 * test does not assume normality. Reference: Mann & Whitney (1947), "On a test of whether one of two
 * random variables is stochastically larger than the other", Ann. Math. Statist. 18(1); Hollander,
 * Wolfe & Chicken (2014), Nonparametric Statistical Methods, 3rd ed., §4.1.
 *
 * - U counts, over all (base, head) pairs, the pairs where head > base, plus ½ per tie; so
 *   U / (n_base · n_head) estimates P(head > base) and U > n_b·n_h/2 means head tends to be larger.
 * - Exact p-value when there are no ties and both samples have ≤ 25 values: the null distribution of U
 *   by dynamic programming over the C(n_b + n_h, n_b) equally likely orderings (as R's `wilcox.test`).
 * - Otherwise the normal approximation with tie correction and a 0.5 continuity correction:
 *     μ = n_b·n_h/2,  σ² = n_b·n_h/12 · ((N + 1) − Σ(t³ − t)/(N(N − 1))),  z = (|U − μ| − ½)/σ
 *   (t = size of each group of tied values; R's `wilcox.test(correct = TRUE)`, scipy's default).
 */
import normalCdf from "@stdlib/stats-base-dists-normal-cdf";
import { assertFiniteValues, tooFewValues, type InsufficientData } from "./insufficient";

/** Largest sample size (per side) for which the exact distribution is used; C(50, 25) < 2^53. */
export const MANN_WHITNEY_EXACT_MAX_SIZE = 25;

export interface MannWhitneyTest {
  readonly status: "ok";
  /** U of head: #(head > base) + ½·#(head = base) over all pairs. */
  readonly u: number;
  /** U / (n_base · n_head): the probability that a head value exceeds a base value (ties count ½). */
  readonly probabilityHeadGreater: number;
  /** Normal deviate, only for the approximation. */
  readonly z: number | null;
  readonly pValue: number;
  readonly method: "exact" | "normal-approximation";
  readonly hasTies: boolean;
}

export type MannWhitneyTestResult = MannWhitneyTest | InsufficientData;

export function mannWhitneyUTest(base: readonly number[], head: readonly number[]): MannWhitneyTestResult {
  if (base.length < 2) return tooFewValues(2, base.length, "base values");
  if (head.length < 2) return tooFewValues(2, head.length, "head values");
  assertFiniteValues(base, "base");
  assertFiniteValues(head, "head");

  const { headRankSum, tieGroupSizes } = rankHeadAgainstBase(base, head);
  const nBase = base.length;
  const nHead = head.length;
  const u = headRankSum - (nHead * (nHead + 1)) / 2;
  const hasTies = tieGroupSizes.length > 0;
  const probabilityHeadGreater = u / (nBase * nHead);

  if (!hasTies && nBase <= MANN_WHITNEY_EXACT_MAX_SIZE && nHead <= MANN_WHITNEY_EXACT_MAX_SIZE) {
    return {
      status: "ok",
      u,
      probabilityHeadGreater,
      z: null,
      pValue: exactTwoSidedPValue(u, nHead, nBase),
      method: "exact",
      hasTies,
    };
  }
  const z = continuityCorrectedZ(u, nBase, nHead, tieGroupSizes);
  return {
    status: "ok",
    u,
    probabilityHeadGreater,
    z,
    pValue: Math.min(1, 2 * normalCdf(-Math.abs(z), 0, 1)),
    method: "normal-approximation",
    hasTies,
  };
}

/** Mid-ranks of the pooled sample (ties share the average rank); returns head's rank sum and tie groups. */
function rankHeadAgainstBase(
  base: readonly number[],
  head: readonly number[],
): { headRankSum: number; tieGroupSizes: number[] } {
  const pooled = [
    ...base.map((value) => ({ value, isHead: false })),
    ...head.map((value) => ({ value, isHead: true })),
  ].sort((a, b) => a.value - b.value);
  let headRankSum = 0;
  const tieGroupSizes: number[] = [];
  let groupStart = 0;
  while (groupStart < pooled.length) {
    let groupEnd = groupStart + 1;
    while (groupEnd < pooled.length && pooled[groupEnd]?.value === pooled[groupStart]?.value) groupEnd += 1;
    // Ranks are 1-based: the group occupies ranks groupStart+1 … groupEnd.
    const midRank = (groupStart + 1 + groupEnd) / 2;
    for (let i = groupStart; i < groupEnd; i += 1) if (pooled[i]?.isHead) headRankSum += midRank;
    if (groupEnd - groupStart > 1) tieGroupSizes.push(groupEnd - groupStart);
    groupStart = groupEnd;
  }
  return { headRankSum, tieGroupSizes };
}

function continuityCorrectedZ(u: number, nBase: number, nHead: number, tieGroupSizes: readonly number[]): number {
  const total = nBase + nHead;
  const tieTerm = tieGroupSizes.reduce((sum, size) => sum + (size ** 3 - size), 0) / (total * (total - 1));
  const variance = ((nBase * nHead) / 12) * (total + 1 - tieTerm);
  const distance = Math.abs(u - (nBase * nHead) / 2);
  // All values tied: no information at all.
  if (variance <= 0) return 0;
  return Math.max(0, distance - 0.5) / Math.sqrt(variance);
}

/**
 * Exact two-sided p-value: 2 · min(P(U ≤ u), P(U ≥ u)), capped at 1.
 * `countsOfU(m, n)[k]` = number of orderings of m "first" and n "second" values with U_first = k,
 * from the recurrence on the largest value: it is a "first" one (beating all n seconds) or not,
 *   c(m, n, k) = c(m − 1, n, k − n) + c(m, n − 1, k).
 */
export function exactTwoSidedPValue(u: number, m: number, n: number): number {
  const counts = countsOfU(m, n);
  const total = counts.reduce((sum, count) => sum + count, 0);
  let lowerTail = 0;
  let upperTail = 0;
  counts.forEach((count, k) => {
    if (k <= u) lowerTail += count;
    if (k >= u) upperTail += count;
  });
  return Math.min(1, (2 * Math.min(lowerTail, upperTail)) / total);
}

function countsOfU(m: number, n: number): number[] {
  // previousRow[j] = counts for (i − 1, j); currentRow[j] = counts for (i, j).
  let previousRow: number[][] = Array.from({ length: n + 1 }, () => [1]);
  for (let i = 1; i <= m; i += 1) {
    const currentRow: number[][] = [[1]];
    for (let j = 1; j <= n; j += 1) {
      const withFirstLargest = previousRow[j] ?? [];
      const withSecondLargest = currentRow[j - 1] ?? [];
      const counts = new Array<number>(i * j + 1).fill(0);
      withFirstLargest.forEach((count, k) => {
        counts[k + j] = (counts[k + j] ?? 0) + count;
      });
      withSecondLargest.forEach((count, k) => {
        counts[k] = (counts[k] ?? 0) + count;
      });
      currentRow.push(counts);
    }
    previousRow = currentRow;
  }
  return previousRow[n] ?? [1];
}
