import { describe, expect, it } from "vitest";
import {
  availableTrendLines,
  DEFAULT_MAX_POINTS,
  hasValues,
  PRESELECT_BUCKETS_PER_POINT,
  selectFromCandidates,
  selectTrendRuns,
  toMetricPoints,
  toTrendPoints,
  rangeStart,
  ROUND_STEP_FRACTION,
  spreadCommitRounds,
  toTrendSeries,
  TREND_LINE_FIELD,
  xPositions,
} from "./trend-series";
import type { TrendRow } from "./trend-series";

const DAY = 86_400_000;
const START = Date.UTC(2025, 0, 1);

/** A deterministic history: p95 wobbles around 10 ms, other lines follow it. */
function history(length: number, overrides: (index: number) => Partial<TrendRow> = () => ({})): TrendRow[] {
  return Array.from({ length }, (_, index) => {
    const p95 = 10 + Math.sin(index / 9) * 2 + ((index * 7919) % 5) / 10;
    return {
      runId: `run-${index}`,
      startedAt: new Date(START + index * DAY),
      label: index % 2 === 0 ? "baseline" : "ManagedAsync",
      round: (index % 3) + 1,
      branch: "main",
      commit: `abcdef0123456789${index}`,
      p50Ms: p95 / 2,
      p90Ms: p95 * 0.9,
      p95Ms: p95,
      p99Ms: p95 * 1.3,
      meanMs: p95 / 1.8,
      maxMs: p95 * 2,
      throughput: 100 + (index % 7),
      errorRate: 0,
      ...overrides(index),
    };
  });
}

describe("selectTrendRuns", () => {
  it("keeps every run, numbered 1…M, when the history fits", () => {
    const rows = history(5);
    const selection = selectTrendRuns(rows, 600);
    expect(selection.isDownsampled).toBe(false);
    expect(selection.total).toBe(5);
    expect(selection.kept.map((kept) => kept.order)).toEqual([1, 2, 3, 4, 5]);
    expect(selection.kept.map((kept) => kept.row)).toEqual(rows);
  });

  it("thins a long history to at most maxPoints whole runs, keeping the first and last", () => {
    const rows = history(5000);
    const selection = selectTrendRuns(rows, DEFAULT_MAX_POINTS);
    expect(selection.isDownsampled).toBe(true);
    expect(selection.total).toBe(5000);
    expect(selection.kept.length).toBeLessThanOrEqual(DEFAULT_MAX_POINTS);
    expect(selection.kept.length).toBeGreaterThan(DEFAULT_MAX_POINTS - 10);
    expect(selection.kept[0]).toEqual({ row: rows[0], order: 1 });
    expect(selection.kept.at(-1)).toEqual({ row: rows[4999], order: 5000 });
    // Whole rows, in history order, with their original run numbers.
    const orders = selection.kept.map((kept) => kept.order);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    for (const { row, order } of selection.kept) expect(row).toBe(rows[order - 1]);
  });

  it("keeps each line's extreme run even when LTTB on p95 would not pick it", () => {
    // p95 is flat, so LTTB has no reason to keep any particular run; the extremes of other lines
    // (a p99 spike, an error burst, a throughput collapse, a p95 dip) must survive anyway.
    const rows = history(3000, (index) => ({
      p95Ms: index === 1500 ? 5 : 10,
      p99Ms: index === 777 ? 900 : 13,
      maxMs: index === 778 ? 5000 : 20,
      errorRate: index === 2222 ? 0.4 : 0,
      throughput: index === 1234 ? 3 : index === 2345 ? 400 : 100,
    }));
    const kept = new Set(selectTrendRuns(rows, 100).kept.map((entry) => entry.order - 1));
    for (const index of [0, 1500, 777, 778, 2222, 1234, 2345, 2999]) expect(kept.has(index)).toBe(true);
    expect(kept.size).toBeLessThanOrEqual(100);
  });

  it("keeps a lone p95 spike through LTTB", () => {
    const rows = history(2000, (index) => ({ p95Ms: index === 999 ? 250 : 10 }));
    expect(selectTrendRuns(rows, 50).kept.some((entry) => entry.row.p95Ms === 250)).toBe(true);
  });

  it("still thins a history with no p95 at all (a tool that reports only the mean)", () => {
    const rows = history(1000, () => ({ p95Ms: null, p99Ms: null }));
    const selection = selectTrendRuns(rows, 50);
    expect(selection.kept.length).toBeLessThanOrEqual(50);
    expect(selection.kept[0]?.order).toBe(1);
  });

  it("refuses a budget too small to hold the pinned extremes", () => {
    expect(() => selectTrendRuns(history(3), 5)).toThrow(RangeError);
  });
});

/**
 * The database's preselection (server/services/trends/trend-history-sql.ts) in a few lines: per bucket of
 * positions its lowest and highest p95, the first and last runs, and each pinned line's extremes.
 */
function preselect(rows: readonly TrendRow[], maxPoints: number) {
  const buckets = PRESELECT_BUCKETS_PER_POINT * maxPoints;
  const keep = new Set([0, rows.length - 1]);
  const bucketOf = (index: number) => Math.floor((index * buckets) / rows.length);
  const extremeIn = (indexes: number[], value: (row: TrendRow) => number | null, sign: 1 | -1) => {
    let best: number | undefined;
    for (const index of indexes) {
      const current = value(rows[index]!);
      if (current !== null && (best === undefined || sign * current > sign * value(rows[best]!)!)) best = index;
    }
    if (best !== undefined) keep.add(best);
  };
  const byBucket = new Map<number, number[]>();
  rows.forEach((_, index) => byBucket.set(bucketOf(index), [...(byBucket.get(bucketOf(index)) ?? []), index]));
  for (const indexes of byBucket.values()) {
    extremeIn(indexes, (row) => row.p95Ms, 1);
    extremeIn(indexes, (row) => row.p95Ms, -1);
  }
  const all = rows.map((_, index) => index);
  extremeIn(all, (row) => row.p99Ms, 1);
  extremeIn(all, (row) => row.maxMs, 1);
  extremeIn(all, (row) => row.errorRate, 1);
  extremeIn(all, (row) => row.throughput, 1);
  extremeIn(all, (row) => row.throughput, -1);
  return [...keep].sort((a, b) => a - b).map((index) => ({ row: rows[index]!, order: index + 1 }));
}

describe("selectFromCandidates", () => {
  it("picks from a long history's min/max candidates practically what it picks from the whole", () => {
    const rows = history(20_000, (index) => ({
      p99Ms: index === 4321 ? 900 : 13,
      errorRate: index === 17_000 ? 0.2 : 0,
    }));
    const candidates = preselect(rows, DEFAULT_MAX_POINTS);
    expect(candidates.length).toBeLessThanOrEqual(4 * DEFAULT_MAX_POINTS + 7);
    const fromCandidates = selectFromCandidates(candidates, rows.length, DEFAULT_MAX_POINTS);
    const fromWhole = selectTrendRuns(rows, DEFAULT_MAX_POINTS);
    expect(fromCandidates).toMatchObject({ total: 20_000, isDownsampled: true });
    expect(fromCandidates.kept.length).toBeLessThanOrEqual(DEFAULT_MAX_POINTS);
    const orders = fromCandidates.kept.map((kept) => kept.order);
    for (const order of [1, 4322, 17_001, 20_000]) expect(orders).toContain(order);
    for (const { row, order } of fromCandidates.kept) expect(row).toBe(rows[order - 1]);
    // The drawn p95 line is as true to the history: the same highest and lowest, and (its points
    // joined, read at every run) no further from the runs' p95 on average.
    const p95 = (kept: typeof orders) => kept.map((order) => rows[order - 1]!.p95Ms!);
    const wholeOrders = fromWhole.kept.map((kept) => kept.order);
    expect(Math.max(...p95(orders))).toBe(Math.max(...p95(wholeOrders)));
    expect(Math.min(...p95(orders))).toBe(Math.min(...p95(wholeOrders)));
    const line = (kept: number[]) => (order: number) => {
      const after = kept.findIndex((candidate) => candidate >= order);
      if (kept[after] === order || after <= 0) return rows[kept[Math.max(after, 0)]! - 1]!.p95Ms!;
      const [left, right] = [kept[after - 1]!, kept[after]!];
      const [a, b] = [rows[left - 1]!.p95Ms!, rows[right - 1]!.p95Ms!];
      return a + ((b - a) * (order - left)) / (right - left);
    };
    const deviationOf = (kept: number[]) => {
      const drawn = line(kept);
      let sum = 0;
      for (let order = 1; order <= rows.length; order++) sum += Math.abs(drawn(order) - rows[order - 1]!.p95Ms!);
      return sum / rows.length;
    };
    expect(deviationOf(orders)).toBeLessThan(1.1 * deviationOf(wholeOrders));
  });

  it("keeps every candidate of a history that fits", () => {
    const rows = history(4);
    const candidates = rows.map((row, index) => ({ row, order: index + 11 }));
    expect(selectFromCandidates(candidates, 4, 50)).toEqual({ kept: candidates, total: 4, isDownsampled: false });
  });
});

describe("toTrendPoints", () => {
  it("carries the run's identity, both x coordinates and the short commit", () => {
    const [point] = toTrendPoints([{ row: history(1)[0]!, order: 42 }]);
    expect(point).toMatchObject({
      runId: "run-0",
      time: START,
      order: 42,
      label: "baseline",
      round: 1,
      branch: "main",
      commitShort: "abcdef0",
    });
  });

  it("keeps missing values as null, never 0, and drops non-finite numbers", () => {
    const row = { ...history(1)[0]!, p90Ms: null, p99Ms: Number.NaN, errorRate: null, throughput: Infinity };
    const [point] = toTrendPoints([{ row, order: 1 }]);
    expect(point).toMatchObject({ p90Ms: null, p99Ms: null, errorRate: null, throughput: null });
    expect(point?.p95Ms).toBeGreaterThan(0);
  });
});

describe("toTrendSeries", () => {
  const points = toTrendPoints(selectTrendRuns(history(3), 600).kept);

  it("puts start time on x in time mode and the run number in order mode", () => {
    expect(toTrendSeries(points, "time").map((point) => point.x)).toEqual([START, START + DAY, START + 2 * DAY]);
    expect(toTrendSeries(points, "order").map((point) => point.x)).toEqual([1, 2, 3]);
  });

  it("sorts by x, so equal start times keep the run order", () => {
    const same = points.map((point) => ({ ...point, time: START }));
    expect(toTrendSeries([...same].reverse(), "time").map((point) => point.order)).toEqual([1, 2, 3]);
  });

  it("keeps gaps as null values (the chart skips them)", () => {
    const gappy = points.map((point, index) => ({ ...point, p99Ms: index === 1 ? null : point.p99Ms }));
    const series = toTrendSeries(gappy, "order");
    expect(series[1]?.p99Ms).toBeNull();
    expect(series[0]?.p99Ms).not.toBeNull();
  });
});

describe("spreadCommitRounds", () => {
  const MINUTE = 60_000;
  const HOUR = 60 * MINUTE;
  /** As the demo's main: a nightly run at 02:00 for 42 days, each of the day's commit; on day 24, five rounds of one commit from 18:03, 3 minutes apart. */
  function nights() {
    const points = Array.from({ length: 42 }, (_, day) => ({
      time: START + day * DAY + 2 * HOUR,
      order: 0,
      commitShort: `c${String(day).padStart(6, "0")}`,
      branch: "main",
      round: null as number | null,
    }));
    const rounds = [1, 2, 3, 4, 5].map((round) => ({
      time: START + 24 * DAY + 18 * HOUR + round * 3 * MINUTE,
      order: 0,
      commitShort: "c000025",
      branch: "main",
      round,
    }));
    // Day 25's nightly tests the same commit as the rounds (merged on day 24).
    const all = [...points.slice(0, 25), ...rounds, ...points.slice(25)].map((point, i) => ({ ...point, order: i + 1 }));
    return all;
  }

  it("spreads the rounds of one commit in run order over its slot, never past the next commit's first run", () => {
    const points = nights();
    const span = points.at(-1)!.time - points[0]!.time;
    const xs = spreadCommitRounds(points, span);
    const first = points.findIndex((point) => point.round === 1);
    // The commit's runs: 5 rounds and the next nightly; its slot ends at day 26's nightly (another commit).
    const slot = points[first + 6]!.time - points[first]!.time;
    const step = Math.min(ROUND_STEP_FRACTION * span, slot / 6);
    expect(step).toBeGreaterThan(4 * HOUR);
    for (let k = 0; k < 6; k++) expect(xs[first + k]).toBeCloseTo(Math.max(points[first + k]!.time, points[first]!.time + k * step), 6);
    expect(xs[first + 5]).toBeLessThan(points[first + 6]!.time);
    // Run order kept; the other nights where they ran.
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
    for (const [i, point] of points.entries()) if (i < first || i > first + 5) expect(xs[i]).toBe(point.time);
  });

  it("leaves runs of one commit that are far enough apart, and runs without a commit, where they ran", () => {
    const apart = [0, 1, 2].map((day) => ({ time: START + day * DAY, order: day + 1, commitShort: "aaaaaaa", branch: "main" }));
    expect(spreadCommitRounds(apart, 10 * DAY)).toEqual(apart.map((point) => point.time));
    const unknown = [0, 1, 2].map((minute) => ({ time: START + minute * 60_000, order: minute + 1, commitShort: null, branch: "main" }));
    expect(spreadCommitRounds(unknown, 10 * DAY)).toEqual(unknown.map((point) => point.time));
    // The same commit on two branches is two commits' runs.
    const branches = ["main", "feature/x"].map((branch, i) => ({ time: START + i * 60_000, order: i + 1, commitShort: "aaaaaaa", branch }));
    expect(spreadCommitRounds(branches, 10 * DAY)).toEqual(branches.map((point) => point.time));
  });

  it("places by run number in order mode, and by spread time in time mode through toTrendSeries", () => {
    const points = nights();
    expect(xPositions(points, "order")).toEqual(points.map((point) => point.order));
    const series = toTrendSeries(points, "time");
    const rounds = series.filter((point) => point.round !== null);
    expect(rounds.map((point) => point.round)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(rounds.map((point) => point.x)).size).toBe(5);
    expect(rounds[4]!.x - rounds[0]!.x).toBeGreaterThan(DAY / 2);
  });
});

describe("TREND_LINE_FIELD", () => {
  it("reads each latency line from its metric's results column in the registry", () => {
    expect(TREND_LINE_FIELD).toEqual({
      p50: "p50Ms",
      p90: "p90Ms",
      p95: "p95Ms",
      p99: "p99Ms",
      mean: "meanMs",
      max: "maxMs",
    });
  });
});

describe("availableTrendLines and hasValues", () => {
  it("offers only lines some run reports", () => {
    const points = toTrendPoints(
      selectTrendRuns(
        history(4, () => ({ p90Ms: null, maxMs: null })),
        600,
      ).kept,
    );
    expect(availableTrendLines(points)).toEqual(["p50", "p95", "p99", "mean"]);
    expect(hasValues(points, (point) => point.throughput)).toBe(true);
    expect(
      hasValues(
        points.map((point) => ({ ...point, errorRate: null })),
        (point) => point.errorRate,
      ),
    ).toBe(false);
  });
});

describe("toMetricPoints", () => {
  const rows = Array.from({ length: 2000 }, (_, index) => ({
    runId: `run-${index}`,
    startedAt: new Date(START + index * DAY),
    value: index === 1234 ? 99 : index === 321 ? 1 : 40 + (index % 4),
    order: index + 1,
  }));

  it("keeps every point of a short history, numbered like the endpoint's runs", () => {
    const numbered = rows.slice(0, 3).map((row, index) => ({ ...row, order: [5, 6, 9][index]! }));
    expect(toMetricPoints(numbered)).toEqual({
      points: [
        { runId: "run-0", time: START, order: 5, value: 40 },
        { runId: "run-1", time: START + DAY, order: 6, value: 41 },
        { runId: "run-2", time: START + 2 * DAY, order: 9, value: 42 },
      ],
      total: 3,
      isDownsampled: false,
    });
  });

  it("thins a long history keeping first, last, lowest and highest", () => {
    const result = toMetricPoints(rows, 60);
    expect(result.isDownsampled).toBe(true);
    expect(result.total).toBe(2000);
    expect(result.points.length).toBeLessThanOrEqual(60);
    const values = result.points.map((point) => point.value);
    expect(values).toContain(99);
    expect(values).toContain(1);
    expect(result.points[0]?.order).toBe(1);
    expect(result.points.at(-1)?.order).toBe(2000);
  });

  it("thins candidates of a longer history, counting the whole", () => {
    const candidates = rows.filter((row) => row.order % 10 === 1 || row.value === 99 || row.value === 1);
    const result = toMetricPoints(candidates, 60, 2000);
    expect(result).toMatchObject({ total: 2000, isDownsampled: true });
    expect(result.points.map((point) => point.value)).toEqual(expect.arrayContaining([99, 1]));
    expect(result.points.every((point) => point.order % 10 === 1 || point.value === 99 || point.value === 1)).toBe(
      true,
    );
  });

  it("leaves out values that are not finite", () => {
    const result = toMetricPoints([rows[0]!, { ...rows[1]!, value: Number.NaN }]);
    expect(result.points.map((point) => point.runId)).toEqual(["run-0"]);
    expect(result.total).toBe(1);
  });
});

describe("rangeStart", () => {
  const now = new Date("2026-06-30T12:00:00Z");
  it("goes back the range's days, or nowhere for all", () => {
    expect(rangeStart("30d", now)?.toISOString()).toBe("2026-05-31T12:00:00.000Z");
    expect(rangeStart("90d", now)?.toISOString()).toBe("2026-04-01T12:00:00.000Z");
    expect(rangeStart("1y", now)?.toISOString()).toBe("2025-06-30T12:00:00.000Z");
    expect(rangeStart("all", now)).toBeNull();
  });
});
