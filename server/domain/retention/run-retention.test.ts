import { describe, expect, it } from "vitest";
import { selectRunsToDelete } from "./run-retention";

const now = new Date("2026-06-30T00:00:00Z");
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
/** Series "a": runs a1 (oldest, 50 days) … a5 (10 days); series "b": b1 (40 days), b2 (35 days). */
const runs = [
  { id: "a1", startedAt: daysAgo(50), seriesKey: "a" },
  { id: "a2", startedAt: daysAgo(40), seriesKey: "a" },
  { id: "a3", startedAt: daysAgo(30), seriesKey: "a" },
  { id: "a4", startedAt: daysAgo(20), seriesKey: "a" },
  { id: "a5", startedAt: daysAgo(10), seriesKey: "a" },
  { id: "b1", startedAt: daysAgo(40), seriesKey: "b" },
  { id: "b2", startedAt: daysAgo(35), seriesKey: "b" },
];
const none = new Set<string>();

describe("selectRunsToDelete", () => {
  it("deletes nothing without a rule", () => {
    expect(selectRunsToDelete(runs, { maxAgeDays: null, keepRuns: null }, none, now)).toEqual({ doomed: [], protectedCount: 0 });
  });

  it("by age: runs older than the days, oldest first, but never a series' newest run", () => {
    // 25 days: a1, a2, a3, b1, b2 are older; b2 is b's newest and stays.
    expect(selectRunsToDelete(runs, { maxAgeDays: 25, keepRuns: null }, none, now)).toEqual({ doomed: ["a1", "a2", "b1", "a3"], protectedCount: 1 });
  });

  it("by count: each series keeps its newest N", () => {
    expect(selectRunsToDelete(runs, { maxAgeDays: null, keepRuns: 2 }, none, now)).toEqual({ doomed: ["a1", "a2", "a3"], protectedCount: 0 });
  });

  it("both limits: a run either limit deletes goes", () => {
    // keep 4 deletes a1; 35 days deletes a1, a2, b1 (b2 is exactly 35 days old: not older).
    expect(selectRunsToDelete(runs, { maxAgeDays: 35, keepRuns: 4 }, none, now).doomed).toEqual(["a1", "a2", "b1"]);
  });

  it("never deletes a protected run (a pin, an open incident's first run), and counts it", () => {
    expect(selectRunsToDelete(runs, { maxAgeDays: null, keepRuns: 1 }, new Set(["a2", "a4"]), now)).toEqual({ doomed: ["a1", "b1", "a3"], protectedCount: 2 });
  });

  it("keeps the newest run of a series even with keepRuns 1 and every run too old", () => {
    const selection = selectRunsToDelete(runs, { maxAgeDays: 1, keepRuns: 1 }, none, now);
    expect(selection.doomed).not.toContain("a5");
    expect(selection.doomed).not.toContain("b2");
    expect(selection.doomed).toHaveLength(5);
  });
});
