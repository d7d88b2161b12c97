import { describe, expect, it } from "vitest";
import { markedPlaces, placeMarkers, toMarkerSources } from "./trend-markers";
import type { MarkerSource } from "./trend-markers";

const T0 = Date.UTC(2026, 0, 1, 9);
const HOUR = 3_600_000;
/** A history read: runs a, b, c an hour apart at positions 5, 6 and 9 (the runs between were thinned away). */
const ROWS = [
  { runId: "a", startedAt: new Date(T0), order: 5 },
  { runId: "b", startedAt: new Date(T0 + HOUR), order: 6 },
  { runId: "c", startedAt: new Date(T0 + 2 * HOUR), order: 9 },
];

describe("toMarkerSources", () => {
  it("says a change point's metric and change, a pin's label, and a note's own words", () => {
    const sources = toMarkerSources({
      changes: [
        { firstRunId: "b", metric: "p95", kind: "regression", deltaPct: 300 },
        { firstRunId: "c", metric: "p99", kind: "improvement", deltaPct: -87.54 },
      ],
      pins: [
        { runIds: ["a", "b"], forLabel: "nightly" },
        { runIds: ["c"], forLabel: null },
      ],
      annotations: [
        { runId: "c", at: new Date(T0 + 2 * HOUR), kind: "note", text: "deployed v2.3" },
        { runId: null, at: new Date(T0 + HOUR / 2), kind: "deploy", text: "v1.4 rolled out" },
        { runId: "b", at: new Date(T0 + HOUR), kind: "change", text: "pool 20 → 50" },
      ],
    });
    expect(sources).toEqual([
      { runId: "b", kind: "regression", text: "p95 +300.0%" },
      { runId: "c", kind: "improvement", text: "p99 −87.5%" },
      { runId: "a", kind: "pinned", text: "baseline (nightly)" },
      { runId: "b", kind: "pinned", text: "baseline (nightly)" },
      { runId: "c", kind: "pinned", text: "baseline" },
      { runId: "c", kind: "annotation", text: "deployed v2.3" },
      { runId: null, at: new Date(T0 + HOUR / 2), kind: "deploy", text: "v1.4 rolled out" },
      { runId: "b", kind: "change", text: "pool 20 → 50" },
    ]);
  });

  it("makes one marker of an incident's changes at its run, the largest first, naming the incident and its state", () => {
    const incident = { number: 3, state: "investigating" as const };
    const sources = toMarkerSources({
      changes: [
        { firstRunId: "b", metric: "p95", kind: "regression", deltaPct: 31, incident },
        { firstRunId: "c", metric: "p50", kind: "improvement", deltaPct: -12, incident: null },
        { firstRunId: "b", metric: "p99", kind: "regression", deltaPct: 40.24, incident },
        // A change of the same incident a run later (its series was noisier): its own marker there.
        { firstRunId: "c", metric: "mean", kind: "regression", deltaPct: 25, incident },
      ],
      pins: [],
      annotations: [],
    });
    expect(sources).toEqual([
      { runId: "b", kind: "regression", text: "Incident #3 (Investigating): p99 +40.2%, p95 +31.0%", incidentNumber: 3 },
      { runId: "c", kind: "improvement", text: "p50 −12.0%" },
      { runId: "c", kind: "regression", text: "Incident #3 (Investigating): mean +25.0%", incidentNumber: 3 },
    ]);
    expect(placeMarkers(sources, ROWS)[0]).toEqual({ runId: "b", kind: "regression", text: sources[0]!.text, time: T0 + HOUR, order: 6, incidentNumber: 3 });
  });

  it("has nothing to say of nothing", () => {
    expect(toMarkerSources({ changes: [], pins: [], annotations: [] })).toEqual([]);
  });
});

describe("markedPlaces", () => {
  it("lists the marked runs and times once each, sorted", () => {
    const later = new Date(T0 + 5 * HOUR);
    const earlier = new Date(T0 - HOUR);
    const markers: MarkerSource[] = [
      { runId: "c", kind: "pinned", text: "baseline" },
      { runId: null, at: later, kind: "deploy", text: "v2" },
      { runId: "a", kind: "annotation", text: "note" },
      { runId: "c", kind: "regression", text: "p95 +10.0%" },
      { runId: null, at: earlier, kind: "change", text: "pool" },
      { runId: null, at: later, kind: "deploy", text: "v2 again" },
    ];
    expect(markedPlaces(markers)).toEqual({
      runIds: ["a", "c"],
      times: [earlier.toISOString(), later.toISOString()],
    });
  });
});

describe("placeMarkers", () => {
  it("places a marker on a run at that run's time and position", () => {
    expect(placeMarkers([{ runId: "b", kind: "pinned", text: "baseline" }], ROWS)).toEqual([
      { runId: "b", kind: "pinned", text: "baseline", time: T0 + HOUR, order: 6 },
    ]);
  });

  it("places a marker at a time at its own time, on the position of the first run at or after it", () => {
    const between = new Date(T0 + HOUR + 60_000);
    const atRun = new Date(T0 + HOUR);
    expect(
      placeMarkers(
        [
          { runId: null, at: between, kind: "deploy", text: "v2" },
          { runId: null, at: atRun, kind: "change", text: "pool" },
        ],
        ROWS,
      ),
    ).toEqual([
      { runId: null, kind: "change", text: "pool", time: atRun.getTime(), order: 6 },
      { runId: null, kind: "deploy", text: "v2", time: between.getTime(), order: 9 },
    ]);
  });

  it("leaves out markers of runs outside the history and times after its last run", () => {
    expect(
      placeMarkers(
        [
          { runId: "elsewhere", kind: "annotation", text: "other series" },
          { runId: null, at: new Date(T0 + 3 * HOUR), kind: "deploy", text: "later" },
        ],
        ROWS,
      ),
    ).toEqual([]);
  });

  it("sorts by position, then by time, keeping the given order of equals", () => {
    const placed = placeMarkers(
      [
        { runId: "c", kind: "improvement", text: "p95 −4.2%" },
        { runId: "b", kind: "regression", text: "p95 +76.1%" },
        { runId: null, at: new Date(T0 + HOUR / 2), kind: "deploy", text: "v1.4" },
        { runId: "b", kind: "change", text: "pool" },
      ],
      ROWS,
    );
    expect(placed.map((marker) => [marker.order, marker.text])).toEqual([
      [6, "v1.4"],
      [6, "p95 +76.1%"],
      [6, "pool"],
      [9, "p95 −4.2%"],
    ]);
  });
});
