import { describe, expect, it } from "vitest";
import { mean, median, medianInPlace, sampleStandardDeviation, sampleVariance, summarizeSample } from "./descriptive";
import { isInsufficient } from "./insufficient";
import { ISSUE_BASE_P95_MS } from "./issue-example.fixture";
import { createSeededRandom } from "./random";

describe("medianInPlace", () => {
  it("is the sorted median of any numbers, odd or even in count, with ties, ±∞ and the same value throughout", () => {
    const random = createSeededRandom(7);
    const cases: number[][] = [[4], [2, 1], [3, 3, 3, 3], [1, Infinity, -Infinity, 2, 2], [0, -0, 5, 5, 5, 1]];
    for (let size = 1; size <= 60; size++) {
      cases.push(Array.from({ length: size }, () => random.uniform()));
      cases.push(Array.from({ length: size }, () => random.integer(4)));
    }
    cases.push(Array.from({ length: 10_001 }, () => random.uniform() * 100));
    for (const values of cases) expect(medianInPlace(Float64Array.from(values))).toBe(median(values));
  });
});

describe("median", () => {
  it("takes the middle value, or the mean of the middle two", () => {
    expect(median([])).toBeNull();
    expect(median([3])).toBe(3);
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it("is the middle value, or the mean of the middle two", () => {
    expect(median([9.93, 9.66])).toBeCloseTo(9.795, 12);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([])).toBeNull();
  });
});

describe("summarizeSample", () => {
  it("matches hand-computed values for the issue's base rounds", () => {
    // mean = 12.416 / 5 = 2.4832
    // deviations −0.1732, 0.0768, −0.0332, 0.1368, −0.0072; Σd² = 0.0557648; s² = 0.0139412
    // CI half-width = t(0.975, 4) · s/√5 = 2.776445 · 0.1180729 / 2.2360680 = 0.1466070
    const summary = summarizeSample(ISSUE_BASE_P95_MS);
    if (isInsufficient(summary)) throw new Error(summary.reason);
    expect(summary.n).toBe(5);
    expect(summary.mean).toBeCloseTo(2.4832, 10);
    expect(summary.sd).toBeCloseTo(Math.sqrt(0.0139412), 10);
    expect(summary.ci95[0]).toBeCloseTo(2.4832 - 0.146607, 5);
    expect(summary.ci95[1]).toBeCloseTo(2.4832 + 0.146607, 5);
  });

  it("uses the t quantile, not 1.96: n = 2 gives t(0.975, 1) = 12.706", () => {
    // [1, 3]: mean 2, s = √2, half-width = 12.7062 · √2/√2 = 12.7062
    const summary = summarizeSample([1, 3]);
    if (isInsufficient(summary)) throw new Error(summary.reason);
    expect(summary.ci95[1] - summary.mean).toBeCloseTo(12.7062, 4);
  });

  it("says why when there is too little data, instead of returning a number", () => {
    expect(summarizeSample([4.2])).toEqual({
      status: "insufficient",
      reason: "insufficient data: need 2 values, have 1",
    });
    expect(isInsufficient(summarizeSample([]))).toBe(true);
  });

  it("gives a zero-width interval for a constant sample", () => {
    const summary = summarizeSample([7, 7, 7]);
    if (isInsufficient(summary)) throw new Error(summary.reason);
    expect(summary.sd).toBe(0);
    expect(summary.ci95).toEqual([7, 7]);
  });

  it("rejects non-finite values (the caller must drop missing rounds)", () => {
    expect(() => summarizeSample([1, Number.NaN])).toThrow(RangeError);
  });

  it("keeps precision when the spread is tiny compared with the level", () => {
    const values = [1e9 + 1, 1e9 + 2, 1e9 + 3];
    expect(sampleVariance(values)).toBeCloseTo(1, 10);
    expect(sampleStandardDeviation(values)).toBeCloseTo(1, 10);
    expect(mean(values)).toBe(1e9 + 2);
  });

  it("covers the true mean about 95% of the time (20,000 seeded samples of n = 5)", () => {
    const random = createSeededRandom(20_000);
    const trueMean = 2.5;
    const trials = 20_000;
    let covered = 0;
    for (let trial = 0; trial < trials; trial += 1) {
      const sample = Array.from({ length: 5 }, () => random.gaussian(trueMean, 0.3));
      const summary = summarizeSample(sample);
      if (isInsufficient(summary)) throw new Error(summary.reason);
      if (summary.ci95[0] <= trueMean && trueMean <= summary.ci95[1]) covered += 1;
    }
    const coverage = covered / trials;
    expect(coverage).toBeGreaterThanOrEqual(0.94);
    expect(coverage).toBeLessThanOrEqual(0.96);
  });
});
