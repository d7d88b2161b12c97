import { describe, expect, it } from "vitest";
import { parseBenchtrack } from "../parsers/benchtrack/benchtrack";
import type { EndpointResult } from "../run";
import { benchmarkResult } from "../parsers/benchmark";
import { chooseGateMetric } from "./gate-metric";

const result = (requests: number, latency: Record<string, number>, metrics: Record<string, unknown> = {}): EndpointResult =>
  parseBenchtrack({ schema: "benchtrack/v1", endpoints: [{ name: "GetListing", requests, latency: { unit: "ms", ...latency }, metrics }] })
    .endpoints[0]!;

describe("chooseGateMetric", () => {
  const full = { p50: 4, p90: 8, p95: 10, p99: 20, mean: 5 };

  it("auto: p95 when every run reports it and has ≥ 200 requests", () => {
    expect(chooseGateMetric("auto", [result(5000, full), result(4000, full)])).toMatchObject({
      metric: { name: "p95" },
      why: "p95 (auto: every run has ≥ 4,000 requests)",
    });
  });

  it("auto: the tail the request count supports — p90 from 100 requests, p50 from 20, then the mean", () => {
    expect(chooseGateMetric("auto", [result(150, full), result(5000, full)]).metric.name).toBe("p90");
    expect(chooseGateMetric("auto", [result(50, full), result(5000, full)]).metric.name).toBe("p50");
    expect(chooseGateMetric("auto", [result(10, full), result(5000, full)])).toMatchObject({
      metric: { name: "mean" },
      why: "mean (auto: no percentile has requests enough)",
    });
  });

  it("auto: a tool that prints no p95 (wrk, hey, autocannon) is gated on p90", () => {
    const { p95: _p95, ...noP95 } = full;
    expect(chooseGateMetric("auto", [result(5000, noP95), result(5000, noP95)]).metric.name).toBe("p90");
  });

  it("skips runs that lack the endpoint, and names the project's own choice as such", () => {
    expect(chooseGateMetric("auto", [undefined, result(5000, full)]).metric.name).toBe("p95");
    expect(chooseGateMetric("p99", [result(50, full)])).toMatchObject({ metric: { name: "p99" }, why: "p99 (the project's gate metric)" });
    const custom = chooseGateMetric("metrics.cpu", [result(50, full, { cpu: { value: 40, unit: "%", better: "lower" } })]);
    expect(custom.metric).toMatchObject({ name: "metrics.cpu", unit: "%", better: "lower" });
  });

  it("auto: a benchmark with no time is gated on its one metric with a direction (a custom MiB/s), and on none when it has two", () => {
    const bandwidth = (value: number, extra: Record<string, { value: number; unit: string; better: "lower" | "higher" | null }> = {}) =>
      benchmarkResult({ name: "sequential_write", metrics: { "MiB/s": { value, unit: "MiB/s", better: "higher" }, ...extra } });
    expect(chooseGateMetric("auto", [bandwidth(1792), bandwidth(900)])).toMatchObject({
      metric: { name: "metrics.MiB/s", better: "higher" },
      why: "metrics.MiB/s (auto: a benchmark measured without time is gated on its one metric with a direction)",
    });
    // A figure without a direction is shown, never judged: it does not compete.
    expect(chooseGateMetric("auto", [bandwidth(1792, { note: { value: 1, unit: "x", better: null } })]).metric.name).toBe("metrics.MiB/s");
    // Two directed figures: no one of them is the benchmark's, so the gate stays on the mean (inconclusive without one).
    expect(chooseGateMetric("auto", [bandwidth(1792, { "B/op": { value: 8, unit: "B/op", better: "lower" } })]).metric.name).toBe("mean");
  });
});
