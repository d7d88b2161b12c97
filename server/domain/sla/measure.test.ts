import { describe, expect, it } from "vitest";
import { emptyEndpoint, type EndpointResult } from "../run";
import { measureTarget } from "./measure";

function result(overrides: Partial<EndpointResult> = {}): EndpointResult {
  const endpoint = emptyEndpoint("GetListing");
  return {
    ...endpoint,
    requests: 200,
    failures: 3,
    throughput: 41.5,
    latency: { minMs: 0.4, meanMs: 2.5, maxMs: 19, stdDevMs: null, percentiles: { "50": 2, "95": 7.5, "99.90": 15 } },
    metrics: { cpu: { value: 63, unit: "%", better: "lower" } },
    ...overrides,
  };
}

describe("measureTarget", () => {
  it("reads built-in metrics as the registry does, percentiles however the tool spelled them", () => {
    expect(measureTarget({ metric: "p95" }, result())).toEqual({ value: 7.5, noDataReason: null });
    expect(measureTarget({ metric: "p99.9" }, result())).toEqual({ value: 15, noDataReason: null });
    expect(measureTarget({ metric: "mean" }, result()).value).toBe(2.5);
    expect(measureTarget({ metric: "min" }, result()).value).toBe(0.4);
    expect(measureTarget({ metric: "max" }, result()).value).toBe(19);
    expect(measureTarget({ metric: "throughput" }, result()).value).toBe(41.5);
    expect(measureTarget({ metric: "errorRate" }, result()).value).toBe(0.015);
  });

  it("says why a built-in metric has no value, never 0", () => {
    const bare = result({ requests: null, throughput: null, latency: emptyEndpoint("x").latency });
    expect(measureTarget({ metric: "p99" }, bare)).toEqual({ value: null, noDataReason: "p99 not reported" });
    expect(measureTarget({ metric: "mean" }, bare).noDataReason).toBe("mean latency not reported");
    expect(measureTarget({ metric: "throughput" }, bare).noDataReason).toBe("throughput not reported");
    expect(measureTarget({ metric: "errorRate" }, bare).noDataReason).toBe("requests or failures not reported");
    expect(measureTarget({ metric: "errorRate" }, result({ requests: 0, failures: 0 })).noDataReason).toBe(
      "no requests",
    );
  });

  it("reads custom metrics with their unit, falling back to run-level ones", () => {
    expect(measureTarget({ metric: "metrics.cpu", unit: "%" }, result()).value).toBe(63);
    expect(measureTarget({ metric: "metrics.cpu", unit: "cores" }, result()).noDataReason).toBe(
      'metric "cpu" reported in %, target is in cores',
    );
    expect(measureTarget({ metric: "metrics.memory" }, result()).noDataReason).toBe('metric "memory" not reported');
    const runLevel = { memory: { value: 101, unit: "MB", better: "lower" as const } };
    expect(measureTarget({ metric: "metrics.memory", unit: "MB" }, result(), runLevel).value).toBe(101);
  });
});
