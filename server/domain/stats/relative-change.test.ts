import { describe, expect, it } from "vitest";
import { isInsufficient } from "./insufficient";
import { ISSUE_BASE_P95_MS, ISSUE_HEAD_P95_MS } from "./issue-example.fixture";
import { createSeededRandom } from "./random";
import { percentChange, relativeChangeOfMeans, type RelativeChangeResult } from "./relative-change";
import { twoSidedTCritical } from "./t-distribution";

function expectOk(result: RelativeChangeResult) {
  if (isInsufficient(result)) throw new Error(result.reason);
  return result;
}

describe("relativeChangeOfMeans", () => {
  it("reproduces the issue's +76.1% with a Fieller interval around it", () => {
    // 100 · (4.3728 − 2.4832) / 2.4832 = 76.0953%
    const result = expectOk(relativeChangeOfMeans(ISSUE_BASE_P95_MS, ISSUE_HEAD_P95_MS));
    expect(result.deltaPct).toBeCloseTo(76.0953, 3);
    const [low, high] = result.ci95;
    expect(low).toBeLessThan(76.0953);
    expect(high).toBeGreaterThan(76.0953);
    // The Fieller limits are the roots of (x̄_h − ρ·x̄_b)² = t²·(v_h + ρ²·v_b).
    const t = twoSidedTCritical(0.95, result.degreesOfFreedom);
    const [vb, vh] = [0.0139412 / 5, 0.0664792 / 5];
    for (const limitPct of result.ci95) {
      const ratio = 1 + limitPct / 100;
      expect((4.3728 - ratio * 2.4832) ** 2).toBeCloseTo(t * t * (vh + ratio * ratio * vb), 10);
    }
    // Asymmetric, as a ratio's interval should be: wider above than below.
    expect(high - 76.0953).toBeGreaterThan(76.0953 - low);
  });

  it("matches a hand computation when the base has no spread (g = 0)", () => {
    // base [10, 10], head [11, 13]: ρ̂ = 1.2, v_h = 2/2 = 1, v_b = 0, df = 1, t(0.975, 1) = 12.7062.
    // ρ = 1.2 ± 12.7062 · √1 / 10 = [−0.07062, 2.47062] ⇒ Δ% = [−107.062%, +147.062%]
    const result = expectOk(relativeChangeOfMeans([10, 10], [11, 13]));
    expect(result.deltaPct).toBeCloseTo(20, 10);
    expect(result.degreesOfFreedom).toBeCloseTo(1, 10);
    expect(result.ci95[0]).toBeCloseTo(-107.062, 3);
    expect(result.ci95[1]).toBeCloseTo(147.062, 3);
  });

  it("is insufficient when the base mean is 0, a side has < 2 values, or the interval is unbounded", () => {
    expect(relativeChangeOfMeans([-1, 1], [2, 3])).toEqual({
      status: "insufficient",
      reason: "relative change undefined: the base mean is 0",
    });
    expect(isInsufficient(relativeChangeOfMeans([1], [2, 3]))).toBe(true);
    // Base mean 0.5 with s = 2.1: g = t²·v_b/x̄_b² ≫ 1, the ratio could be anything.
    const unbounded = relativeChangeOfMeans([-1, 2], [2, 3]);
    expect(isInsufficient(unbounded) && unbounded.reason).toMatch(/unbounded/);
  });

  it("covers the true relative change about 95% of the time (20,000 seeded trials, n = 5, +20%)", () => {
    const random = createSeededRandom(4242);
    const trials = 20_000;
    let covered = 0;
    for (let trial = 0; trial < trials; trial += 1) {
      const base = Array.from({ length: 5 }, () => random.gaussian(100, 8));
      const head = Array.from({ length: 5 }, () => random.gaussian(120, 15));
      const result = expectOk(relativeChangeOfMeans(base, head));
      if (result.ci95[0] <= 20 && 20 <= result.ci95[1]) covered += 1;
    }
    const coverage = covered / trials;
    expect(coverage).toBeGreaterThanOrEqual(0.94);
    expect(coverage).toBeLessThanOrEqual(0.96);
  });
});

describe("percentChange", () => {
  it("is head − base over base", () => {
    expect(percentChange(200, 150)).toEqual({ status: "ok", deltaPct: -25 });
    expect(isInsufficient(percentChange(0, 1))).toBe(true);
  });
});
