import { describe, expect, it } from "vitest";
import { AGGREGATE_NAME, emptyEndpoint, type EndpointResult } from "../run";
import type { SlaPolicy } from "../sla/policy";
import { slaPolicySchema } from "../sla/policy";
import { buildLevels, gradeLevel, poolResults, type CapacityRunResult } from "./levels";

/** GetListing of the bundled ghz reports (rounded): baseline rounds 1-3, ManagedAsync round 1. */
function getListing(
  p50: number,
  p95: number,
  p99: number,
  requests: number,
  failures: number,
  extra: Partial<EndpointResult> = {},
): EndpointResult {
  return {
    ...emptyEndpoint("GetListing"),
    protocol: "grpc",
    requests,
    failures,
    throughput: 99.9,
    latency: {
      minMs: 1.1,
      meanMs: p50 * 1.1,
      maxMs: p99 * 1.5,
      stdDevMs: 2,
      percentiles: { "50": p50, "95": p95, "99": p99 },
    },
    ...extra,
  };
}
const BASELINE_1 = getListing(5.32, 9.93, 12.66, 1000, 1);
const BASELINE_2 = getListing(4.96, 9.66, 13.7, 999, 0);
const BASELINE_3 = getListing(5.23, 9.8, 12.54, 1000, 1);
const MANAGED_1 = getListing(8.21, 18.19, 24.95, 1003, 11);

const run = (runId: string, day: number, concurrency: number, result: EndpointResult): CapacityRunResult => ({
  runId,
  startedAt: new Date(Date.UTC(2026, 10, 22 + day, 9)).toISOString(),
  config: { concurrency, connections: 1, rps: 100, protocol: "grpc" },
  result,
});

const policy = (targets: unknown[]): SlaPolicy => slaPolicySchema.parse({ targets });

describe("poolResults", () => {
  it("takes medians of latency and throughput and pools the error rate exactly", () => {
    const pooled = poolResults([BASELINE_1, BASELINE_2, BASELINE_3]);
    expect(pooled.latency.percentiles).toEqual({ "50": 5.23, "95": 9.8, "99": 12.66 });
    expect(pooled.requests).toBe(2999);
    expect(pooled.failures).toBe(2);
    expect(pooled.throughput).toBe(99.9);
    expect(pooled.name).toBe("GetListing");
  });

  it("reads percentile keys as numbers, and keeps a custom metric only when its unit agrees", () => {
    const a = getListing(5, 10, 12, 100, 0, {
      metrics: { cpu: { value: 40, unit: "%", better: "lower" }, heap: { value: 100, unit: "MB", better: "lower" } },
    });
    const b = getListing(6, 11, 13, 100, 0, {
      metrics: { cpu: { value: 50, unit: "%", better: "lower" }, heap: { value: 0.1, unit: "GB", better: "lower" } },
    });
    b.latency.percentiles = { "50.0": 6, "95": 11, "99.90": 20 };
    const pooled = poolResults([a, b]);
    expect(pooled.latency.percentiles).toEqual({ "50": 5.5, "95": 10.5, "99": 12, "99.9": 20 });
    expect(pooled.metrics).toEqual({ cpu: { value: 45, unit: "%", better: "lower" } });
  });

  it("has no error rate when a run does not count its requests", () => {
    const pooled = poolResults([BASELINE_1, { ...BASELINE_2, requests: null }]);
    expect(pooled.requests).toBeNull();
    expect(pooled.failures).toBeNull();
  });
});

describe("buildLevels", () => {
  const runs = [
    run("b1", 0, 10, BASELINE_1),
    run("b2", 1, 10, BASELINE_2),
    run("b3", 2, 20, BASELINE_3),
    run("m1", 3, 40, MANAGED_1),
    { ...run("none", 4, 80, MANAGED_1), config: { connections: 1 } },
  ];

  it("pools the runs of each level, in load order, newest run first; runs without a level are not drawn", () => {
    const levels = buildLevels(runs, "concurrency", null, false);
    expect(levels.map((level) => [level.load, level.runIds])).toEqual([
      [10, ["b2", "b1"]],
      [20, ["b3"]],
      [40, ["m1"]],
    ]);
    expect(levels[0]).toMatchObject({
      throughput: 99.9,
      p50Ms: (5.32 + 4.96) / 2,
      p99Ms: (12.66 + 13.7) / 2,
      errorRate: 1 / 1999,
      sla: null,
    });
    expect(levels[0]!.p95Ms).toBeCloseTo(9.795, 12);
    expect(levels[2]).toMatchObject({ p95Ms: 18.19, errorRate: 11 / 1003 });
  });

  it("grades each level against the endpoint's SLA targets", () => {
    const levels = buildLevels(runs, "concurrency", policy([{ metric: "p95", op: "<=", threshold: 15 }]), false);
    expect(levels.map((level) => level.sla)).toEqual([
      { passed: true, failures: [] },
      { passed: true, failures: [] },
      { passed: false, failures: ["p95 18.2 ms, target <= 15 ms"] },
    ]);
  });
});

describe("gradeLevel", () => {
  const pooled = poolResults([BASELINE_1, BASELINE_2]);

  it("applies endpoint targets (every endpoint, or a matching glob) to an endpoint, the aggregate's to the aggregate", () => {
    const mixed = policy([
      { metric: "p99", op: "<=", threshold: 12, scope: { match: "Get*" } },
      { metric: "errorRate", op: "<=", threshold: 0.01 },
      { metric: "p95", op: "<=", threshold: 1, scope: "aggregate" },
    ]);
    expect(gradeLevel(mixed, pooled, false)).toEqual({ passed: false, failures: ["p99 13.2 ms, target <= 12 ms"] });
    expect(gradeLevel(mixed, { ...pooled, name: AGGREGATE_NAME }, true)).toEqual({
      passed: false,
      failures: ["p95 9.8 ms, target <= 1 ms"],
    });
  });

  it("has no grade without a policy or a target for this endpoint, and says when no check had data", () => {
    expect(gradeLevel(null, pooled, false)).toBeNull();
    expect(
      gradeLevel(policy([{ metric: "p95", op: "<=", threshold: 15, scope: { match: "Search*" } }]), pooled, false),
    ).toBeNull();
    expect(
      gradeLevel(policy([{ metric: "p95", op: "<=", threshold: 15, scope: "aggregate" }]), pooled, false),
    ).toBeNull();
    expect(gradeLevel(policy([{ metric: "p99.9", op: "<=", threshold: 30 }]), pooled, false)).toEqual({
      passed: null,
      failures: [],
    });
  });

  it("grades custom metric targets on the pooled metrics", () => {
    const withCpu = poolResults([
      getListing(5, 10, 12, 100, 0, { metrics: { cpu: { value: 70, unit: "%", better: "lower" } } }),
      getListing(5, 10, 12, 100, 0, { metrics: { cpu: { value: 90, unit: "%", better: "lower" } } }),
    ]);
    expect(gradeLevel(policy([{ metric: "metrics.cpu", op: "<=", threshold: 75, unit: "%" }]), withCpu, false)).toEqual(
      {
        passed: false,
        failures: ["metrics.cpu 80%, target <= 75%"],
      },
    );
  });
});
