import { describe, expect, it } from "vitest";
import { niceStep, toHistogramBars } from "./histogram-bars";

describe("toHistogramBars", () => {
  it("keeps a few buckets as they are, each bar's range starting where the previous ended", () => {
    const bars = toHistogramBars([
      { upperMs: 3, count: 2 },
      { upperMs: 1, count: 1 },
      { upperMs: 5, count: 1 },
    ]);
    expect(bars).toEqual([
      { lowerMs: null, upperMs: 1, count: 1, share: 0.25 },
      { lowerMs: 1, upperMs: 3, count: 2, share: 0.5 },
      { lowerMs: 3, upperMs: 5, count: 1, share: 0.25 },
    ]);
  });

  it("merges many buckets into equal-width bins, empty bins included, counts preserved", () => {
    // Locust-style exact values 1..100 ms (100 buckets), one call each, plus 20 calls at 7 ms.
    const buckets = Array.from({ length: 100 }, (_, i) => ({ upperMs: i + 1, count: i + 1 === 7 ? 21 : 1 }));
    buckets.push({ upperMs: 250, count: 2 });
    const bars = toHistogramBars(buckets, 40);
    // (250 − 1) / 40 = 6.2 → a 10 ms step from 0: bins (0,10], (10,20] … (240,250].
    expect(bars).toHaveLength(25);
    expect(bars[0]).toEqual({ lowerMs: 0, upperMs: 10, count: 30, share: 30 / 122 });
    expect(bars[1]).toMatchObject({ lowerMs: 10, upperMs: 20, count: 10 });
    expect(bars[12]).toMatchObject({ lowerMs: 120, upperMs: 130, count: 0 });
    expect(bars[24]).toMatchObject({ lowerMs: 240, upperMs: 250, count: 2 });
    expect(bars.reduce((sum, bar) => sum + bar.count, 0)).toBe(122);
  });

  it("is empty for no buckets or no counts", () => {
    expect(toHistogramBars([])).toEqual([]);
    expect(toHistogramBars([{ upperMs: 1, count: 0 }])).toEqual([]);
  });

  it("ignores buckets with a non-finite edge or a negative count", () => {
    const bars = toHistogramBars([
      { upperMs: Number.POSITIVE_INFINITY, count: 5 },
      { upperMs: 2, count: -1 },
      { upperMs: 4, count: 3 },
    ]);
    expect(bars).toEqual([{ lowerMs: null, upperMs: 4, count: 3, share: 1 }]);
  });

  it("bins fractional edges without floating-point noise", () => {
    // 0.01 ms steps over 0..0.5 ms: a 0.02 ms bin width.
    const buckets = Array.from({ length: 50 }, (_, i) => ({ upperMs: (i + 1) / 100, count: 1 }));
    const bars = toHistogramBars(buckets, 40);
    expect(bars[0]).toMatchObject({ lowerMs: 0, upperMs: 0.02, count: 2 });
    expect(bars[14]).toMatchObject({ lowerMs: 0.28, upperMs: 0.3 });
    expect(bars.reduce((sum, bar) => sum + bar.count, 0)).toBe(50);
  });
});

describe("niceStep", () => {
  it("picks 1-2-5 steps", () => {
    expect(niceStep(6.2)).toBe(10);
    expect(niceStep(1.5)).toBe(2);
    expect(niceStep(0.03)).toBe(0.05);
    expect(niceStep(5)).toBe(5);
    expect(niceStep(0)).toBe(1);
  });

  it("is 1 for a width that is not a positive finite number", () => {
    expect(niceStep(-3)).toBe(1);
    expect(niceStep(Number.NaN)).toBe(1);
    expect(niceStep(Number.POSITIVE_INFINITY)).toBe(1);
  });
});
