import { describe, expect, it } from "vitest";
import { chooseThresholdMetric, gateThresholdOf } from "./gate-threshold";

describe("gateThresholdOf", () => {
  it("is the baseline's mean of the gate metric times (1 + minimum effect)", () => {
    // p95 10, 12, 14 ms: mean 12 ms; +5 % → 12.6 ms.
    const baseline = [{ p95: 10 }, { p95: 12 }, { p95: 14 }];
    expect(gateThresholdOf("auto", false, baseline, 5)).toEqual({
      metric: "p95",
      isAuto: true,
      baselineMean: 12,
      baselineRuns: 3,
      minEffectPct: 5,
      value: expect.closeTo(12.6, 10),
    });
  });

  it("says why there is none: no baseline, a metric off the chart, no shared metric", () => {
    expect(gateThresholdOf("auto", false, [], 5)).toMatchObject({ metric: null, why: expect.stringContaining("no baseline") });
    expect(gateThresholdOf("metrics.cpu", false, [{ p95: 1 }], 5)).toMatchObject({ metric: null, why: expect.stringContaining("metrics.cpu") });
    expect(gateThresholdOf("auto", false, [{ p95: 1 }, { p99: 2 }], 5)).toMatchObject({ metric: null });
  });
});

describe("chooseThresholdMetric", () => {
  it("takes auto as the gate does: p95, else p90 (wrk prints none), a benchmark's mean", () => {
    expect(chooseThresholdMetric("auto", false, [{ p95: 1, p90: 1 }])).toEqual({ metric: "p95", isAuto: true });
    expect(chooseThresholdMetric("auto", false, [{ p95: null, p90: 1 }])).toEqual({ metric: "p90", isAuto: true });
    expect(chooseThresholdMetric("auto", true, [{ p95: 1, mean: 2 }])).toEqual({ metric: "mean", isAuto: true });
    expect(chooseThresholdMetric("p99", false, [{ p95: 1 }])).toEqual({ metric: "p99", isAuto: false });
  });
});
