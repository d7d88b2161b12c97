import { describe, expect, it } from "vitest";
import { isInsufficient } from "./insufficient";
import { exactTwoSidedPValue, mannWhitneyUTest, type MannWhitneyTestResult } from "./mann-whitney";

function expectOk(result: MannWhitneyTestResult) {
  if (isInsufficient(result)) throw new Error(result.reason);
  return result;
}

/** Independent check of the exact distribution: enumerate every split of the pooled ranks. */
function bruteForceTwoSidedPValue(u: number, m: number, n: number): number {
  const total = m + n;
  const uValues: number[] = [];
  const choose = (start: number, chosen: number[]): void => {
    if (chosen.length === m) {
      // U of the chosen ("first") sample = Σ ranks − m(m+1)/2 (ranks are 1-based positions, no ties).
      uValues.push(chosen.reduce((sum, rank) => sum + rank, 0) - (m * (m + 1)) / 2);
      return;
    }
    for (let rank = start; rank <= total; rank += 1) choose(rank + 1, [...chosen, rank]);
  };
  choose(1, []);
  const lower = uValues.filter((value) => value <= u).length;
  const upper = uValues.filter((value) => value >= u).length;
  return Math.min(1, (2 * Math.min(lower, upper)) / uValues.length);
}

describe("mannWhitneyUTest", () => {
  it("gives the classic smallest p for 3 vs 3 completely separated: 2/C(6,3) = 0.1", () => {
    const result = expectOk(mannWhitneyUTest([1, 2, 3], [4, 5, 6]));
    expect(result.u).toBe(9);
    expect(result.probabilityHeadGreater).toBe(1);
    expect(result.method).toBe("exact");
    expect(result.pValue).toBeCloseTo(0.1, 12);
  });

  it("matches the scipy documentation example (exact 0.1111, asymptotic 0.11135)", () => {
    // scipy.stats.mannwhitneyu docs: males = [19, 22, 16, 29, 24], females = [20, 11, 17, 12]; U_males = 17.
    // Exact by hand: U_females = 20 − 17 = 3; orderings with U ≤ 3 are the partitions of 0..3 into
    // ≤ 4 parts ≤ 5: 1 + 1 + 2 + 3 = 7 of C(9, 4) = 126, so p = 2·7/126 = 0.1111.
    const result = expectOk(mannWhitneyUTest([20, 11, 17, 12], [19, 22, 16, 29, 24]));
    expect(result.u).toBe(17);
    expect(result.pValue).toBeCloseTo(14 / 126, 12);
    expect(exactTwoSidedPValue(17, 5, 4)).toBeCloseTo(14 / 126, 12);
  });

  it("agrees with brute-force enumeration (Hollander & Wolfe permeability data, as in R's ?wilcox.test)", () => {
    // x = at term, y = 12–26 weeks (Hollander & Wolfe 1973, p. 69). R: wilcox.test(x, y, "greater") → W = 35, p = 0.1272.
    const x = [0.8, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46];
    const y = [1.15, 0.88, 0.9, 0.74, 1.21];
    const result = expectOk(mannWhitneyUTest(y, x));
    expect(result.u).toBe(35);
    expect(result.method).toBe("exact");
    expect(result.pValue).toBeCloseTo(bruteForceTwoSidedPValue(35, 10, 5), 12);
    expect(result.pValue).toBeCloseTo(2 * 0.1272, 3);
  });

  it("uses the normal approximation with tie correction when there are ties (hand-computed)", () => {
    // pooled: 1b 2b 3b 3h 4b 5b 5h 6h 7h 8h; mid-ranks of head: 3.5 + 6.5 + 8 + 9 + 10 = 37; U = 37 − 15 = 22.
    // μ = 12.5; tie groups {3,3}, {5,5}: Σ(t³ − t) = 12; σ² = 25/12 · (11 − 12/90) = 22.638889;
    // z = (22 − 12.5 − 0.5)/4.758034 = 1.891537; p = 2Φ(−1.891537) = 0.058553 (R gives 0.05855).
    const result = expectOk(mannWhitneyUTest([1, 2, 3, 4, 5], [3, 5, 6, 7, 8]));
    expect(result.u).toBe(22);
    expect(result.hasTies).toBe(true);
    expect(result.method).toBe("normal-approximation");
    expect(result.z).toBeCloseTo(1.891537, 5);
    expect(result.pValue).toBeCloseTo(0.058553, 5);
  });

  it("uses the normal approximation beyond 25 values per side", () => {
    const base = Array.from({ length: 30 }, (_, i) => i * 2);
    const head = Array.from({ length: 30 }, (_, i) => i * 2 + 1);
    const result = expectOk(mannWhitneyUTest(base, head));
    expect(result.method).toBe("normal-approximation");
    // U = Σ_i #(base < 2i + 1) = Σ_i (i + 1) = 465; μ = 450; σ² = 900·61/12 = 4575; z = 14.5/67.64 = 0.21437
    expect(result.u).toBe(465);
    expect(result.z).toBeCloseTo(14.5 / Math.sqrt(4575), 10);
  });

  it("gives p = 1 when every value is tied", () => {
    expect(expectOk(mannWhitneyUTest([2, 2, 2], [2, 2])).pValue).toBe(1);
  });

  it("needs two values per side", () => {
    expect(isInsufficient(mannWhitneyUTest([1], [1, 2]))).toBe(true);
  });

  it("computes small exact distributions that match enumeration", () => {
    for (const [m, n] of [
      [2, 2],
      [3, 4],
      [5, 5],
      [4, 7],
    ] as const) {
      for (let u = 0; u <= m * n; u += 1) {
        expect(exactTwoSidedPValue(u, m, n)).toBeCloseTo(bruteForceTwoSidedPValue(u, m, n), 12);
      }
    }
  });
});
