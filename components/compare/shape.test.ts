import { describe, expect, it } from "vitest";
import { compareRuns } from "@/server/domain/compare/compare-runs";
import type { ComparableRun } from "@/server/domain/compare/compare-runs";
import { parseBenchtrack } from "@/server/domain/parsers/benchtrack";
import type { ComparisonData } from "./types";
import { AGGREGATE_NAME } from "@/server/domain/run";
import { chartData, defaultSides, roundsTable, tableGroups } from "./shape";

function run(id: string, endpoints: Record<string, number>, completion: number): ComparableRun {
  const parsed = parseBenchtrack({
    schema: "benchtrack/v1",
    endpoints: Object.entries(endpoints).map(([name, p95]) => ({ name, requests: 1000, failures: 0, latency: { unit: "ms", p95 } })),
    metrics: { completion: { value: completion, unit: "s", better: "lower" } },
  });
  return {
    id, label: id.startsWith("b") ? "base" : "head", round: Number(id.slice(1)), startedAt: "2026-11-22T00:00:00Z", tool: "t",
    durationSeconds: 10, hostName: null, config: {}, aggregate: parsed.aggregate, endpoints: parsed.endpoints, metrics: parsed.metrics,
  };
}

const base = [run("b1", { Fast: 10, Slow: 100 }, 6.5), run("b2", { Fast: 10.2, Slow: 101 }, 6.7), run("b3", { Fast: 9.9, Slow: 99 }, 6.6)];
const head = [run("h1", { Fast: 10.1, Slow: 150 }, 9.1), run("h2", { Fast: 10, Slow: 152 }, 9.3), run("h3", { Fast: 9.95, Slow: 149 }, 9.2)];
const comparison = compareRuns(base, head);
const side = (runs: ComparableRun[]) => ({
  selector: "x",
  runs: [...runs].reverse().map((r) => ({ id: r.id, label: r.label, round: r.round, startedAt: new Date(r.startedAt), branch: null, commit: null, url: `http://bench.test/projects/p/runs/${r.id}` })),
});
const result: Pick<ComparisonData, "base" | "head" | "comparison"> = { base: side(base), head: side(head), comparison };

describe("compare page shaping", () => {
  it("changed-only keeps regressions and improvements, worst endpoints first, aggregate last", () => {
    const groups = tableGroups(comparison, true);
    expect(groups.map((group) => group.endpoint)).toEqual(["Slow", AGGREGATE_NAME]);
    expect(groups[0]!.metrics.every((metric) => metric.verdict === "regressed")).toBe(true);
    expect(tableGroups(comparison, false).map((group) => group.endpoint)).toEqual(["Slow", "Fast", AGGREGATE_NAME]);
  });

  it("chart data has one datum per endpoint with CI whiskers around the mean", () => {
    const data = chartData(comparison, "p95");
    expect(data.map((datum) => datum.name)).toEqual(["Fast", "Slow"]);
    const slow = data[1]!;
    expect(slow.base).toBeCloseTo(100, 9);
    expect(slow.head).toBeCloseTo(150.333, 2);
    expect(slow.baseError![0]).toBeGreaterThan(0);
    expect(slow.verdict).toBe("regressed");
  });

  it("rounds table lists runs oldest first with the mean row, leaving out unreported metrics", () => {
    const table = roundsTable(result, AGGREGATE_NAME);
    expect(table.columns.map((column) => column.metric)).toEqual(["errorRate", "metrics.completion"]);
    expect(table.base.rows.map((row) => row.runId)).toEqual(["b1", "b2", "b3"]);
    expect(table.base.rows[0]!.values["metrics.completion"]).toBe(6.5);
    expect(table.head.mean["metrics.completion"]).toBeCloseTo(9.2, 9);
    const slow = roundsTable(result, "Slow");
    expect(slow.columns.map((column) => column.metric)).toEqual(["p95", "errorRate"]);
    expect(slow.head.rows.map((row) => row.values.p95)).toEqual([150, 152, 149]);
  });
});

describe("defaultSides", () => {
  it("offers the two most recently active labels, the older one as base", () => {
    const labels = [
      { value: "ManagedAsync", runs: 5, latestAt: "2026-11-11T04:00:00.000Z" },
      { value: "baseline", runs: 5, latestAt: "2026-11-10T04:00:00.000Z" },
      { value: "smoke", runs: 2, latestAt: "2026-10-01T00:00:00.000Z" },
    ];
    expect(defaultSides(labels, [{ value: "main", runs: 12, latestAt: "2026-11-12T00:00:00.000Z" }])).toEqual({
      base: "label:baseline",
      head: "label:ManagedAsync",
    });
    // One label: it and the most recent branch.
    expect(defaultSides([labels[1]!], [{ value: "feature/x", runs: 1, latestAt: "2026-11-12T00:00:00.000Z" }])).toEqual({
      base: "label:baseline",
      head: "branch:feature/x",
    });
    expect(defaultSides([], [])).toBeNull();
  });
});
