import { describe, expect, it } from "vitest";
import { compareWithNoiseBand, historySinceLastChange, learnRunToRunNoisePct } from "./noise-band";

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
