import { describe, expect, it } from "vitest";
import { isInsufficient } from "./insufficient";
import { poolHistograms, readPooledPercentile, type PooledPercentileResult } from "./pooled-percentile";

function valueOf(result: PooledPercentileResult): number {
  if (isInsufficient(result)) throw new Error(result.reason);
  return result.valueMs;
}

describe("readPooledPercentile", () => {
  // Run A: 50 in (0, 10], 50 in (10, 20]; run B: 100 in (10, 20]. Merged: 50 | 150, 200 samples.
  const runA = [
    { upperMs: 10, count: 50 },
    { upperMs: 20, count: 50 },
  ];
  const runB = [
    { upperMs: 10, count: 0 },
    { upperMs: 20, count: 100 },
  ];

  it("interpolates linearly inside the bucket (hand-computed)", () => {
    // p50: rank 100; 50 below; (100 − 50)/150 = 1/3 of (10, 20] → 13.333 ms
    expect(valueOf(readPooledPercentile([runA, runB], 50))).toBeCloseTo(10 + 10 / 3, 10);
    // p25: rank 50 = end of the first bucket → 10 ms
    expect(valueOf(readPooledPercentile([runA, runB], 25))).toBeCloseTo(10, 10);
    // p95: rank 190; (190 − 50)/150 of (10, 20] → 19.333 ms
    expect(valueOf(readPooledPercentile([runA, runB], 95))).toBeCloseTo(10 + (140 / 150) * 10, 10);
    expect(valueOf(readPooledPercentile([runA, runB], 0))).toBe(0);
    expect(valueOf(readPooledPercentile([runA, runB], 100))).toBe(20);
  });

  it("is not the mean of the runs' percentiles", () => {
    const p50A = valueOf(readPooledPercentile([runA], 50)); // 10
    const p50B = valueOf(readPooledPercentile([runB], 50)); // 15
    expect((p50A + p50B) / 2).toBe(12.5);
    expect(valueOf(readPooledPercentile([runA, runB], 50))).not.toBeCloseTo(12.5, 3);
  });

  it("merges histograms with different bucket edges by spreading counts over the finer buckets", () => {
    const coarse = [{ upperMs: 10, count: 100 }];
    const fine = [
      { upperMs: 5, count: 50 },
      { upperMs: 10, count: 50 },
    ];
    // coarse's 100 samples in (0, 10] become 50 in (0, 5] and 50 in (5, 10].
    expect(poolHistograms([coarse, fine])).toEqual([
      { upperMs: 5, count: 100 },
      { upperMs: 10, count: 100 },
    ]);
    expect(valueOf(readPooledPercentile([coarse, fine], 75))).toBeCloseTo(7.5, 10);
  });

  it("reports a percentile in an open-ended bucket as insufficient", () => {
    const withOverflow = [
      { upperMs: 10, count: 90 },
      { upperMs: Number.POSITIVE_INFINITY, count: 10 },
    ];
    expect(valueOf(readPooledPercentile([withOverflow], 90))).toBe(10);
    const p95 = readPooledPercentile([withOverflow], 95);
    expect(isInsufficient(p95) && p95.reason).toBe(
      "p95 falls in the open-ended bucket above 10 ms; only a lower bound is known",
    );
  });

  it("is insufficient without samples, and rejects bad input", () => {
    expect(isInsufficient(readPooledPercentile([], 50))).toBe(true);
    expect(isInsufficient(readPooledPercentile([[{ upperMs: 5, count: 0 }]], 50))).toBe(true);
    expect(() => readPooledPercentile([runA], 101)).toThrow(RangeError);
    expect(() =>
      readPooledPercentile(
        [
          [
            { upperMs: 10, count: 1 },
            { upperMs: 5, count: 1 },
          ],
        ],
        50,
      ),
    ).toThrow(RangeError);
  });

  it("handles an exact-value bucket at the lower edge", () => {
    const histogram = [
      { upperMs: 0, count: 10 },
      { upperMs: 1, count: 10 },
    ];
    expect(valueOf(readPooledPercentile([histogram], 25))).toBe(0);
    expect(valueOf(readPooledPercentile([histogram], 75))).toBeCloseTo(0.5, 10);
  });

  it("spreads each bucket over the merged buckets it covers, as the definition does, on many unaligned histograms", () => {
    // The definition, bucket by bucket over every merged bucket (what poolHistograms computed in one
    // walk per histogram must equal): a merged bucket (lower, upper] inside a source bucket gets the
    // source's count times its share of the source's width; an open-ended source's count goes to +∞.
    function definition(histograms: { upperMs: number; count: number }[][]) {
      const edges = [...new Set(histograms.flat().map((bucket) => bucket.upperMs))].sort((a, b) => a - b);
      const merged = edges.map((upperMs) => ({ upperMs, count: 0 }));
      for (const histogram of histograms) {
        let lower = 0;
        for (const { upperMs: upper, count } of histogram) {
          merged.forEach((target, index) => {
            const targetLower = index === 0 ? 0 : merged[index - 1]!.upperMs;
            if (upper === lower) {
              if (target.upperMs === upper) target.count += count;
            } else if (target.upperMs > lower && target.upperMs <= upper) {
              if (upper === Number.POSITIVE_INFINITY) target.count += target.upperMs === upper ? count : 0;
              else target.count += (count * (target.upperMs - Math.max(targetLower, lower))) / (upper - lower);
            }
          });
          lower = upper;
        }
      }
      return merged;
    }
    let seed = 1;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let trial = 0; trial < 300; trial++) {
      const histograms = Array.from({ length: 1 + Math.floor(random() * 5) }, () => {
        const edges = [...new Set(Array.from({ length: Math.floor(random() * 30) }, () => Math.floor(random() * 60) * 0.25))].sort((a, b) => a - b);
        const histogram = edges.map((upperMs) => ({ upperMs, count: Math.floor(random() * 100) }));
        if (random() < 0.2) histogram.push({ upperMs: Number.POSITIVE_INFINITY, count: 3 });
        return histogram;
      });
      expect(poolHistograms(histograms)).toEqual(definition(histograms));
    }
  });
});
