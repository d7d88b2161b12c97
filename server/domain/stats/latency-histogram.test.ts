import { describe, expect, it } from "vitest";
import { latencyHistogramOf, latencyHistogramOfCounts, LatencyRecorder } from "./latency-histogram";
import { poolHistograms } from "./pooled-percentile";
import { createSeededRandom } from "./random";

function lognormalSamples(seed: number, count: number, medianMs: number): number[] {
  const random = createSeededRandom(seed);
  return Array.from({ length: count }, () => Math.round(medianMs * Math.exp(0.5 * random.gaussian()) * 100) / 100);
}

/** Counts of the samples falling in each bucket (previous upper, upper], computed without the library. */
function countsIn(buckets: { upperMs: number }[], samples: number[]): number[] {
  return buckets.map((bucket, index) => {
    const lower = index === 0 ? -Infinity : (buckets[index - 1]?.upperMs ?? -Infinity);
    return samples.filter((sample) => sample > lower && sample <= bucket.upperMs).length;
  });
}

describe("latency histogram (HDR, 2 significant digits)", () => {
  it("counts every sample in the bucket its edges say", () => {
    const samples = lognormalSamples(1, 2000, 6);
    const buckets = latencyHistogramOf(samples)!;
    expect(buckets.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(2000);
    expect(buckets.map((bucket) => bucket.count)).toEqual(countsIn(buckets, samples));
    for (let index = 1; index < buckets.length; index++)
      expect(buckets[index]!.upperMs).toBeGreaterThan(buckets[index - 1]!.upperMs);
  });

  it("keeps each bucket within 1% of its value", () => {
    const buckets = latencyHistogramOf([0.5, 5, 50, 500, 5000])!;
    const filled = buckets.filter((bucket) => bucket.count > 0);
    expect(filled.map((bucket) => bucket.count)).toEqual([1, 1, 1, 1, 1]);
    for (const [index, value] of [0.5, 5, 50, 500, 5000].entries()) {
      const upper = filled[index]!.upperMs;
      expect(upper).toBeGreaterThanOrEqual(value);
      expect((upper - value) / value).toBeLessThan(0.01);
    }
  });

  it("pools rounds exactly: merged histograms equal the histogram of the pooled samples", () => {
    const rounds = [lognormalSamples(2, 1000, 5), lognormalSamples(3, 800, 9), lognormalSamples(4, 1200, 7)];
    const merged = poolHistograms(rounds.map((samples) => latencyHistogramOf(samples)!));
    const pooled = rounds.flat();
    const nonEmpty = merged.filter((bucket) => bucket.count > 0);
    expect(nonEmpty).toEqual(latencyHistogramOf(pooled)!.filter((bucket) => bucket.count > 0));
    expect(merged.map((bucket) => bucket.count)).toEqual(countsIn(merged, pooled));
  });

  it("has no buckets without samples or with an absurd latency, and refuses a negative one", () => {
    expect(latencyHistogramOf([])).toBeNull();
    expect(latencyHistogramOf([5, 1e9])).not.toBeNull();
    expect(latencyHistogramOf([5, 1e10])).toBeNull();
    expect(latencyHistogramOf([5, 1e300])).toBeNull();
    expect(() => new LatencyRecorder().record(-1)).toThrow(RangeError);
    expect(() => new LatencyRecorder().record(Number.NaN)).toThrow(RangeError);
  });

  it("records a tool's (value, count) pairs as that many samples", () => {
    const pairs: [number, number][] = [
      [0.00118, 1200],
      [0.00121, 35],
      [0.046976, 2],
    ];
    const samples = pairs.flatMap(([value, count]) => Array.from({ length: count }, () => value));
    expect(latencyHistogramOfCounts(pairs, 1e6)).toEqual(latencyHistogramOf(samples, 1e6));
    expect(latencyHistogramOfCounts([[5, 0]])).toBeNull();
    expect(() => new LatencyRecorder().recordCount(5, -1)).toThrow(RangeError);
    expect(() => new LatencyRecorder().recordCount(5, 1.5)).toThrow(RangeError);
  });
});
