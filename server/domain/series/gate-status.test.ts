import { describe, expect, it } from "vitest";
import type { KeptGateChange } from "../gate/judge";
import {
  GATE_RUNS_READ,
  findFailingStreak,
  gateOfEndpoint,
  readKeptGateChanges,
  summarizeCardGate,
  summarizeSeriesGate,
  withTriage,
} from "./gate-status";
import type { RecordedChange } from "./recorded-changes";
import type { SeriesGateInput, SeriesGateRun } from "./gate-status";

const day = (index: number) => new Date(Date.UTC(2026, 10, 1 + index, 3));

/** Runs of a series from outcomes given oldest first (run i started on day i), returned newest first. */
function runs(outcomes: readonly (string | null)[]): SeriesGateRun[] {
  return outcomes.map((outcome, index) => ({ id: `run${index}`, startedAt: day(index), gitCommit: `c0ffee${index}`, outcome })).reverse();
}

const JOIN_INTS: KeptGateChange = { endpoint: "m > BenchmarkJoinInts", protocol: "benchmark", metric: "mean", deltaPct: 373.8, status: "regressed" };
const CHECKSUM: KeptGateChange = { endpoint: "m > BenchmarkChecksum", protocol: "benchmark", metric: "mean", deltaPct: 42.5, status: "regressed" };
const SORT: KeptGateChange = { endpoint: "m > BenchmarkSort", protocol: "benchmark", metric: "mean", deltaPct: 14.3, status: "undecided" };

function input(outcomes: readonly (string | null)[], overrides: Partial<SeriesGateInput> = {}): SeriesGateInput {
  return {
    tool: "go",
    label: "nightly",
    branch: "main",
    testbed: "linux/amd64 · AMD EPYC",
    newestFirst: runs(outcomes),
    latestReasons: ["1 benchmark regressed against the baseline"],
    latestChanges: [JOIN_INTS, CHECKSUM, SORT],
    ...overrides,
  };
}

describe("findFailingStreak", () => {
  it("is the latest runs that failed, back to the first that did not (a pass, an inconclusive, an outcome not kept)", () => {
    expect(findFailingStreak(runs(["pass", "pass", "fail", "fail", "fail"]))).toMatchObject({ first: { id: "run2" }, runs: 3, complete: true });
    expect(findFailingStreak(runs(["fail", "inconclusive", "fail"]))).toMatchObject({ first: { id: "run2" }, runs: 1 });
    expect(findFailingStreak(runs([null, "fail", "fail"]))).toMatchObject({ first: { id: "run1" }, runs: 2, complete: true });
    expect(findFailingStreak(runs(["fail", "fail", "pass"]))).toBeNull();
    expect(findFailingStreak([])).toBeNull();
  });

  it("is not complete when every run read failed and there may be more before them", () => {
    const all = runs(Array.from({ length: GATE_RUNS_READ }, () => "fail"));
    expect(findFailingStreak(all)).toMatchObject({ runs: GATE_RUNS_READ, complete: false });
    // Fewer than were asked for: that is the whole series.
    expect(findFailingStreak(all.slice(0, 5))).toMatchObject({ runs: 5, complete: true });
  });
});

describe("summarizeSeriesGate", () => {
  it("names the series, its latest outcome and changes, and the streak of failures from its first run", () => {
    const gate = summarizeSeriesGate(input(["pass", "pass", "fail", "fail", "fail", "fail", "fail"]));
    expect(gate).toEqual({
      key: "go · nightly · main · linux/amd64 · AMD EPYC",
      tool: "go",
      label: "nightly",
      branch: "main",
      testbed: "linux/amd64 · AMD EPYC",
      latest: {
        runId: "run6",
        startedAt: day(6),
        uploadedAt: day(6),
        commit: "c0ffee6",
        outcome: "fail",
        reasons: ["1 benchmark regressed against the baseline"],
        changes: [JOIN_INTS, CHECKSUM, SORT],
      },
      failing: { since: { runId: "run2", startedAt: day(2), commit: "c0ffee2" }, runs: 5 },
      incidents: [],
      triagedSince: [],
    });
  });

  it("has no streak once the latest run passes or is inconclusive", () => {
    expect(summarizeSeriesGate(input(["fail", "fail", "pass"]))?.failing).toBeNull();
    expect(summarizeSeriesGate(input(["fail", "fail", "inconclusive"]))).toMatchObject({ failing: null, latest: { outcome: "inconclusive" } });
  });

  it("takes a longer streak's first run and length from the service's lookup", () => {
    const all = Array.from({ length: GATE_RUNS_READ }, () => "fail");
    const first = { id: "early", startedAt: day(-20), gitCommit: "abc1234", outcome: "fail" };
    expect(summarizeSeriesGate(input(all, { streakBeyond: { first, runs: 50 } }))?.failing).toEqual({
      since: { runId: "early", startedAt: day(-20), commit: "abc1234" },
      runs: 50,
    });
  });

  it("reads an outcome not kept as null, and drops gate changes that are not what a run keeps", () => {
    const gate = summarizeSeriesGate(input(["pass", null], { latestChanges: [JOIN_INTS, { endpoint: "x", status: "worse" }, 3] }));
    expect(gate?.latest).toMatchObject({ outcome: null, changes: [JOIN_INTS] });
    expect(readKeptGateChanges(null)).toEqual([]);
    expect(readKeptGateChanges([{ endpoint: null, metric: "p95", deltaPct: null, status: "exact" }])).toEqual([
      { endpoint: null, protocol: null, metric: "p95", deltaPct: null, status: "exact" },
    ]);
    expect(summarizeSeriesGate(input([]))).toBeNull();
  });
});

describe("withTriage", () => {
  const gate = summarizeSeriesGate(input(["pass", "fail", "fail", "fail"]))!;
  function change(number: number, state: "open" | "investigating" | "fixed" | "accepted" | "invalid", overrides: Partial<RecordedChange> = {}): RecordedChange {
    return {
      endpointId: 1,
      series: gate.key,
      kind: "regression",
      status: state === "accepted" ? "acknowledged" : state === "invalid" ? "dismissed" : "open",
      metric: "mean",
      deltaPct: 370,
      firstRunId: "run1",
      at: day(1),
      incident: { number, state },
      decidedAt: state === "accepted" || state === "invalid" ? day(5) : null,
      ...overrides,
    };
  }

  it("links the series' incidents that keep the gate on the level before their step, each once", () => {
    const changes = [change(2, "open"), change(2, "open", { metric: "p99" }), change(1, "fixed"), change(4, "open", { series: "k6 · nightly · main" })];
    expect(withTriage([gate], { changes, markers: [] })[0]).toMatchObject({
      incidents: [
        { number: 1, state: "fixed" },
        { number: 2, state: "open" },
      ],
      triagedSince: [],
    });
  });

  it("says what was triaged since the latest run was judged: its stored failure stands, the next run follows the triage", () => {
    const markers = [
      { at: day(4), text: "pool 20 → 50", createdAt: day(5) },
      { at: day(0), text: "older", createdAt: day(0) },
    ];
    const changes = [change(3, "accepted"), change(5, "invalid", { decidedAt: day(2) })];
    expect(withTriage([gate], { changes, markers })[0]).toMatchObject({
      incidents: [],
      triagedSince: [
        { incident: { number: 3, state: "accepted" }, marker: null },
        { incident: null, marker: "pool 20 → 50" },
      ],
    });
  });
});

describe("gateOfEndpoint", () => {
  const failing = summarizeSeriesGate(input(["pass", "fail", "fail"]))!;
  const joinInts = { id: 1, name: "m > BenchmarkJoinInts", protocol: "benchmark" };
  const encode = { id: 2, name: "m > BenchmarkEncode", protocol: "benchmark" };
  const options = { measured: true, isOwnSeries: true };

  it("names this endpoint's change when the gate named it, and how many others failed", () => {
    expect(gateOfEndpoint(failing, joinInts, options)).toEqual({
      series: failing.key,
      runId: "run2",
      outcome: "fail",
      change: JOIN_INTS,
      othersFailing: 1,
      isOwnSeries: true,
    });
    // An undecided change is this endpoint's too (the gate was not sure of it).
    expect(gateOfEndpoint(failing, { id: 3, name: "m > BenchmarkSort", protocol: "benchmark" }, options)).toMatchObject({ change: SORT, othersFailing: 2 });
  });

  it("says the gate failed on other endpoints when it named none of this one, each endpoint once", () => {
    expect(gateOfEndpoint(failing, encode, options)).toMatchObject({ outcome: "fail", change: null, othersFailing: 2 });
    const allocs: KeptGateChange = { ...JOIN_INTS, metric: "metrics.allocs/op", deltaPct: 100_000, status: "exact" };
    const twice = summarizeSeriesGate(input(["fail"], { latestChanges: [allocs, JOIN_INTS, CHECKSUM] }))!;
    expect(gateOfEndpoint(twice, encode, options)).toMatchObject({ othersFailing: 2 });
    // This endpoint's largest failing change is the one shown.
    expect(gateOfEndpoint(twice, joinInts, options)).toMatchObject({ change: allocs, othersFailing: 1 });
    // The same name over another protocol is another endpoint.
    expect(gateOfEndpoint(failing, { ...joinInts, protocol: "http" }, options)).toMatchObject({ change: null });
  });

  it("matches the aggregate row with the run's aggregate (endpoint null)", () => {
    const aggregate: KeptGateChange = { endpoint: null, protocol: "http", metric: "p95", deltaPct: 61, status: "regressed" };
    const gate = summarizeSeriesGate(input(["fail"], { latestChanges: [aggregate] }))!;
    expect(gateOfEndpoint(gate, { id: null, name: "All endpoints", protocol: null }, options)).toMatchObject({ change: aggregate, othersFailing: 0 });
  });

  it("says nothing of an endpoint the run did not measure unless it named it, nor of a run without an outcome", () => {
    expect(gateOfEndpoint(failing, encode, { measured: false, isOwnSeries: true })).toBeNull();
    expect(gateOfEndpoint(failing, joinInts, { measured: false, isOwnSeries: true })).toMatchObject({ change: JOIN_INTS });
    expect(gateOfEndpoint(summarizeSeriesGate(input(["pass", null])), encode, options)).toBeNull();
    expect(gateOfEndpoint(undefined, encode, options)).toBeNull();
  });
});

describe("summarizeCardGate", () => {
  it("groups the series by latest outcome, names them short, and keeps the failing ones' streak and largest changes", () => {
    const go = summarizeSeriesGate(input(["pass", "fail", "fail"]))!;
    const k6 = summarizeSeriesGate(input(["fail", "pass"], { tool: "k6", testbed: null, latestChanges: [], latestReasons: [] }))!;
    const other = summarizeSeriesGate(input(["inconclusive"], { testbed: "arm64", latestChanges: [SORT], latestReasons: ["undecided"] }))!;
    const card = summarizeCardGate([k6, go, other]);
    expect(card.failing).toEqual([
      {
        key: go.key,
        name: "go · nightly · linux/amd64 · AMD EPYC",
        latestRunId: "run2",
        failing: { since: { runId: "run1", startedAt: day(1), commit: "c0ffee1" }, runs: 2 },
        named: [JOIN_INTS, CHECKSUM],
        reason: "1 benchmark regressed against the baseline",
      },
    ]);
    expect(card.inconclusive.map((series) => [series.name, series.reason])).toEqual([["go · nightly · arm64", "undecided"]]);
    expect(card.passing.map((series) => [series.name, series.failing, series.reason])).toEqual([["k6 · nightly", null, null]]);
    expect(summarizeCardGate([])).toEqual({ failing: [], inconclusive: [], passing: [] });
  });
});
