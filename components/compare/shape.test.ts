import { describe, expect, it } from "vitest";
import { compareRuns } from "@/server/domain/compare/compare-runs";
import type { ComparableRun } from "@/server/domain/compare/compare-runs";
import { parseBenchtrack } from "@/server/domain/parsers/benchtrack/benchtrack";
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
    id, label: id.startsWith("b") ? "base" : "head", round: Number(id.slice(1)), startedAt: "2026-11-22T00:00:00Z", format: "benchtrack", tool: "t",
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
  it("shows each endpoint's gate metric first, whatever its verdict, and the other metrics only when they changed", () => {
    const groups = tableGroups(comparison, "gate");
    expect(groups.map((group) => group.endpoint)).toEqual(["Slow", "Fast", AGGREGATE_NAME]);
    const [slow, fast, aggregate] = groups;
    expect(slow!.gateMetric).toEqual({ name: "p95", why: "p95 (auto: every run has ≥ 1,000 requests)" });
    expect(slow!.rows[0]!.metric).toMatchObject({ metric: "p95", gate: true, verdict: "regressed" });
    expect(slow!.rows.every(({ metric }) => metric.verdict === "regressed")).toBe(true);
    // Fast did not change: its gate metric is still shown, unchanged, and nothing else.
    expect(fast!.rows.map(({ metric }) => [metric.metric, metric.gate, metric.verdict])).toEqual([["p95", true, "unchanged"]]);
    // The aggregate of runs with endpoints is not gated: only what changed.
    expect(aggregate!.gateMetric).toBeNull();
    expect(aggregate!.rows.every(({ metric }) => !metric.gate && (metric.verdict === "regressed" || metric.verdict === "improved"))).toBe(true);
    expect(tableGroups(comparison, "all").map((group) => group.endpoint)).toEqual(["Slow", "Fast", AGGREGATE_NAME]);
    expect(tableGroups(comparison, "all")[1]!.rows.length).toBeGreaterThan(1);
  });

  it("an inconclusive gate metric says why in full; other metrics not judged say it in a few words, never 'unchanged'", () => {
    const short = compareRuns(base.slice(0, 2), head.slice(0, 1));
    expect(short.verdict).toBe("inconclusive");
    const groups = tableGroups(short, "gate");
    const slow = groups.find((group) => group.endpoint === "Slow")!;
    expect(slow.rows).toHaveLength(1);
    expect(slow.rows[0]).toMatchObject({
      metric: { metric: "p95", gate: true, verdict: "inconclusive" },
      reason: "need 6 runs in all with at least 2 in the base (have 2 base + 1 head): 3 more rounds of the head, or 3 more base runs, would decide",
      note: "too little history",
    });
    const others = tableGroups(short, "all").flatMap((group) => group.rows).filter(({ metric }) => !metric.gate && metric.verdict === "inconclusive");
    expect(others.every(({ reason, note }) => reason === null && note !== null)).toBe(true);
    expect(others.find(({ metric }) => metric.metric === "metrics.completion")?.note).toBe("too little history");
    expect(others.find(({ metric }) => metric.metric === "p99")?.note).toBe("no data");

    // Runs of several tools: the one reason is said above the table, each row says it in two words.
    const mixed = compareRuns([...base.slice(0, 2), { ...base[2]!, tool: "other" }], head);
    const rows = tableGroups(mixed, "gate").flatMap((group) => group.rows);
    expect(rows.every(({ reason, note }) => reason === null && note === "not comparable")).toBe(true);
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
