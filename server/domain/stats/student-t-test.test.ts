import { describe, expect, it } from "vitest";
import { studentTTestFromMoments } from "./student-t-test";

describe("studentTTestFromMoments", () => {
  it("matches a hand computation with 3 df", () => {
    // [1, 2, 3] vs [4, 6]: means 2 and 5, variances 1 and 2.
    // s_p² = (2·1 + 1·2)/3 = 4/3; SE = √(4/3 · (1/3 + 1/2)) = √(10/9); t = 3/√(10/9) = 2.846050; df = 3.
    // For 3 df, F(t) = ½ + (1/π)(a/(1 + a²) + atan a), a = t/√3, so p = 2(1 − F(t)) = 0.0653207.
    const result = studentTTestFromMoments({ n: 3, mean: 2, variance: 1 }, { n: 2, mean: 5, variance: 2 });
    expect(result.degreesOfFreedom).toBe(3);
    expect(result.t).toBeCloseTo(2.84605, 5);
    expect(result.pooledSd).toBeCloseTo(Math.sqrt(4 / 3), 12);
    const a = result.t / Math.sqrt(3);
    const closedForm = 2 * (1 - (0.5 + (a / (1 + a * a) + Math.atan(a)) / Math.PI));
    expect(result.pValue).toBeCloseTo(closedForm, 10);
    expect(result.pValue).toBeCloseTo(0.0653207, 6);
  });

  it("treats two constant, different segments as certainly different", () => {
    const result = studentTTestFromMoments({ n: 4, mean: 1, variance: 0 }, { n: 4, mean: 2, variance: 0 });
    expect(result.pValue).toBe(0);
  });
});
