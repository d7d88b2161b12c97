import { describe, expect, it } from "vitest";
import { createSeededRandom } from "../stats/random";
import type { ShiftPoint } from "./machine-shift";
import { estimateMachineShift, halfSampleMode } from "./machine-shift";

const NOISE = { prior: 0.05, floor: 0.02 };
const point = (key: string, change: number, within = 0.03): ShiftPoint => ({ key, y: Math.log(change), within, df: 8 });

describe("halfSampleMode", () => {
  it("finds the densest half, whatever a spread-out majority does", () => {
    // Three values agree near 0; four changed ones are spread from 0.4 to 1.0.
    // The densest half is [−0.02, 0.01, 0.03, 0.4]; its densest half [0.01, 0.03].
    expect(halfSampleMode([0.01, -0.02, 0.03, 0.4, 0.55, 0.7, 1.0])).toBeCloseTo(0.02, 9);
  });

  it("is the middle value of three evenly spaced, the mean of two, the value of one, null of none", () => {
    expect(halfSampleMode([1, 2, 3])).toBe(2);
    expect(halfSampleMode([1, 3])).toBe(2);
    expect(halfSampleMode([5])).toBe(5);
    expect(halfSampleMode([])).toBeNull();
  });
});

describe("estimateMachineShift", () => {
  it("a burst that slows the whole run by 30%: every benchmark moved together, the shift is the burst", () => {
    const points = ["a", "b", "c", "d", "e", "f", "g"].map((key, index) => point(key, 1.3 * (1 + (index - 3) * 0.01)));
    const shift = estimateMachineShift(points, NOISE)!;
    expect(Math.expm1(shift.shift) * 100).toBeCloseTo(30, 0);
    expect(shift.keys).toHaveLength(7);
    expect(shift.alternatives).toEqual([]);
  });

  it("four of seven benchmarks changed, each by its own factor: the shift is the three that did not, not the median", () => {
    // The go run: SortInts ×1.6, ×2.8, ×1.9 and JoinInts ×1.5 slower; the rest +5%, −18%, −3%.
    // Repetitions as noisy as that run's (5 a side, 10–15% apart: about 7% on a ratio).
    const points = [1.6, 2.8, 1.9, 1.5, 1.05, 0.82, 0.97].map((change, index) => point(["sort100", "sort1000", "sort10000", "join", "encode", "map", "checksum"][index]!, change, 0.07));
    const shift = estimateMachineShift(points, NOISE)!;
    expect(shift.keys.sort()).toEqual(["checksum", "encode", "map"]);
    expect(Math.abs(Math.expm1(shift.shift))).toBeLessThan(0.1);
    // The changed benchmarks that happen to agree form other groups: one run against one cannot tell them from a partial burst.
    expect(shift.alternatives.flatMap((group) => group.keys)).not.toContain("encode");
  });

  it("two groups of the same size: the one nearer 0 is the machine (a burst on part of the run slows, it does not speed up)", () => {
    const points = [point("a", 1.0), point("b", 1.01), point("c", 0.99), point("d", 1.45), point("e", 1.46), point("f", 1.44)];
    const shift = estimateMachineShift(points, NOISE)!;
    expect(shift.keys.sort()).toEqual(["a", "b", "c"]);
    expect(shift.alternatives).toHaveLength(1);
    expect(shift.alternatives[0]!.keys.sort()).toEqual(["d", "e", "f"]);
  });

  it("measures the suite's noise beyond the repetitions from five benchmarks or more, and takes the prior below", () => {
    const random = createSeededRandom(7);
    const many = Array.from({ length: 12 }, (_, index) => ({ key: `b${index}`, y: random.gaussian(0, 0.08), within: 0.01, df: 8 }));
    const measured = estimateMachineShift(many, NOISE)!;
    expect(measured.tauFrom).toBeGreaterThanOrEqual(5);
    expect(measured.tau).toBeGreaterThan(0.04);
    expect(measured.tau).toBeLessThan(0.16);
    const few = estimateMachineShift(many.slice(0, 3), NOISE)!;
    expect(few.tauFrom).toBe(0);
    expect(few.tau).toBe(NOISE.prior);
  });

  it("null without a benchmark", () => {
    expect(estimateMachineShift([], NOISE)).toBeNull();
  });
});
