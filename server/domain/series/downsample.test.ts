import { describe, expect, it } from "vitest";
import { downsampleLttb, downsampleMinMax, type SeriesPoint } from "./downsample";

/** Deterministic noisy series (no Math.random, so failures reproduce). */
function wave(length: number): SeriesPoint[] {
  return Array.from({ length }, (_, x) => ({ x, y: Math.sin(x / 7) * 10 + ((x * 7919) % 13) }));
}

function isSubsequence<P>(subset: readonly P[], of: readonly P[]): boolean {
  let at = 0;
  for (const item of subset) {
    at = of.indexOf(item, at);
    if (at === -1) return false;
    at += 1;
  }
  return true;
}

describe("downsampleLttb", () => {
  it("returns a copy of the input when it is already short enough", () => {
    const points = wave(10);
    const result = downsampleLttb(points, 10);
    expect(result).toEqual(points);
    expect(result).not.toBe(points);
    expect(downsampleLttb([], 5)).toEqual([]);
  });

  it.each([2, 3, 10, 99, 500])("keeps exactly %i points: first, last, in order", (threshold) => {
    const points = wave(1000);
    const result = downsampleLttb(points, threshold);
    expect(result).toHaveLength(threshold);
    expect(result[0]).toBe(points[0]);
    expect(result.at(-1)).toBe(points.at(-1));
    expect(isSubsequence(result, points)).toBe(true);
  });

  it("keeps a lone spike", () => {
    const points = Array.from({ length: 1000 }, (_, x) => ({ x, y: x === 437 ? 900 : 10 }));
    expect(downsampleLttb(points, 20).some((point) => point.y === 900)).toBe(true);
  });

  it("picks the largest triangle (hand-worked 3-bucket case)", () => {
    // Inner points split into buckets x∈{1,2}, {3,4}, {5,6}; doubled area |(a.x−c.x)(b.y−a.y) − (a.x−b.x)(c.y−a.y)|.
    // Bucket 1: a=(0,0), c=mean(3,4)=(3.5,−2): x=1 → 5.5, x=2 → 21.5, keep 2.
    // Bucket 2: a=(2,5), c=mean(5,6)=(5.5,0.5): x=3 → 13, x=4 → 22.5, keep 4.
    // Bucket 3: a=(4,−4), c=last=(7,0): x=5 → 8, x=6 → 7, keep 5.
    const ys = [0, 1, 5, 0, -4, 0, 1, 0];
    const points = ys.map((y, x) => ({ x, y }));
    expect(downsampleLttb(points, 5).map((point) => point.x)).toEqual([0, 2, 4, 5, 7]);
  });

  it("keeps gaps as null points and resumes at the first point after a gap", () => {
    const points: SeriesPoint[] = Array.from({ length: 100 }, (_, x) => ({
      x,
      y: x >= 40 && x < 60 ? null : 10 + (x % 5),
    }));
    const result = downsampleLttb(points, 12);
    expect(result).toHaveLength(12);
    expect(result.filter((point) => point.y === null).length).toBeGreaterThan(0);
    expect(result.find((point) => point.x >= 60 && point.y !== null)?.x).toBe(60);
    expect(result.filter((point) => point.x < 40 && point.y !== null).at(-1)?.x).toBe(39);
    expect(isSubsequence(result, points)).toBe(true);
  });

  it("keeps extra fields (run ids) by returning the input objects", () => {
    const points = Array.from({ length: 50 }, (_, x) => ({ x, y: x % 3, runId: `run-${x}` }));
    expect(downsampleLttb(points, 5).every((point) => point.runId === `run-${point.x}`)).toBe(true);
  });

  it("rejects a threshold that is not an integer ≥ 2", () => {
    expect(() => downsampleLttb(wave(10), 1)).toThrow(RangeError);
    expect(() => downsampleLttb(wave(10), 2.5)).toThrow(RangeError);
  });
});

describe("downsampleMinMax", () => {
  it("returns a copy of the input when it fits in 2 × buckets", () => {
    const points = wave(20);
    expect(downsampleMinMax(points, 10)).toEqual(points);
  });

  it.each([1, 7, 50, 333])("keeps at most 2 × %i points, in order", (buckets) => {
    const points = wave(1000);
    const result = downsampleMinMax(points, buckets);
    expect(result.length).toBeLessThanOrEqual(buckets * 2);
    expect(isSubsequence(result, points)).toBe(true);
  });

  it("keeps the global minimum and maximum, and every bucket's spike", () => {
    const points = wave(1000);
    const spikes = new Set([13, 250, 251, 777]);
    const spiky = points.map((point) => (spikes.has(point.x) ? { ...point, y: 500 } : point));
    spiky[600] = { x: 600, y: -500 };
    const result = downsampleMinMax(spiky, 10);
    const ys = result.map((point) => point.y);
    expect(ys).toContain(-500);
    // One kept spike per bucket that has one: buckets of 100 points hold 13, 250/251 (one kept) and 777.
    expect(result.filter((point) => point.y === 500).map((point) => point.x)).toEqual([13, 250, 777]);
  });

  it("puts min before max when the min comes first, and keeps a flat bucket once", () => {
    const points = [5, 1, 9, 2, 7, 7, 7, 7].map((y, x) => ({ x, y }));
    expect(downsampleMinMax(points, 2).map((point) => point.x)).toEqual([1, 2, 4]);
  });

  it("marks an all-gap bucket with one null point and ignores nulls elsewhere", () => {
    const ys = [1, null, 3, 2, null, null, null, null, 4, 0, null, 8];
    const points = ys.map((y, x) => ({ x, y }));
    const result = downsampleMinMax(points, 3);
    expect(result.map((point) => [point.x, point.y])).toEqual([
      [0, 1],
      [2, 3],
      [4, null],
      [9, 0],
      [11, 8],
    ]);
  });
});
