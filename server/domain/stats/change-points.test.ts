import { describe, expect, it } from "vitest";
import { detectChangePoints } from "./change-points";
import { createSeededRandom, generateNormalSample } from "./random";

const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);

describe("detectChangePoints", () => {
  it.each(SEEDS)("finds exactly one change at 40 ± 1 in a +30%% step, CV 5%% (seed %i)", (seed) => {
    const random = createSeededRandom(seed);
    const series = [...generateNormalSample(random, 40, 100, 0.05), ...generateNormalSample(random, 20, 130, 0.05)];
    const changePoints = detectChangePoints(series);
    expect(changePoints).toHaveLength(1);
    const [changePoint] = changePoints;
    expect(Math.abs((changePoint?.index ?? -1) - 40)).toBeLessThanOrEqual(1);
    expect(changePoint?.direction).toBe("increase");
    expect(changePoint?.deltaPct).toBeGreaterThan(20);
  });

  it.each(SEEDS)("finds nothing in 500 flat points, CV 5%% (seed %i)", (seed) => {
    const series = generateNormalSample(createSeededRandom(seed), 500, 100, 0.05);
    expect(detectChangePoints(series)).toEqual([]);
  });

  it("describes a clean step exactly", () => {
    const series = [...Array<number>(10).fill(1), ...Array<number>(10).fill(2)];
    expect(detectChangePoints(series)).toEqual([
      {
        index: 10,
        before: { mean: 1, n: 10 },
        after: { mean: 2, n: 10 },
        deltaPct: 100,
        pValue: 0,
        direction: "increase",
      },
    ]);
  });

  it("finds a step up and a step back down", () => {
    const random = createSeededRandom(5);
    const series = [
      ...generateNormalSample(random, 40, 100, 0.05),
      ...generateNormalSample(random, 40, 125, 0.05),
      ...generateNormalSample(random, 40, 100, 0.05),
    ];
    const changePoints = detectChangePoints(series);
    expect(changePoints.map((changePoint) => changePoint.direction)).toEqual(["increase", "decrease"]);
    expect(Math.abs((changePoints[0]?.index ?? 0) - 40)).toBeLessThanOrEqual(2);
    expect(Math.abs((changePoints[1]?.index ?? 0) - 80)).toBeLessThanOrEqual(2);
  });

  it("ignores single-point spikes", () => {
    const random = createSeededRandom(9);
    const series = generateNormalSample(random, 100, 100, 0.05);
    series[30] = 150;
    series[70] = 160;
    expect(detectChangePoints(series)).toEqual([]);
  });

  it("applies its guards: a 1.5% step passes the t-test but not the 2% minimum change", () => {
    const random = createSeededRandom(2);
    const series = [...generateNormalSample(random, 60, 100, 0.002), ...generateNormalSample(random, 60, 101.5, 0.002)];
    expect(detectChangePoints(series, { minRelativeChangePct: 1 })).toHaveLength(1);
    expect(detectChangePoints(series)).toEqual([]);
  });

  it("needs two segments of minSegmentLength points", () => {
    expect(detectChangePoints([1, 1, 1, 1, 1, 2, 2, 2, 2, 2])).toEqual([]);
    expect(detectChangePoints([1, 1, 1, 1, 1, 2, 2, 2, 2, 2], { minSegmentLength: 5 })).toHaveLength(1);
  });

  it("takes well under 100 ms for 500 points", () => {
    const series = [
      ...generateNormalSample(createSeededRandom(3), 250, 100, 0.05),
      ...generateNormalSample(createSeededRandom(4), 250, 120, 0.05),
    ];
    detectChangePoints(series);
    const startedAt = performance.now();
    detectChangePoints(series);
    expect(performance.now() - startedAt).toBeLessThan(100);
  });
});
