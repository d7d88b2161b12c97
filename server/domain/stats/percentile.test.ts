import { describe, expect, it } from "vitest";
import { percentileOfSorted, summarizeSamples } from "./percentile";

describe("percentileOfSorted", () => {
  it("interpolates between the two nearest ranks (rank = p/100 × (n − 1))", () => {
    const sorted = [10, 20, 30, 40];
    // rank 0.5 × 3 = 1.5 → halfway between 20 and 30.
    expect(percentileOfSorted(sorted, 50)).toBe(25);
    // rank 0.9 × 3 = 2.7 → 30 + 0.7 × 10.
    expect(percentileOfSorted(sorted, 90)).toBeCloseTo(37, 12);
    expect(percentileOfSorted(sorted, 0)).toBe(10);
    expect(percentileOfSorted(sorted, 100)).toBe(40);
  });

  it("returns the only sample for every p", () => {
    expect(percentileOfSorted(new Float64Array([7]), 99.9)).toBe(7);
  });

  it("matches NumPy's default linear method on a hand-checked case", () => {
    // numpy.percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95) == 9.55
    const sorted = Array.from({ length: 10 }, (_, i) => i + 1);
    expect(percentileOfSorted(sorted, 95)).toBeCloseTo(9.55, 12);
    expect(percentileOfSorted(sorted, 99.9)).toBeCloseTo(9.991, 12);
  });

  it("rejects empty input and p outside 0..100", () => {
    expect(() => percentileOfSorted([], 50)).toThrow(RangeError);
    expect(() => percentileOfSorted([1], 101)).toThrow(RangeError);
    expect(() => percentileOfSorted([1], Number.NaN)).toThrow(RangeError);
  });
});

describe("summarizeSamples", () => {
  it("summarises unsorted samples without changing them", () => {
    const samples = [4, 1, 3, 2];
    const summary = summarizeSamples(samples);
    expect(samples).toEqual([4, 1, 3, 2]);
    expect(summary.minMs).toBe(1);
    expect(summary.maxMs).toBe(4);
    expect(summary.meanMs).toBe(2.5);
    // Sample variance: ((1.5² + 0.5²) × 2) / 3 = 5/3.
    expect(summary.stdDevMs).toBeCloseTo(Math.sqrt(5 / 3), 12);
    expect(Object.keys(summary.percentiles)).toEqual(["50", "90", "95", "99", "99.9"]);
    expect(summary.percentiles["50"]).toBe(2.5);
  });

  it("gives nulls, not zeros, for no samples; no spread for one sample", () => {
    expect(summarizeSamples([])).toEqual({ minMs: null, meanMs: null, maxMs: null, stdDevMs: null, percentiles: {} });
    expect(summarizeSamples([5]).stdDevMs).toBeNull();
  });
});
