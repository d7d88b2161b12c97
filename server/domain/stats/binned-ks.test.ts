import { describe, expect, it } from "vitest";
import { binnedKsTest, HistogramCdf, kolmogorovSurvival } from "./binned-ks";
import { isInsufficient } from "./insufficient";
import { latencyHistogramOf } from "./latency-histogram";

/** n deterministic draws of shift + Exp(scale) (the inverse CDF at (i + ½)/n), rounded to µs as tools write them. */
function exponentialQuantiles(n: number, shiftMs: number, scaleMs: number): number[] {
  return Array.from({ length: n }, (_, i) => Math.round((shiftMs - scaleMs * Math.log(1 - (i + 0.5) / n)) * 1000) / 1000);
}

/** The raw two-sample KS D, by brute force over every sample value. */
function rawKsStatistic(a: readonly number[], b: readonly number[]): number {
  const fraction = (values: readonly number[], x: number) => values.filter((value) => value <= x).length / values.length;
  let d = 0;
  for (const x of new Set([...a, ...b])) d = Math.max(d, Math.abs(fraction(a, x) - fraction(b, x)));
  return d;
}

describe("kolmogorovSurvival", () => {
  it("matches scipy.stats.kstwobign.sf", () => {
    // scipy 1.17: kstwobign.sf(0.5), sf(1.0), sf(1.36), sf(2.0)
    expect(kolmogorovSurvival(0.5)).toBeCloseTo(0.9639452436648751, 12);
    expect(kolmogorovSurvival(1.0)).toBeCloseTo(0.26999967167735456, 12);
    expect(kolmogorovSurvival(1.36)).toBeCloseTo(0.049485876755377876, 12);
    expect(kolmogorovSurvival(2.0)).toBeCloseTo(0.0006709252557796953, 14);
    expect(kolmogorovSurvival(0)).toBe(1);
  });

  it("is continuous where the two series meet", () => {
    expect(kolmogorovSurvival(1.18 - 1e-12)).toBeCloseTo(kolmogorovSurvival(1.18), 9);
  });
});

describe("HistogramCdf", () => {
  const cdf = new HistogramCdf([
    { upperMs: 1, count: 0 },
    { upperMs: 2, count: 50 },
    { upperMs: 6, count: 0 },
    { upperMs: 8, count: 50 },
  ]);
  it("knows F at edges, inside empty buckets and outside the range, and nowhere else", () => {
    expect(cdf.knownAt(2)).toBe(0.5);
    expect(cdf.knownAt(0.5)).toBe(0);
    expect(cdf.knownAt(4)).toBe(0.5);
    expect(cdf.knownAt(9)).toBe(1);
    expect(cdf.knownAt(1.5)).toBeNull();
    expect(cdf.knownAt(7)).toBeNull();
    expect(cdf.stepAt(7)).toBe(0.5);
  });
});

describe("binnedKsTest", () => {
  it("computes D and its p-value by hand on small histograms", () => {
    // base F: 0.5 at 2 ms, 0.8 at 4 ms; head F: 0.2, 0.6 → D = 0.3 at 2 ms, head slower there.
    const base = [
      { upperMs: 2, count: 50 },
      { upperMs: 4, count: 30 },
      { upperMs: 8, count: 20 },
    ];
    const head = [
      { upperMs: 2, count: 40 },
      { upperMs: 4, count: 80 },
      { upperMs: 8, count: 80 },
    ];
    const result = binnedKsTest(base, head);
    if (isInsufficient(result)) throw new Error(result.reason);
    expect(result.statistic).toBeCloseTo(0.3, 12);
    expect(result.atMs).toBe(2);
    expect(result.signedGap).toBeCloseTo(-0.3, 12);
    expect(result.effectiveN).toBeCloseTo(200 / 3, 12);
    // scipy: kstwobign.sf(sqrt(100·200/300)·0.3) = 1.2288424706656394e-05
    expect(result.pValue).toBeCloseTo(1.2288424706656394e-5, 14);
  });

  it("on HDR histograms of realistic latencies, reads the raw-sample D to within a bucket, never above it", () => {
    const base = exponentialQuantiles(2000, 8, 4);
    const head = exponentialQuantiles(1500, 8.5, 4.6);
    const rawD = rawKsStatistic(base, head);
    // scipy: ks_2samp(base, head).statistic = 0.11866666666666668 on these very samples
    expect(rawD).toBeCloseTo(0.11866666666666668, 12);
    const result = binnedKsTest(latencyHistogramOf(base)!, latencyHistogramOf(head)!);
    if (isInsufficient(result)) throw new Error(result.reason);
    expect(result.statistic).toBeLessThanOrEqual(rawD + 1e-12);
    expect(result.statistic).toBeGreaterThan(rawD - 0.01);
    expect(result.baseCount).toBe(2000);
    expect(result.headCount).toBe(1500);
    // scipy: kstwobign.sf(sqrt(2000·1500/3500)·0.118667) = 6.56e-11; binning can only raise it.
    expect(result.pValue).toBeGreaterThanOrEqual(6.562638466182857e-11 * (1 - 1e-9));
    expect(result.pValue).toBeLessThan(1e-8);
  });

  it("finds no difference between a histogram and itself", () => {
    const histogram = latencyHistogramOf(exponentialQuantiles(500, 10, 3))!;
    const result = binnedKsTest(histogram, histogram);
    if (isInsufficient(result)) throw new Error(result.reason);
    expect(result.statistic).toBe(0);
    expect(result.pValue).toBe(1);
  });

  it("compares only where both histograms know their CDF (coarse vs fine buckets)", () => {
    const coarse = [
      { upperMs: 10, count: 50 },
      { upperMs: 100, count: 50 },
    ];
    const fine = [
      { upperMs: 5, count: 10 },
      { upperMs: 10, count: 40 },
      { upperMs: 50, count: 50 },
      { upperMs: 100, count: 0 },
    ];
    const result = binnedKsTest(coarse, fine);
    if (isInsufficient(result)) throw new Error(result.reason);
    // At 50 ms the coarse histogram cannot tell (its bucket 10–100 ms holds samples): no gap claimed there.
    expect(result.statistic).toBe(0);
    expect(result.edgesCompared).toBe(2);
  });

  it("says when a side holds no samples", () => {
    const result = binnedKsTest([{ upperMs: 1, count: 0 }], [{ upperMs: 1, count: 3 }]);
    expect(isInsufficient(result) && result.reason).toBe("insufficient data: the base histogram holds no samples");
  });
});
