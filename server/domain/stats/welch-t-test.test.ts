import { describe, expect, it } from "vitest";
import { isInsufficient } from "./insufficient";
import { ISSUE_BASE_P95_MS, ISSUE_HEAD_P95_MS } from "./issue-example.fixture";
import { welchTTest, welchTTestFromMoments, type WelchTTestResult } from "./welch-t-test";

function expectOk(result: WelchTTestResult) {
  if (isInsufficient(result)) throw new Error(result.reason);
  return result;
}

describe("welchTTest", () => {
  it("reproduces the issue's figures: t ≈ 14.9, df ≈ 5.6, p < 0.001", () => {
    // v_b = 0.0139412/5 = 0.00278824, v_h = 0.0664792/5 = 0.01329584, SE = √0.01608408 = 0.1268231
    // t = 1.8896 / 0.1268231 = 14.8995
    // df = 0.01608408² / ((0.00278824² + 0.01329584²)/4) = 2.586976e-4 / 4.613840e-5 = 5.6070
    const result = expectOk(welchTTest(ISSUE_BASE_P95_MS, ISSUE_HEAD_P95_MS));
    expect(result.delta).toBeCloseTo(1.8896, 10);
    expect(result.standardError).toBeCloseTo(0.1268231, 6);
    expect(result.t).toBeCloseTo(14.8995, 3);
    expect(result.degreesOfFreedom).toBeCloseTo(5.607, 3);
    expect(result.pValue).toBeLessThan(0.001);
    expect(result.pValue).toBeGreaterThan(0);
  });

  it("matches the closed form of the t distribution with 2 df", () => {
    // base [1, 3], head [4, 6]: s² = 2 each, SE = √(1 + 1) = √2, t = 3/√2, df = (1+1)²/(1/1 + 1/1) = 2.
    // For 2 df, P(|T| ≥ t) = 1 − t/√(2 + t²) = 1 − √(4.5/6.5) = 1 − 3/√13 = 0.1679497
    const result = expectOk(welchTTest([1, 3], [4, 6]));
    expect(result.t).toBeCloseTo(3 / Math.SQRT2, 12);
    expect(result.degreesOfFreedom).toBeCloseTo(2, 12);
    expect(result.pValue).toBeCloseTo(1 - 3 / Math.sqrt(13), 10);
  });

  it("fixes the sign: delta and t are head − base", () => {
    const result = expectOk(welchTTest([4, 6], [1, 3]));
    expect(result.delta).toBe(-3);
    expect(result.t).toBeLessThan(0);
  });

  it("with zero variance on one side, df is n − 1 of the other side", () => {
    // v_b = 0, v_h = 1/2 ⇒ df = v_h² / (v_h²/(3 − 1)) = 2
    const result = expectOk(welchTTest([5, 5, 5], [5, 6, 7]));
    expect(result.degreesOfFreedom).toBeCloseTo(2, 12);
  });

  it("with zero variance on both sides: equal means → p = 1, different means → p = 0", () => {
    expect(expectOk(welchTTest([3, 3, 3], [3, 3]))).toMatchObject({ t: 0, pValue: 1, degreesOfFreedom: 3 });
    const differ = expectOk(welchTTest([3, 3, 3], [4, 4]));
    expect(differ.t).toBe(Number.POSITIVE_INFINITY);
    expect(differ.pValue).toBe(0);
  });

  it("needs two values per side", () => {
    expect(welchTTest([1], [2, 3])).toEqual({
      status: "insufficient",
      reason: "insufficient data: need 2 base values, have 1",
    });
    expect(isInsufficient(welchTTest([1, 2], []))).toBe(true);
  });

  it("works from summary statistics", () => {
    const result = welchTTestFromMoments({ n: 2, mean: 2, variance: 2 }, { n: 2, mean: 5, variance: 2 });
    expect(result.pValue).toBeCloseTo(1 - 3 / Math.sqrt(13), 10);
  });
});
