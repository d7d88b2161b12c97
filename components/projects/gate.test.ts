import { describe, expect, it } from "vitest";
import type { KeptGateChange } from "@/server/domain/gate/judge";
import { gateOfEndpoint, summarizeCardGate, summarizeSeriesGate } from "@/server/domain/series/gate-status";
import type { SeriesGate } from "@/server/domain/series/gate-status";
import { describeCardGate, describeCardSince, describeEndpointGate, describeFailingSeries, describeGateChange, describeNamedChange } from "./gate";

const at = (day: number) => new Date(Date.UTC(2026, 10, day, 3));
const JOIN: KeptGateChange = { endpoint: "m > BenchmarkJoinInts", protocol: "benchmark", metric: "mean", deltaPct: 373.79, status: "regressed" };
const CHECKSUM: KeptGateChange = { endpoint: "m > BenchmarkChecksum", protocol: "benchmark", metric: "mean", deltaPct: 42.53, status: "regressed" };
const GET: KeptGateChange = { endpoint: "GetListing", protocol: "http", metric: "p95", deltaPct: 61.04, status: "regressed" };

function series(outcomes: string[], changes: KeptGateChange[], reasons = ["1 benchmark regressed against the baseline"], tool = "go"): SeriesGate {
  return summarizeSeriesGate({
    tool,
    label: "nightly",
    branch: "main",
    testbed: null,
    newestFirst: outcomes.map((outcome, index) => ({ id: `run${index}`, startedAt: at(10 + index), gitCommit: `c0ffee${index}abcdef`, outcome })).reverse(),
    latestReasons: reasons,
    latestChanges: changes,
  })!;
}

describe("gate words", () => {
  it("names a change in the series' words", () => {
    expect(describeGateChange(JOIN)).toBe("+373.8% mean time/op");
    expect(describeGateChange(GET)).toBe("+61.0% p95");
    expect(describeGateChange({ ...JOIN, metric: "metrics.allocs/op", deltaPct: null, status: "exact" })).toBe("allocs/op changed");
    expect(describeNamedChange(GET)).toBe("GetListing p95 +61.0%");
    expect(describeNamedChange({ ...GET, endpoint: null })).toBe("All endpoints p95 +61.0%");
  });

  it("says what the gate answered for a row: its change, the others' failure, or the outcome alone", () => {
    const gate = series(["pass", "fail", "fail"], [JOIN, CHECKSUM]);
    const join = gateOfEndpoint(gate, { id: 1, name: JOIN.endpoint!, protocol: "benchmark" }, { measured: true, isOwnSeries: true })!;
    expect(describeEndpointGate(join, gate, "benchmark")).toEqual({
      text: "Gate: fail · +373.8% mean time/op",
      tone: "bad",
      title:
        "The CI gate's answer to the latest run of go · nightly · main (2026-11-12 03:00, commit c0ffee2): fail. This benchmark: +373.8% mean time/op, regressed (worse and significant once corrected for the endpoints judged). 1 benchmark regressed against the baseline. Open the run.",
    });
    expect(describeEndpointGate(join, gate, "benchmark", { showChange: false }).text).toBe("Gate: fail");
    const other = gateOfEndpoint(gate, { id: 2, name: "m > BenchmarkEncode", protocol: "benchmark" }, { measured: true, isOwnSeries: true })!;
    expect(describeEndpointGate(other, gate, "benchmark").text).toBe("Gate: fail (2 other benchmarks)");
    expect(describeEndpointGate(other, gate, "benchmark").title).toMatch(/It named no change of this benchmark; 2 other benchmarks failed it\./);
    const aggregate = gateOfEndpoint(gate, { id: null, name: "All benchmarks", protocol: null }, { measured: true, isOwnSeries: true })!;
    expect(describeEndpointGate(aggregate, gate, "benchmark", { isAggregate: true }).text).toBe("Gate: fail (2 benchmarks)");
    expect(describeEndpointGate(aggregate, gate, "benchmark", { isAggregate: true }).title).toMatch(/It named no change of all benchmarks; 2 benchmarks failed it\./);
    const passing = series(["pass"], [], []);
    const row = gateOfEndpoint(passing, { id: 2, name: "x", protocol: "benchmark" }, { measured: true, isOwnSeries: false })!;
    expect(describeEndpointGate(row, passing, "benchmark")).toMatchObject({ text: "Gate on main: pass", tone: "good" });
  });

  it("says since when a series fails, how many runs, and its largest changes", () => {
    const gate = series(["pass", "fail", "fail", "fail", "fail", "fail"], [JOIN, CHECKSUM, GET, { ...GET, endpoint: "Search" }]);
    expect(describeFailingSeries(gate)).toEqual({
      runs: "5 runs",
      since: "2026-11-11 03:00 · c0ffee1",
      changes: ["m > BenchmarkJoinInts mean time/op +373.8%", "m > BenchmarkChecksum mean time/op +42.5%", "GetListing p95 +61.0%"],
      more: 1,
      reason: null,
      triaged: [],
    });
    // An endpoint's changes after its name once.
    const allocs: KeptGateChange = { ...JOIN, metric: "metrics.allocs/op", deltaPct: 100_000, status: "exact" };
    expect(describeFailingSeries(series(["fail"], [allocs, JOIN, CHECKSUM])).changes).toEqual([
      "m > BenchmarkJoinInts allocs/op +100,000.0%, mean time/op +373.8%",
      "m > BenchmarkChecksum mean time/op +42.5%",
    ]);
    expect(describeFailingSeries(gate)).toMatchObject({
      reason: null,
      triaged: [],
    });
    const triaged = { ...gate, triagedSince: [{ incident: { number: 3, state: "accepted" as const }, marker: null }, { incident: null, marker: "pool 20 → 50" }] };
    expect(describeFailingSeries(triaged).triaged).toEqual([
      { key: "incident-3", incident: 3, text: "was accepted: the next run is judged against the new level" },
      { key: "marker-1", incident: null, text: '("pool 20 → 50") was set: the next run starts a new level' },
    ]);
    // Failed on an SLA check, not a regression: its reason.
    expect(describeFailingSeries(series(["fail"], [], ["SLA grade D: GetListing p95 120 ms > 100 ms"]))).toMatchObject({
      runs: "1 run",
      changes: [],
      reason: "SLA grade D: GetListing p95 120 ms > 100 ms",
    });
  });

  it("gives the home card a chip per outcome, failing first, and the streak in short", () => {
    const card = summarizeCardGate([series(["fail", "fail"], [JOIN]), series(["pass"], [], [], "k6"), series(["inconclusive"], [], ["too little history"], "locust")]);
    expect(describeCardGate(card, "main")).toEqual([
      { tone: "bad", text: "✗ main fails the gate", title: "The latest run of go · nightly on main failed the CI gate (1 benchmark regressed against the baseline).", testId: "gate-chip-fail" },
      {
        tone: "warn",
        text: "? inconclusive",
        title: "The latest run of locust · nightly on main: the CI gate could not tell (too little history).",
        testId: "gate-chip-inconclusive",
      },
      { tone: "good", text: "✓ passing", title: "The latest run of k6 · nightly on main passed the CI gate.", testId: "gate-chip-pass" },
    ]);
    expect(describeCardSince(card.failing[0]!.failing!)).toBe("2026-11-10 (2 runs)");
    expect(describeCardGate({ failing: [], inconclusive: [], passing: [] }, "main")).toEqual([]);
  });
});
