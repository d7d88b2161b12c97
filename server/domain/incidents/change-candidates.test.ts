import { describe, expect, it } from "vitest";
import { findCandidatesInTrends } from "./change-candidates";
import type { TrendLine } from "./change-candidates";

// A detection window's change points, trend by trend (change-candidates.ts): where a step is named (the
// run it starts at, through the trend's own positions in the window), which way it counts, and the
// search from an unreturned regression's first run, where only the return counts.

/** 40 runs, r00 … r39. */
const WINDOW = Array.from({ length: 40 }, (_, index) => `r${String(index).padStart(2, "0")}`);
/** Deterministic noise of about ±1%, so the t-test has a spread to work with. */
const noisy = (level: number, index: number) => level * (1 + 0.01 * Math.sin(index * 1.7));
const trend = (values: number[], runs = values.map((_, index) => index), better: TrendLine["better"] = "lower"): TrendLine => ({
  endpointId: 7,
  metric: "p95",
  better,
  runs,
  values,
});

describe("findCandidatesInTrends", () => {
  it("a +30% step at run 20 is one regression, first seen at r20, with the trend's runs", () => {
    const values = WINDOW.map((_, index) => noisy(index < 20 ? 100 : 130, index));
    const [candidate, ...others] = findCandidatesInTrends(WINDOW, [trend(values)], []);
    expect(others).toEqual([]);
    expect(candidate).toMatchObject({ endpointId: 7, metric: "p95", kind: "regression", firstRunId: "r20", seriesRunIds: WINDOW });
    expect(candidate!.deltaPct).toBeCloseTo(30, 0);
    expect(candidate!.beforeValue).toBeCloseTo(100, 0);
  });

  it("names the run through the trend's positions when runs without a value are skipped", () => {
    // Only the even runs have a value: the step between the trend's 10th and 11th values is at r20.
    const runs = WINDOW.map((_, index) => index).filter((index) => index % 2 === 0);
    const values = runs.map((position, index) => noisy(position < 20 ? 50 : 65, index));
    const [candidate] = findCandidatesInTrends(WINDOW, [trend(values, runs)], []);
    expect(candidate).toMatchObject({ kind: "regression", firstRunId: "r20", seriesRunIds: runs.map((position) => WINDOW[position]) });
  });

  it("a step down of a metric where higher is better is a regression; of a latency, an improvement", () => {
    const values = WINDOW.map((_, index) => noisy(index < 20 ? 100 : 70, index));
    expect(findCandidatesInTrends(WINDOW, [trend(values, undefined, "higher")], [])[0]).toMatchObject({ kind: "regression", firstRunId: "r20" });
    expect(findCandidatesInTrends(WINDOW, [trend(values)], [])[0]).toMatchObject({ kind: "improvement", firstRunId: "r20" });
  });

  it("from an unreturned regression's first run, only its return is looked for", () => {
    // Up at r10, back down at r26: over the whole window a bump; from r10 on, one step back.
    const values = WINDOW.map((_, index) => noisy(index >= 10 && index < 26 ? 140 : 100, index));
    const candidates = findCandidatesInTrends(WINDOW, [trend(values)], [{ endpointId: 7, metric: "p95", firstRunId: "r10" }]);
    expect(candidates).toContainEqual(expect.objectContaining({ kind: "improvement", firstRunId: "r26" }));
    // An unreturned regression of another metric or endpoint does not start a search of this trend.
    const elsewhere = findCandidatesInTrends(WINDOW, [trend(values)], [{ endpointId: 8, metric: "p95", firstRunId: "r10" }]);
    expect(elsewhere).toEqual(findCandidatesInTrends(WINDOW, [trend(values)], []));
    // Each (endpoint, metric, first run) is named once, whichever search found it.
    const keys = candidates.map((candidate) => `${candidate.metric}@${candidate.firstRunId}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("a flat trend, and one too short to split, have none", () => {
    expect(findCandidatesInTrends(WINDOW, [trend(WINDOW.map((_, index) => noisy(100, index)))], [])).toEqual([]);
    expect(findCandidatesInTrends(WINDOW, [trend([100, 100, 100, 100, 100, 150, 150, 150, 150, 150])], [])).toEqual([]);
  });
});
