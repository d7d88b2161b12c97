import { describe, expect, it } from "vitest";
import { ISSUE_BASE_P95_MS, ISSUE_HEAD_P95_MS } from "./issue-example.fixture";
import { createSeededRandom } from "./random";
import { noiseFloor, testShift } from "./shift-test";

// Expected values from scipy 1.17 (stats.ttest_ind(..., alternative="greater"), stats.t.sf, stats.mannwhitneyu).
describe("testShift", () => {
  it("gives the one-sided p of Welch's t test: the issue's p95 rounds, t = 14.90, df = 5.61, p = 5.03e-6", () => {
    const result = testShift({ base: ISSUE_BASE_P95_MS, head: ISSUE_HEAD_P95_MS, test: "welch", resolution: 0, longRunSd: null });
    expect(result.test).toBe("welch");
    expect(result.degreesOfFreedom).toBeCloseTo(5.607, 3);
    expect(result.pValue).toBeCloseTo(5.034905e-6, 10);
    expect(result.floor).toBeNull();
  });

  it("pools the variances (Student): the same rounds give df = 8, p = 2.03e-7; [1, 3] vs [4, 6] give t = 3/√2, p = 0.08397", () => {
    const issue = testShift({ base: ISSUE_BASE_P95_MS, head: ISSUE_HEAD_P95_MS, test: "student", resolution: 0, longRunSd: null });
    expect(issue).toMatchObject({ test: "student", degreesOfFreedom: 8 });
    expect(issue.pValue).toBeCloseTo(2.0297699e-7, 12);
    const small = testShift({ base: [1, 3], head: [4, 6], test: "student", resolution: 0, longRunSd: null });
    expect(small.pValue).toBeCloseTo(0.0839749, 6);
    expect(small.standardError).toBeCloseTo(Math.SQRT2, 12);
  });

  it("judges one head value with the prediction-interval t test: [10, 12, 14] against 18, p = 0.06084", () => {
    const result = testShift({ base: [10, 12, 14], head: [18], test: "welch", resolution: 0, longRunSd: null });
    expect(result).toMatchObject({ test: "prediction", degreesOfFreedom: 2 });
    expect(result.pValue).toBeCloseTo(0.060845, 5);
    expect(result.standardError).toBeCloseTo(2 * Math.sqrt(4 / 3), 12);
  });

  it("gives the one-sided exact Mann–Whitney p: 5 vs 5 fully separated, 1/252", () => {
    const result = testShift({ base: ISSUE_BASE_P95_MS, head: ISSUE_HEAD_P95_MS, test: "mann-whitney", resolution: 0, longRunSd: null });
    expect(result.test).toBe("mann-whitney");
    expect(result.pValue).toBeCloseTo(1 / 252, 12);
  });

  it("is symmetric: a faster head gets the same p in the other direction", () => {
    const slower = testShift({ base: [10, 12, 14], head: [18], test: "student", resolution: 0, longRunSd: null });
    const faster = testShift({ base: [10, 12, 14], head: [6], test: "student", resolution: 0, longRunSd: null });
    expect(faster.pValue).toBeCloseTo(slower.pValue, 12);
  });

  describe("the tool's resolution (whole-ms values, as Locust writes them)", () => {
    it("never finds a difference of one step: 9 ms five times, then 10 ms", () => {
      const result = testShift({ base: [9, 9, 9, 9, 9], head: [10], test: "student", resolution: 1, longRunSd: null });
      expect(result).toMatchObject({ isWithinResolution: true, pValue: 1 });
    });

    it("tests two steps as one, against the quantisation noise 1/√12: 9 ms five times, then 11 ms, p = 0.01705", () => {
      const result = testShift({ base: [9, 9, 9, 9, 9], head: [11], test: "student", resolution: 1, longRunSd: null });
      expect(result.floor).toBe("resolution");
      expect(result.pValue).toBeCloseTo(0.0170547, 6);
    });

    it("without the resolution, the same readings would be a certain difference (p = 0)", () => {
      // The zero-variance trap the floors exist for: 0.1% of the level is the last floor, and it is tiny.
      const result = testShift({ base: [9, 9, 9, 9, 9], head: [10], test: "student", resolution: 0, longRunSd: null });
      expect(result.floor).toBe("relative");
      expect(result.pValue).toBeLessThan(1e-6);
    });
  });

  it("borrows half the series' longer-run noise when the window is (nearly) silent: 100 ×5, then 103, sd 4 → floor 2, p = 0.1214", () => {
    const result = testShift({ base: [100, 100, 100, 100, 100], head: [103], test: "student", resolution: 0, longRunSd: 4 });
    expect(result.floor).toBe("long-run");
    expect(result.pValue).toBeCloseTo(0.1213749, 6);
    // A window as noisy as its series does not borrow.
    expect(testShift({ base: [96, 104, 99, 101, 100], head: [103], test: "student", resolution: 0, longRunSd: 4 }).floor).toBeNull();
  });

  it("keeps its false-positive rate: 20,000 unchanged heads (30 runs of history, one-sided α = 0.01) flag 1.0% ± 0.2%", () => {
    const random = createSeededRandom(2121);
    let flagged = 0;
    const trials = 20_000;
    for (let trial = 0; trial < trials; trial++) {
      const base = Array.from({ length: 30 }, () => random.gaussian(100, 5));
      const head = [random.gaussian(100, 5)];
      const result = testShift({ base, head, test: "student", resolution: 0, longRunSd: null });
      if (head[0]! > 100 && result.pValue < 0.01) flagged++;
    }
    // One direction only (head above the mean): the rate of a false "regressed".
    expect(flagged / trials).toBeGreaterThan(0.008);
    expect(flagged / trials).toBeLessThan(0.012);
  });

  it("names the floor that sets the spread", () => {
    expect(noiseFloor(9, 1, null)).toEqual({ sd: 1 / Math.sqrt(12), kind: "resolution" });
    expect(noiseFloor(100, 0, 4)).toEqual({ sd: 2, kind: "long-run" });
    expect(noiseFloor(100, 0, null)).toEqual({ sd: 0.1, kind: "relative" });
  });
});
