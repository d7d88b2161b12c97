import { describe, expect, it } from "vitest";
import { metricRange, METRICS } from "../metrics";
import {
  compareWithNoiseBand,
  historySinceLastChange,
  learnNoiseBand,
  learnRunToRunNoisePct,
  noiseHistory,
  regimeStartIndex,
  sinceLastKnownChange,
} from "./noise-band";

// Hand computation: median of history = (100 + 101)/2 = 100.5; successive differences 2, −3, 2, −1, 3;
// median |d| = 2; run-to-run noise = 1.4826 · 2 / 100.5 = 2.95045%; band (×3) = 8.85134%.
const HISTORY = [100, 102, 99, 101, 100, 103];

describe("learnRunToRunNoisePct", () => {
  it("is the robust sd of successive differences, relative to the median", () => {
    expect(learnRunToRunNoisePct(HISTORY)).toBeCloseTo(2.95045, 4);
  });

  it("is not widened by one outlier run or by a past step", () => {
    const withOutlier = [100, 102, 99, 180, 100, 103, 101];
    const withStep = [100, 102, 99, 101, 130, 131, 129, 132];
    expect(learnRunToRunNoisePct(withOutlier)).toBeLessThan(5);
    expect(learnRunToRunNoisePct(withStep)).toBeLessThan(4);
  });
});

describe("compareWithNoiseBand", () => {
  it("regresses when |Δ%| exceeds the learnt band", () => {
    const result = compareWithNoiseBand(100, 110, HISTORY, { better: "lower" });
    expect(result.verdict).toBe("regressed");
    expect(result.deltaPct).toBeCloseTo(10, 10);
    expect(result.noiseBandPct).toBeCloseTo(8.85134, 4);
    expect(result.thresholdPct).toBeCloseTo(8.85134, 4);
    expect(result.reason).toBe("+10.0% is beyond ±8.9% (noise band ±8.9% from 6 runs, minimum effect 5%)");
  });

  it("is unchanged inside the band, even above the minimum effect", () => {
    expect(compareWithNoiseBand(100, 107, HISTORY, { better: "lower" }).verdict).toBe("unchanged");
  });

  it("falls back to the minimum effect when the history is quieter than it", () => {
    const quiet = [100, 100, 100, 100, 100];
    expect(compareWithNoiseBand(100, 106, quiet, { better: "lower" }).verdict).toBe("regressed");
    expect(compareWithNoiseBand(100, 104, quiet, { better: "lower" }).verdict).toBe("unchanged");
    expect(compareWithNoiseBand(100, 94, quiet, { better: "lower" }).verdict).toBe("improved");
    expect(compareWithNoiseBand(100, 94, quiet, { better: "higher" }).verdict).toBe("regressed");
  });

  it("is inconclusive with fewer than 5 history points, and says so", () => {
    const result = compareWithNoiseBand(100, 150, [100, 101, 99, 100], { better: "lower" });
    expect(result.verdict).toBe("inconclusive");
    expect(result.deltaPct).toBeCloseTo(50, 10);
    expect(result.reason).toBe(
      "insufficient data: need 5 history points on the base branch to learn the noise band, have 4",
    );
  });

  it("is inconclusive when the base value is 0", () => {
    expect(compareWithNoiseBand(0, 1, HISTORY, { better: "lower" }).verdict).toBe("inconclusive");
  });

  it("honours a custom band multiplier and minimum effect", () => {
    const result = compareWithNoiseBand(100, 107, HISTORY, { better: "lower", bandMultiplier: 2, minEffectPct: 3 });
    // band = 2 · 2.95045 = 5.9009% < 7%
    expect(result.verdict).toBe("regressed");
  });
});

describe("historySinceLastChange", () => {
  it("keeps the history after its last step, so a past regression is not taken for noise", () => {
    const before = [20.1, 19.8, 20.4, 19.9, 20.2, 20.0, 19.7, 20.3, 20.1, 19.9];
    const after = [30.2, 29.8, 30.4, 30.1, 29.9, 30.3, 30.0, 29.7];
    expect(historySinceLastChange([...before, ...after])).toEqual(after);
    expect(historySinceLastChange(before)).toEqual(before);
  });
});

describe("noiseHistory", () => {
  it("is the latest 20 values, after a change point detected in them", () => {
    const old = [20.2, 19.9, 20.1, 20.3, 19.8, 20.0, 20.2, 19.9, 20.4, 20.1];
    const before = [20.1, 19.8, 20.4, 19.9, 20.2, 20.0, 19.7, 20.3];
    const after = [30.2, 29.8, 30.4, 30.1, 29.9, 30.3, 30.0, 29.7];
    // 26 values: the oldest 6 are beyond the 20 kept; in the 20, the step to 30 ms is detected.
    expect(noiseHistory([...old, ...before, ...after])).toEqual(after);
    // 28 values of one level: the latest 20.
    expect(noiseHistory([...old, ...before, ...old])).toEqual([...old, ...before, ...old].slice(-20));
  });
});

describe("regimeStartIndex and sinceLastKnownChange", () => {
  const runs = [10, 20, 30, 40, 50].map((time, i) => ({ runId: `r${i}`, time }));

  it("starts at a recorded change's first run, once that run has started", () => {
    const at = regimeStartIndex(runs, [{ runId: "r2" }]);
    expect([15, 30, 45, 100].map(at)).toEqual([0, 2, 2, 2]);
    expect(sinceLastKnownChange(runs, [{ runId: "r2" }]).map((run) => run.runId)).toEqual(["r2", "r3", "r4"]);
  });

  it("starts at the first run at or after a change marker; past every run when the marker comes after them", () => {
    expect(sinceLastKnownChange(runs, [{ at: 25 }]).map((run) => run.runId)).toEqual(["r2", "r3", "r4"]);
    // A marker after the last run and before the judged one: nothing of the history is of its regime.
    expect(sinceLastKnownChange(runs, [{ at: 55 }], 60)).toEqual([]);
    // …but a marker after the judged run is not known to it.
    expect(sinceLastKnownChange(runs, [{ at: 55 }], 52)).toHaveLength(5);
  });

  it("takes the newest of several starts, and ignores runs outside the history", () => {
    expect(sinceLastKnownChange(runs, [{ runId: "r3" }, { at: 15 }, { runId: "elsewhere" }]).map((run) => run.runId)).toEqual([
      "r3",
      "r4",
    ]);
    expect(sinceLastKnownChange(runs, [])).toHaveLength(5);
  });
});

describe("learnNoiseBand", () => {
  it("is the median ± 3 × run-to-run noise, learnt from 5 values or more", () => {
    // As HISTORY above: median 100.5, half-width 3 · 1.4826 · 2 = 8.8956.
    const band = learnNoiseBand(HISTORY)!;
    expect(band.median).toBeCloseTo(100.5, 10);
    expect(band.low).toBeCloseTo(91.6044, 4);
    expect(band.high).toBeCloseTo(109.3956, 4);
    expect(band.runs).toBe(6);
    expect(learnNoiseBand(HISTORY.slice(0, 4))).toBeNull();
    expect(learnNoiseBand([0, 0, 0, 0, 0])).toBeNull();
  });

  it("never leaves the metric's range: a low latency's band stops at 0 ms, an error rate's at 0 and 1", () => {
    // Median 2 ms, successive differences 2 (median): half-width 3 · 1.4826 · 2 = 8.9 ms > the level.
    const noisyLow = [1, 3, 1, 3, 2, 4, 2];
    expect(learnNoiseBand(noisyLow)!.low).toBeCloseTo(2 - 8.8956, 4);
    const latency = learnNoiseBand(noisyLow, { range: metricRange(METRICS.p95) })!;
    expect(latency.low).toBe(0);
    expect(latency.high).toBeCloseTo(2 + 8.8956, 4);
    const errorRate = learnNoiseBand([0.5, 0.9, 0.4, 0.95, 0.5, 0.9], { range: metricRange(METRICS.errorRate) })!;
    expect(errorRate.low).toBe(0);
    expect(errorRate.high).toBe(1);
  });
});
