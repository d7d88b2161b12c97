import { describe, expect, it } from "vitest";
import { SERIES_LENGTH, latestTrendOf, toSparkline } from "./overview";

describe("latestTrendOf", () => {
  it("gives an arrow only to a change beyond ±5% that the prediction test finds significant", () => {
    const steady = [10, 10.2, 9.9, 10.1, 10, 9.8, 10.2];
    expect(latestTrendOf([13, ...steady])).toMatchObject({ kind: "change", direction: "up", medianMs: 10, previousRuns: 7 });
    expect(latestTrendOf([8, ...steady])).toMatchObject({ direction: "down" });
    const up = latestTrendOf([13, ...steady]);
    expect(up.kind === "change" && up.pValue).toBeLessThan(0.001);
    // +5.1% over a noisy history (9, 11, 10): within what those runs produce, no arrow.
    const noisy = latestTrendOf([10.51, 9, 11, 10]);
    expect(noisy).toMatchObject({ direction: "flat", medianMs: 10, previousRuns: 3 });
    expect(noisy.kind === "change" && noisy.pValue).toBeGreaterThan(0.05);
    // Significant but within ±5%: not an arrow either.
    expect(latestTrendOf([10.4, 10, 10, 10.01, 9.99])).toMatchObject({ direction: "flat" });
    const trend = latestTrendOf([13.2, 12, 12]);
    expect(trend.kind === "change" && trend.relativeDelta).toBeCloseTo(0.1, 10);
  });

  it("uses at most the 10 previous runs, skipping runs without a p95", () => {
    // The 11th previous value (1000) is outside the window; nulls are skipped.
    const values = [10, null, 10, 10, 10, 10, 10, 10, 10, 10, 10, 1000];
    expect(latestTrendOf(values)).toMatchObject({ direction: "flat", medianMs: 10, previousRuns: 9 });
  });

  it("is a typed 'not enough data' when there is nothing to compare", () => {
    expect(latestTrendOf([])).toEqual({ kind: "insufficient", reason: "no runs yet" });
    expect(latestTrendOf([5])).toEqual({ kind: "insufficient", reason: "need 2 runs with a p95, have 1" });
    expect(latestTrendOf([null, 5, 5])).toEqual({ kind: "insufficient", reason: "the latest run has no p95" });
    expect(latestTrendOf([5, null])).toMatchObject({ kind: "insufficient" });
    expect(latestTrendOf([5, 0])).toMatchObject({ kind: "insufficient" });
    expect(latestTrendOf([0, 0])).toMatchObject({ kind: "change", direction: "flat" });
  });
});

describe("toSparkline", () => {
  it("turns newest-first results into oldest → newest points, keeping gaps as null", () => {
    const at = (day: number) => new Date(`2026-11-${String(day).padStart(2, "0")}T00:00:00Z`);
    expect(toSparkline([
      { startedAt: at(3), p95Ms: 3, meanMs: 2 },
      { startedAt: at(2), p95Ms: null, meanMs: null },
      { startedAt: at(1), p95Ms: 1, meanMs: 0.5 },
    ])).toEqual([
      { x: at(1).getTime(), y: 1 },
      { x: at(2).getTime(), y: null },
      { x: at(3).getTime(), y: 3 },
    ]);
  });

  it("follows a benchmark's mean time per operation when asked", () => {
    const at = (day: number) => new Date(`2026-11-${String(day).padStart(2, "0")}T00:00:00Z`);
    expect(toSparkline([{ startedAt: at(2), p95Ms: 3, meanMs: 2 }, { startedAt: at(1), p95Ms: 1, meanMs: 0.5 }], "mean")).toEqual([
      { x: at(1).getTime(), y: 0.5 },
      { x: at(2).getTime(), y: 2 },
    ]);
  });

  it("keeps the newest SERIES_LENGTH points", () => {
    const results = Array.from({ length: 40 }, (_, index) => ({ startedAt: new Date(40_000 - index * 1000), p95Ms: 40 - index, meanMs: null }));
    const series = toSparkline(results);
    expect(series).toHaveLength(SERIES_LENGTH);
    expect(series.at(-1)).toEqual({ x: 40_000, y: 40 });
    expect(series[0]).toEqual({ x: 40_000 - 29_000, y: 11 });
  });
});
