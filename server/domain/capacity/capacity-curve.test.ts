import { describe, expect, it } from "vitest";
import { emptyEndpoint, type EndpointResult } from "../run";
import { slaPolicySchema, type SlaPolicy } from "../sla/policy";
import {
  buildCapacityCurve,
  chooseXAxis,
  describeKnee,
  describeLevels,
  describeSlaLimit,
  slaLatencyLines,
} from "./capacity-curve";
import type { CapacityRunResult } from "./levels";

const policy = (targets: unknown[]): SlaPolicy => slaPolicySchema.parse({ targets });

/** A k6-like closed-model sweep of one endpoint: throughput grows until the service saturates near 400 req/s. */
const SWEEP: [vus: number, throughput: number, p50: number, p95: number, p99: number][] = [
  [10, 95, 6.8, 21, 30],
  [25, 236, 7.1, 22.4, 33],
  [50, 402, 9.5, 31, 48],
  [100, 431, 88, 210, 320],
];

function sweepRuns(sweep = SWEEP): CapacityRunResult[] {
  return sweep.map(([vus, throughput, p50, p95, p99], index) => {
    const result: EndpointResult = {
      ...emptyEndpoint("GET /api/listings/:id"),
      requests: Math.round(throughput * 30),
      failures: vus === 100 ? 60 : 1,
      throughput,
      latency: {
        minMs: 1,
        meanMs: p50,
        maxMs: p99 * 2,
        stdDevMs: null,
        percentiles: { "50": p50, "95": p95, "99": p99 },
      },
    };
    return {
      runId: `run${index}`,
      startedAt: `2026-11-2${index}T10:00:00.000Z`,
      config: { vus, vus_max: vus },
      result,
    };
  });
}

describe("a capacity curve", () => {
  it("finds the knee and the SLA limit of a saturating service, and says both in words", () => {
    const curve = buildCapacityCurve(sweepRuns(), "vus", policy([{ metric: "p95", op: "<=", threshold: 50 }]), false);
    expect(curve.levels.map((level) => level.load)).toEqual([10, 25, 50, 100]);
    expect(curve.knee).toMatchObject({ status: "knee", load: 50 });
    expect(curve.slaLimit).toEqual({ status: "limit", load: 50, nextLoad: 100, failedBelow: [] });
    expect(describeLevels(curve)).toBe("4 load levels, 4 runs");
    expect(describeKnee(curve, "vus")).toBe("p95 bends at 50 VUs (402 req/s): 31 ms there, 210 ms at 100 VUs.");
    expect(describeSlaLimit(curve, "vus")).toBe(
      "Highest load that met the SLA: 50 VUs (402 req/s); 100 VUs missed it (p95 210 ms, target <= 50 ms).",
    );
    expect(chooseXAxis(curve.levels, "throughput")).toEqual({ axis: "throughput", note: null });
  });

  it("says when every level met the SLA, when none did, and when there is none", () => {
    const runs = sweepRuns();
    expect(
      describeSlaLimit(
        buildCapacityCurve(runs, "vus", policy([{ metric: "p95", op: "<=", threshold: 500 }]), false),
        "vus",
      ),
    ).toBe(
      "Every measured load level met the SLA, up to 100 VUs (431 req/s): the limit lies beyond the measured range.",
    );
    expect(
      describeSlaLimit(
        buildCapacityCurve(runs, "vus", policy([{ metric: "p95", op: "<=", threshold: 5 }]), false),
        "vus",
      ),
    ).toBe("No measured load level met the SLA: even 10 VUs (95.00 req/s) missed it (p95 21 ms, target <= 5 ms).");
    expect(describeSlaLimit(buildCapacityCurve(runs, "vus", null, false), "vus")).toBe(
      "No SLA limit: the project has no SLA targets.",
    );
    expect(
      describeSlaLimit(
        buildCapacityCurve(runs, "vus", policy([{ metric: "p95", op: "<=", threshold: 5, scope: "aggregate" }]), false),
        "vus",
      ),
    ).toBe("No SLA limit: no SLA target applies to this endpoint.");
  });

  it("says there is no knee in the measured range, or too few load levels", () => {
    const early = buildCapacityCurve(sweepRuns(SWEEP.slice(0, 3)), "vus", null, false);
    expect(describeKnee(early, "vus")).toBe(
      "No knee in the measured range: p95 rises only 48% from the lowest load to the highest.",
    );
    const two = buildCapacityCurve(sweepRuns(SWEEP.slice(0, 2)), "vus", null, false);
    expect(describeKnee(two, "vus")).toBe("Too few load levels: need 3, have 2.");
    expect(describeLevels(buildCapacityCurve(sweepRuns(SWEEP.slice(0, 1)), "vus", null, false))).toBe(
      "1 load level, 1 run",
    );
  });
});

describe("chooseXAxis", () => {
  it("draws against the load level when throughput hardly moved or is missing, and says why", () => {
    const flat = buildCapacityCurve(
      sweepRuns(SWEEP.map(([vus, , p50, p95, p99]) => [vus, 99.9, p50, p95, p99])),
      "vus",
      null,
      false,
    );
    expect(chooseXAxis(flat.levels, "throughput")).toEqual({
      axis: "load",
      note: "Achieved throughput hardly changed across the load levels (99.90 req/s), so latency is drawn against the load level instead.",
    });
    const missing = flat.levels.map((level, index) => (index === 0 ? { ...level, throughput: null } : level));
    expect(chooseXAxis(missing, "throughput").axis).toBe("load");
    expect(chooseXAxis(flat.levels, "load")).toEqual({ axis: "load", note: null });
  });
});

describe("slaLatencyLines", () => {
  it("draws the strictest p50/p95/p99 ceiling that applies to the endpoint", () => {
    const mixed = policy([
      { metric: "p95", op: "<=", threshold: 50 },
      { metric: "p95", op: "<", threshold: 0.04, unit: "s", scope: { match: "GET *" } },
      { metric: "p99", op: "<=", threshold: 100, scope: { match: "POST *" } },
      { metric: "p50", op: "<=", threshold: 5, scope: "aggregate" },
      { metric: "throughput", op: ">=", threshold: 100 },
    ]);
    expect(slaLatencyLines(mixed, "GET /api/listings/:id", false)).toEqual([{ metric: "p95", thresholdMs: 40 }]);
    expect(slaLatencyLines(mixed, "(all)", true)).toEqual([{ metric: "p50", thresholdMs: 5 }]);
    expect(slaLatencyLines(null, "GET /", false)).toEqual([]);
  });
});
