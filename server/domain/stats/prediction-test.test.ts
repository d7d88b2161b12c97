import { describe, expect, it } from "vitest";
import { isInsufficient } from "./insufficient";
import { predictionTest } from "./prediction-test";
import { createSeededRandom, generateNormalSample } from "./random";

describe("predictionTest", () => {
  it("matches a hand computation", () => {
    // group 10, 12, 11, 13, 9: mean 11, s = √2.5 = 1.5811; spread = s·√(1 + 1/5) = 1.7321.
    // x = 15: t = 4 / 1.7321 = 2.3094 on 4 df → two-sided p = 0.0821 (t table: t(0.95, 4) = 2.132, t(0.975, 4) = 2.776).
    const result = predictionTest([10, 12, 11, 13, 9], 15);
    if (isInsufficient(result)) throw new Error(result.reason);
    expect(result.t).toBeCloseTo(2.3094, 4);
    expect(result.degreesOfFreedom).toBe(4);
    expect(result.pValue).toBeCloseTo(0.0821, 3);
    expect(result.predictionInterval95[1]).toBeCloseTo(11 + 2.7764 * 1.7321, 3);
  });

  it("needs two values in the group", () => {
    expect(isInsufficient(predictionTest([1], 2))).toBe(true);
  });

  it("a new value from the same distribution falls outside the 95% interval about 5% of the time", () => {
    const random = createSeededRandom(7);
    let outside = 0;
    const trials = 20_000;
    for (let trial = 0; trial < trials; trial++) {
      const group = generateNormalSample(random, 5, 100, 0.05);
      const [value] = generateNormalSample(random, 1, 100, 0.05);
      const result = predictionTest(group, value!);
      if (!isInsufficient(result) && result.pValue < 0.05) outside++;
    }
    expect(outside / trials).toBeGreaterThan(0.04);
    expect(outside / trials).toBeLessThan(0.06);
  });
});
