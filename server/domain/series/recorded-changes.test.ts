import { describe, expect, it } from "vitest";
import { MIN_REGIME_RUNS, summarizeSeries } from "./overview";
import type { SeriesResult } from "./overview";
import { activeIncidentsOf, chooseTrendWindow } from "./recorded-changes";
import type { RecordedChange } from "./recorded-changes";

const SERIES = "k6 · nightly · main";
const hour = (index: number) => new Date(Date.UTC(2026, 10, 1, index));

/** Results of one series, newest first, from p95 values given oldest first (run i started at hour i). */
function results(p95s: readonly number[], series = SERIES): SeriesResult[] {
  return p95s
    .map((p95, index) => ({
      runId: `run${index}`,
      series,
      startedAt: hour(index),
      requests: 100,
      errorRate: 0,
      throughput: 10,
      p50Ms: p95 / 2,
      p95Ms: p95,
      p99Ms: p95 * 2,
      meanMs: p95 / 2,
    }))
    .reverse();
}

function regression(at: number, overrides: Partial<RecordedChange> = {}): RecordedChange {
  return {
    endpointId: 1,
    series: SERIES,
    kind: "regression",
    status: "open",
    metric: "p95",
    deltaPct: 31,
    firstRunId: `run${at}`,
    at: hour(at),
    incident: { number: 3, state: "open" },
    ...overrides,
  };
}

// 20 runs at 10 ms with a little noise, then a step to 13 ms at run 20 (8 runs on the new level).
const NOISE = [0.1, -0.1, 0.2, -0.2, 0, 0.15, -0.15, 0.05, -0.05, 0.1];
const STEP = [...Array.from({ length: 20 }, (_, index) => 10 + NOISE[index % 10]!), ...Array.from({ length: 8 }, (_, index) => 13 + NOISE[index % 10]!)];
const ENDPOINT = { id: 1, name: "GET /x", protocol: "http" };

describe("the overview's trend against the regime of recorded changes", () => {
  it("compared with the previous 10 runs, which straddle a step, the latest run reads as no significant change", () => {
    const summary = summarizeSeries(ENDPOINT, results(STEP), "run27");
    expect(summary?.trend).toMatchObject({ kind: "change", direction: "flat", previousRuns: 10 });
    expect(summary?.incidents).toEqual([]);
  });

  it("with the step's incident open, the latest is compared with the level before it, and the row names the incident", () => {
    const summary = summarizeSeries(ENDPOINT, results(STEP), "run27", { changes: [regression(20)], markers: [] });
    expect(summary?.trend).toMatchObject({ kind: "change", direction: "up", previousRuns: 10, before: "incident #3", since: null });
    if (summary?.trend.kind !== "change") throw new Error("expected a trend");
    expect(summary.trend.medianMs).toBeCloseTo(10, 0);
    expect(summary.trend.relativeDelta).toBeCloseTo(0.3, 1);
    expect(summary.incidents).toEqual([{ number: 3, state: "open", metric: "p95", deltaPct: 31, firstRunId: "run20" }]);
  });

  it("once the incident is accepted, the new level is the reference and no incident is shown", () => {
    const accepted = regression(20, { status: "acknowledged", incident: { number: 3, state: "accepted" } });
    const summary = summarizeSeries(ENDPOINT, results(STEP), "run27", { changes: [accepted], markers: [] });
    expect(summary?.trend).toMatchObject({ kind: "change", direction: "flat", previousRuns: 7, since: "accepted incident #3", before: null });
    expect(summary?.incidents).toEqual([]);
  });

  it("a change marker starts a new regime as the gate's does; a later open regression still ends it", () => {
    const marker = { at: new Date(hour(20).getTime() - 60_000), text: "pool 20 → 50" };
    const sinceMarker = summarizeSeries(ENDPOINT, results(STEP), "run27", { changes: [], markers: [marker] });
    expect(sinceMarker?.trend).toMatchObject({ direction: "flat", previousRuns: 7, since: 'the change marker "pool 20 → 50"' });
    const later = [...STEP, 17, 17.1, 16.9, 17.05, 17, 16.95, 17.1];
    const summary = summarizeSeries(ENDPOINT, results(later), "run34", { changes: [regression(28, { incident: { number: 4, state: "investigating" } })], markers: [marker] });
    expect(summary?.trend).toMatchObject({ direction: "up", previousRuns: 8, since: 'the change marker "pool 20 → 50"', before: "incident #4" });
  });

  it("says why there is no trend when the level before an open incident is out of sight, or the latest run starts a new level", () => {
    const outOfSight = summarizeSeries(ENDPOINT, results(STEP), "run27", { changes: [regression(0)], markers: [] });
    expect(outOfSight?.trend).toEqual({ kind: "insufficient", reason: "the level before incident #3 is older than the runs shown" });
    expect(outOfSight?.incidents).toHaveLength(1);
    const atLatest = regression(27, { kind: "improvement", incident: null, deltaPct: -12 });
    expect(summarizeSeries(ENDPOINT, results(STEP), "run27", { changes: [atLatest], markers: [] })?.trend).toEqual({
      kind: "insufficient",
      reason: "only the latest run is since the improvement (p95 −12.0%)",
    });
  });

  it("a step recorded on another endpoint of the series sets the regime too (as the gate's), but names no incident on this row", () => {
    const elsewhere = regression(20, { endpointId: 2 });
    expect(summarizeSeries(ENDPOINT, results(STEP), "run27", { changes: [elsewhere], markers: [] })).toMatchObject({
      trend: { direction: "up", before: "incident #3" },
      incidents: [],
    });
  });

  it("reads only the changes of the latest run's series, and none after the latest run", () => {
    const otherSeries = regression(20, { series: "locust · baseline · main" });
    expect(summarizeSeries(ENDPOINT, results(STEP), "run27", { changes: [otherSeries], markers: [] })).toMatchObject({
      trend: { direction: "flat" },
      incidents: [],
    });
    const window = chooseTrendWindow(
      results(STEP).slice(9).map(({ runId, startedAt }) => ({ runId, startedAt })),
      hour(18),
      [regression(20)],
      [],
      10,
    );
    expect(window).toEqual({ runIds: ["run18", "run17", "run16", "run15", "run14", "run13", "run12", "run11", "run10", "run9"], since: null, sinceAt: null, sinceKind: null, before: null });
  });
});

describe("never 'no significant change' with too few runs since a step to tell", () => {
  const MAIN = { defaultBranch: "main", gates: [] };
  const IDENTITY = { tool: "k6", label: "nightly", branch: "main", testbed: null };
  /** Results of the series on main, uploaded as they started; the runs from `failedFrom` on failed the gate. */
  function onMain(p95s: readonly number[], failedFrom = Number.POSITIVE_INFINITY): SeriesResult[] {
    return results(p95s).map((result, newestIndex) => {
      const index = p95s.length - 1 - newestIndex;
      return { ...result, identity: IDENTITY, uploadedAt: result.startedAt, regressed: index >= failedFrom };
    });
  }
  // 20 runs at 10 ms, then 3 at 13 ms that each failed the gate; the detector needs 6 to confirm the step.
  const YOUNG_STEP = STEP.slice(0, 23);

  it("a step the detector has not confirmed: the failed runs stay out of the reference (as the gate's), the step reads as a change, and a flat row says it is too early", () => {
    const stepped = summarizeSeries(ENDPOINT, onMain(YOUNG_STEP, 20), "run22", undefined, MAIN);
    expect(stepped?.trend).toMatchObject({
      kind: "change",
      direction: "up",
      previousRuns: 10,
      unsettled: { kind: "failing", runs: 3, needed: MIN_REGIME_RUNS, since: hour(20) },
    });
    if (stepped?.trend.kind !== "change") throw new Error("expected a trend");
    expect(stepped.trend.medianMs).toBeCloseTo(10, 0);
    // Another endpoint of the same runs did not move: flat, but not "no significant change" while its runs fail.
    const flat = onMain(YOUNG_STEP.map((_, index) => 5 + NOISE[index % 10]! / 2), 20);
    expect(summarizeSeries({ ...ENDPOINT, id: 2 }, flat, "run22", undefined, MAIN)?.trend).toMatchObject({
      direction: "flat",
      unsettled: { kind: "failing", runs: 3 },
    });
    // Without the gate's outcomes (runs judged before they were kept), the ten runs straddle the step: flat, as before.
    expect(summarizeSeries(ENDPOINT, results(YOUNG_STEP), "run22")?.trend).toMatchObject({ direction: "flat", unsettled: null });
  });

  it("once detection has confirmed the step (an open incident), the failing runs are judged against the level before it: settled", () => {
    const level = [...STEP.slice(0, 28)];
    const flat = onMain(level.map((_, index) => 5 + NOISE[index % 10]! / 2), 20);
    const summary = summarizeSeries({ ...ENDPOINT, id: 2 }, flat, "run27", { changes: [regression(20)], markers: [] }, MAIN);
    expect(summary?.trend).toMatchObject({ direction: "flat", before: "incident #3", unsettled: null });
  });

  it("a step just accepted: fewer than MIN_REGIME_RUNS runs of the new level", () => {
    const accepted = regression(25, { status: "acknowledged", incident: { number: 3, state: "accepted" }, decidedAt: hour(40) });
    const level = [...STEP.slice(0, 25), 13, 13.1, 12.9];
    const summary = summarizeSeries(ENDPOINT, onMain(level, 25), "run27", { changes: [accepted], markers: [] }, MAIN);
    // The acceptance came after the failed runs: it covers them, they are the new level's first runs.
    expect(summary?.trend).toMatchObject({
      direction: "flat",
      previousRuns: 2,
      since: "accepted incident #3",
      unsettled: { kind: "few-runs", runs: 3, needed: 6, since: hour(25), sinceKind: "change", sinceWords: "accepted incident #3" },
    });
  });

  it("a fresh series: too few runs in all", () => {
    expect(summarizeSeries(ENDPOINT, onMain([10, 10.1, 9.9, 10]), "run3", undefined, MAIN)?.trend).toMatchObject({
      direction: "flat",
      unsettled: { kind: "few-runs", runs: 4, since: null, sinceKind: null, sinceWords: null },
    });
  });

  it("is settled with MIN_REGIME_RUNS runs of the regime and none failing", () => {
    expect(summarizeSeries(ENDPOINT, onMain(STEP.slice(0, MIN_REGIME_RUNS)), `run${MIN_REGIME_RUNS - 1}`, undefined, MAIN)?.trend).toMatchObject({
      direction: "flat",
      unsettled: null,
    });
  });

  it("reads failed runs on the default branch only: a branch's runs fail against the default branch's", () => {
    const branch = onMain(YOUNG_STEP, 20).map((result) => ({ ...result, identity: { ...IDENTITY, branch: "feature/x" }, series: "k6 · nightly · feature/x" }));
    expect(summarizeSeries(ENDPOINT, branch, "run22", undefined, MAIN)?.trend).toMatchObject({ direction: "flat", unsettled: null });
  });
});

describe("activeIncidentsOf", () => {
  it("keeps incidents open or investigating, one entry each, with the trend metric's change when it moved, else the largest", () => {
    const changes = [
      regression(20, { metric: "p99", deltaPct: 55 }),
      regression(20, { metric: "p95", deltaPct: 31 }),
      regression(22, { metric: "p99", deltaPct: 12, incident: { number: 4, state: "investigating" } }),
      regression(22, { metric: "p50", deltaPct: -20, incident: { number: 4, state: "investigating" } }),
      regression(5, { status: "acknowledged", incident: { number: 1, state: "accepted" } }),
      regression(8, { incident: { number: 2, state: "fixed" } }),
      regression(9, { kind: "improvement", incident: null }),
    ];
    expect(activeIncidentsOf(changes, "p95")).toEqual([
      { number: 3, state: "open", metric: "p95", deltaPct: 31, firstRunId: "run20" },
      { number: 4, state: "investigating", metric: "p50", deltaPct: -20, firstRunId: "run22" },
    ]);
  });
});
