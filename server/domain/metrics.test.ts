import { describe, expect, it } from "vitest";
import { customMetric, METRICS, metricRange } from "./metrics";

describe("metricRange", () => {
  it("keeps latency, throughput and counts at 0 or more, and the error rate (a fraction) within [0, 1]", () => {
    expect(metricRange(METRICS.p95)).toEqual({ min: 0, max: Infinity });
    expect(metricRange(METRICS.mean)).toEqual({ min: 0, max: Infinity });
    expect(metricRange(METRICS.throughput)).toEqual({ min: 0, max: Infinity });
    expect(metricRange(METRICS.errorRate)).toEqual({ min: 0, max: 1 });
    for (const unit of ["MB", "%", "ops/s", "B/op", "allocs/op", "count", "ns"]) {
      expect(metricRange(customMetric("m", { unit, better: "lower" })).min).toBe(0);
    }
  });

  it("leaves a custom metric of an unknown unit unbounded (a temperature, a difference)", () => {
    expect(metricRange(customMetric("drift", { unit: "°C", better: "lower" }))).toEqual({ min: -Infinity, max: Infinity });
    expect(metricRange(customMetric("score", { unit: null, better: "higher" }))).toEqual({ min: -Infinity, max: Infinity });
  });
});
