import { describe, expect, it } from "vitest";
import { buildCapacityCurve } from "@/server/domain/capacity/capacity-curve";
import { emptyEndpoint } from "@/server/domain/run";
import { slaPolicySchema } from "@/server/domain/sla/policy";
import type { CapacityCurveData, CapacityData } from "./capacity-chart-data";
import {
  drawableLevels,
  toCapacityMarks,
  toCapacitySeries,
  toCeilingMarks,
  xAxisTitle,
  xTicksOf,
} from "./capacity-chart-data";

/** A curve as the service answers it, from levels (vus, throughput, p50, p95, p99). */
function curveOf(side: CapacityCurveData["side"], rows: [number, number, number, number, number][]): CapacityCurveData {
  const runs = rows.map(([vus, throughput, p50, p95, p99], index) => ({
    runId: `${side}${index}`,
    startedAt: `2026-11-2${index}T10:00:00.000Z`,
    config: { vus },
    result: {
      ...emptyEndpoint("GetListing"),
      requests: 1000,
      failures: 1,
      throughput,
      latency: { minMs: 1, meanMs: p50, maxMs: p99, stdDevMs: null, percentiles: { "50": p50, "95": p95, "99": p99 } },
    },
  }));
  const policy = slaPolicySchema.parse({ targets: [{ metric: "p95", op: "<=", threshold: 50 }] });
  return {
    side,
    selector: side === "all" ? null : `branch:${side}`,
    runCount: runs.length,
    isTruncated: false,
    withoutLevel: 0,
    branches: [],
    curve: buildCapacityCurve(runs, "vus", policy, false),
    caption: null,
  };
}

const BASE = curveOf("base", [
  [10, 95, 6.8, 21, 30],
  [25, 236, 7.1, 22.4, 33],
  [50, 402, 9.5, 31, 48],
  [100, 431, 88, 210, 320],
]);
const HEAD = curveOf("head", [
  [10, 94, 9, 30, 41],
  [25, 230, 11, 41, 60],
  [50, 380, 30, 90, 150],
]);

describe("capacity chart data", () => {
  it("shapes one series per curve and percentile, one point per level in load order", () => {
    const series = toCapacitySeries([BASE, HEAD], "throughput", ["p95"], "vus");
    // One percentile of two curves: coloured by side, as on the compare page.
    expect(series.map((line) => [line.key, line.name, line.dashed, line.color])).toEqual([
      ["base-p95", "base p95", true, "var(--chart-2)"],
      ["head-p95", "head p95", false, "var(--chart-1)"],
    ]);
    expect(toCapacitySeries([BASE, HEAD], "load", ["p50", "p95"], "vus").map((line) => [line.key, line.color])).toEqual(
      [
        ["base-p50", "var(--chart-1)"],
        ["base-p95", "var(--chart-3)"],
        ["head-p50", "var(--chart-1)"],
        ["head-p95", "var(--chart-3)"],
      ],
    );
    expect(series[0]!.points.map((point) => [point.x, point.y, point.loadText])).toEqual([
      [95, 21, "10 VUs"],
      [236, 22.4, "25 VUs"],
      [402, 31, "50 VUs"],
      [431, 210, "100 VUs"],
    ]);
    expect(series[1]!.points[2]).toMatchObject({
      curveName: "head",
      slaPassed: false,
      slaFailure: "p95 90 ms, target <= 50 ms",
      runCount: 1,
    });
    const single = toCapacitySeries([{ ...BASE, side: "all" }], "load", ["p50", "p99"], "vus");
    expect(single.map((line) => line.name)).toEqual(["p50", "p99"]);
    expect(single[0]!.points.map((point) => point.x)).toEqual([10, 25, 50, 100]);
  });

  it("marks each curve's knee on its p95 and its SLA limit at its level, on the axis drawn", () => {
    expect(toCapacityMarks([BASE, HEAD], "throughput")).toEqual([
      { kind: "knee", x: 402, y: 31, label: "base knee" },
      { kind: "sla-limit", x: 402, y: null, label: "base SLA limit" },
      { kind: "knee", x: 230, y: 41, label: "head knee" },
      { kind: "sla-limit", x: 230, y: null, label: "head SLA limit" },
    ]);
    expect(toCapacityMarks([{ ...BASE, side: "all" }], "load")).toEqual([
      { kind: "knee", x: 50, y: 31, label: "knee" },
      { kind: "sla-limit", x: 50, y: null, label: "SLA limit" },
    ]);
  });

  it("draws the SLA ceilings of the drawn percentiles only", () => {
    const lines: CapacityData["slaLines"] = [
      { metric: "p95", thresholdMs: 50 },
      { metric: "p99", thresholdMs: 100 },
    ];
    expect(toCeilingMarks(lines, ["p95"])).toEqual([{ kind: "ceiling", x: null, y: 50, label: "p95 SLA 50 ms" }]);
  });

  it("ticks a load-level axis at the levels", () => {
    expect(xTicksOf([BASE, HEAD], "load")).toEqual([10, 25, 50, 100]);
    expect(xTicksOf([BASE, HEAD], "throughput")).toBeUndefined();
  });

  it("titles the x axis and counts what can be drawn", () => {
    expect(xAxisTitle("throughput", "vus")).toBe("Achieved throughput (req/s)");
    expect(xAxisTitle("load", "concurrency")).toBe("Concurrency");
    expect(drawableLevels([BASE, HEAD])).toBe(4);
    expect(drawableLevels([{ ...HEAD, curve: null }])).toBe(0);
  });
});
