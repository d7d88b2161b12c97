import { describe, expect, it } from "vitest";
import { z } from "zod";
import { METRICS } from "../metrics";
import {
  builtInMetricOf,
  canonicalThreshold,
  describeTarget,
  parseMetric,
  slaPolicySchema,
  slaTargetSchema,
} from "./policy";

describe("slaTargetSchema", () => {
  it("applies defaults: scope endpoints, weight 1", () => {
    expect(slaTargetSchema.parse({ metric: "p95", op: "<=", threshold: 50 })).toEqual({
      metric: "p95",
      op: "<=",
      threshold: 50,
      scope: "endpoints",
      weight: 1,
    });
  });

  it.each([
    "p50",
    "p90",
    "p95",
    "p99",
    "p99.9",
    "p100",
    "mean",
    "min",
    "max",
    "errorRate",
    "throughput",
    "metrics.cpu",
  ])("accepts metric %s", (metric) => {
    expect(slaTargetSchema.safeParse({ metric, op: "<=", threshold: 0.5 }).success).toBe(true);
  });

  it.each(["p0", "p101", "p-5", "p", "px", "P95", "metrics.", "latency", "error_rate"])(
    "rejects metric %s",
    (metric) => {
      expect(slaTargetSchema.safeParse({ metric, op: "<=", threshold: 1 }).success).toBe(false);
    },
  );

  it("accepts the three kinds of scope and rejects an empty glob", () => {
    for (const scope of ["endpoints", "aggregate", { match: "Get*" }]) {
      expect(slaTargetSchema.safeParse({ metric: "p95", op: "<", threshold: 1, scope }).success).toBe(true);
    }
    expect(slaTargetSchema.safeParse({ metric: "p95", op: "<", threshold: 1, scope: { match: "" } }).success).toBe(
      false,
    );
    expect(slaTargetSchema.safeParse({ metric: "p95", op: "<", threshold: 1, scope: "all" }).success).toBe(false);
  });

  it("rejects bad operators, non-finite thresholds and non-positive weights", () => {
    const base = { metric: "p95", op: "<=", threshold: 1 };
    expect(slaTargetSchema.safeParse({ ...base, op: "==" }).success).toBe(false);
    expect(slaTargetSchema.safeParse({ ...base, threshold: Number.POSITIVE_INFINITY }).success).toBe(false);
    expect(slaTargetSchema.safeParse({ ...base, weight: 0 }).success).toBe(false);
  });

  it("checks units against the metric, pointing at the field at fault", () => {
    const issuePath = (input: object) => slaTargetSchema.safeParse(input).error?.issues[0]?.path;
    expect(issuePath({ metric: "p95", op: "<=", threshold: 1, unit: "MB" })).toEqual(["unit"]);
    expect(issuePath({ metric: "throughput", op: ">=", threshold: 1, unit: "rps" })).toEqual(["unit"]);
    expect(issuePath({ metric: "errorRate", op: "<=", threshold: 1, unit: "%" })).toEqual(["unit"]);
    expect(issuePath({ metric: "errorRate", op: "<=", threshold: 5 })).toEqual(["threshold"]);
    expect(slaTargetSchema.safeParse({ metric: "metrics.mem", op: "<=", threshold: 512, unit: "MB" }).success).toBe(
      true,
    );
  });
});

describe("canonicalThreshold", () => {
  it("reads a benchmark's budget in its tool's per-operation units: mean <= 90000 ns/op is 0.09 ms", () => {
    expect(canonicalThreshold({ metric: "mean", threshold: 90_000, unit: "ns/op" })).toEqual({ threshold: 0.09, unit: "ms" });
    expect(canonicalThreshold({ metric: "p50", threshold: 2.5, unit: "us/op" })).toEqual({ threshold: 0.0025, unit: "ms" });
    expect(slaTargetSchema.safeParse({ metric: "throughput", op: ">=", threshold: 1000, unit: "ops/s" }).success).toBe(true);
    expect(slaTargetSchema.safeParse({ metric: "mean", op: "<=", threshold: 1, unit: "ns/call" }).success).toBe(false);
  });

  it("normalizes latency to ms, keeping written values exact", () => {
    expect(canonicalThreshold({ metric: "p95", threshold: 0.05, unit: "s" })).toEqual({ threshold: 50, unit: "ms" });
    expect(canonicalThreshold({ metric: "p99", threshold: 1500, unit: "us" })).toEqual({ threshold: 1.5, unit: "ms" });
    expect(canonicalThreshold({ metric: "max", threshold: 7 })).toEqual({ threshold: 7, unit: "ms" });
  });

  it("keeps error rate as a fraction, throughput in req/s, custom metrics in their unit", () => {
    expect(canonicalThreshold({ metric: "errorRate", threshold: 0.01 })).toEqual({ threshold: 0.01, unit: null });
    expect(canonicalThreshold({ metric: "throughput", threshold: 900 })).toEqual({ threshold: 900, unit: "req/s" });
    expect(canonicalThreshold({ metric: "metrics.cpu", threshold: 80, unit: "%" })).toEqual({
      threshold: 80,
      unit: "%",
    });
  });
});

describe("parseMetric and describeTarget", () => {
  it("takes metric names apart", () => {
    expect(parseMetric("p99.9")).toEqual({ kind: "percentile", percentile: 99.9 });
    expect(parseMetric("mean")).toEqual({ kind: "latency", stat: "mean" });
    expect(parseMetric("metrics.queue.depth")).toEqual({ kind: "custom", key: "queue.depth" });
  });

  it("finds built-in metrics in the registry", () => {
    expect(builtInMetricOf({ kind: "latency", stat: "max" })).toBe(METRICS.max);
    expect(builtInMetricOf({ kind: "errorRate" })).toBe(METRICS.errorRate);
    expect(builtInMetricOf({ kind: "throughput" })).toBe(METRICS.throughput);
    expect(builtInMetricOf({ kind: "percentile", percentile: 99.9 })).toMatchObject({ name: "p99.9", unit: "ms", better: "lower" });
  });

  it("labels a target", () => {
    const target = slaTargetSchema.parse({ metric: "throughput", op: ">=", threshold: 900, scope: "aggregate" });
    expect(describeTarget(target)).toBe("throughput >= 900 req/s (aggregate)");
  });
});

describe("slaPolicySchema", () => {
  it("allows an empty target list (no SLA) and produces a JSON Schema with descriptions", () => {
    expect(slaPolicySchema.parse({ targets: [] })).toEqual({ targets: [] });
    const jsonSchema = JSON.stringify(z.toJSONSchema(slaPolicySchema, { io: "input" }));
    expect(jsonSchema).toContain("fraction 0..1");
    expect(jsonSchema).toContain("Endpoint-name glob");
  });
});
