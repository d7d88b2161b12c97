import { describe, expect, it } from "vitest";
import { CompactHistory, compareFloat8 } from "./trend-history";
import type { HistoryRow } from "./trend-history";
import { LATEST_RUNS, PRESELECT_BUCKETS_PER_POINT } from "./trend-series";

const T0 = Date.UTC(2026, 0, 1);
const NONE = { runIds: [], times: [] };

function row(index: number, p95Ms: number | null, extra: Partial<HistoryRow["values"]> = {}): HistoryRow {
  return {
    id: 1000 + index,
    runId: `run-${index}`,
    startedAtMs: T0 + index * 60_000,
    values: { p95Ms, p99Ms: null, maxMs: null, errorRate: null, throughput: null, ...extra },
  };
}

describe("CompactHistory", () => {
  it("keeps rows and their nulls as appended, growing past its first capacity", () => {
    const history = new CompactHistory([row(0, 5)]);
    history.append(Array.from({ length: 199 }, (_, k) => row(k + 1, k % 2 === 0 ? null : k, { throughput: k })));
    expect(history.size).toBe(200);
    const { rows, total } = history.selectCandidates(100, NONE);
    expect(total).toBe(200);
    expect(rows).toHaveLength(200);
    expect(rows[1]).toEqual({
      id: 1001,
      runId: "run-1",
      startedAt: new Date(T0 + 60_000),
      p95Ms: null,
      p99Ms: null,
      maxMs: null,
      errorRate: null,
      throughput: 0,
      order: 2,
      isCandidate: true,
    });
    expect(rows[2]?.p95Ms).toBe(1);
  });

  it("takes a run as after the last only when it starts later (a tie's order is the database's)", () => {
    const history = new CompactHistory([row(0, 1), row(1, 1)]);
    expect(history.isAfterLast(T0 + 60_001)).toBe(true);
    expect(history.isAfterLast(T0 + 60_000)).toBe(false);
    expect(new CompactHistory().isAfterLast(0)).toBe(true);
  });

  it("preselects a long history as the SQL does: first, latest, each bucket's first lowest and highest p95, pinned extremes", () => {
    const maxPoints = 10;
    const buckets = PRESELECT_BUCKETS_PER_POINT * maxPoints; // 20 buckets of 5 runs over 100 runs
    const rows = Array.from({ length: 100 }, (_, index) => row(index, 50, { p99Ms: index === 42 ? 99 : 1, throughput: 10 }));
    // Bucket 3 (runs 15..19): lowest p95 twice (the first is picked), highest is NaN (above every number).
    rows[16]!.values.p95Ms = 1;
    rows[18]!.values.p95Ms = 1;
    rows[17]!.values.p95Ms = Number.NaN;
    // Bucket 5 (runs 25..29): all null: no pick.
    for (let index = 25; index < 30; index++) rows[index]!.values.p95Ms = null;
    const { rows: candidates, total } = new CompactHistory(rows).selectCandidates(maxPoints, NONE);
    expect(total).toBe(100);
    const picked = candidates.map((candidate) => candidate.order - 1);
    // Equal p95 elsewhere: each bucket's first run is both its lowest and highest.
    const bucketFirsts = Array.from({ length: buckets }, (_, bucket) => bucket * 5).filter((index) => index !== 15 && index !== 25);
    const latest = Array.from({ length: LATEST_RUNS }, (_, k) => 100 - LATEST_RUNS + k);
    expect(picked).toEqual([...new Set([...bucketFirsts, 16, 17, 42, ...latest])].sort((a, b) => a - b));
    expect(candidates.every((candidate) => candidate.isCandidate)).toBe(true);
  });

  it("adds the marked runs and the first run at or after each marked time, flagged as no candidates", () => {
    const rows = Array.from({ length: 100 }, (_, index) => row(index, 50));
    const { rows: candidates } = new CompactHistory(rows).selectCandidates(10, {
      runIds: ["run-33"],
      times: [new Date(T0 + 41.5 * 60_000).toISOString(), new Date(T0 + 1000 * 60_000).toISOString()],
    });
    expect(candidates.filter((candidate) => !candidate.isCandidate).map((candidate) => candidate.runId)).toEqual(["run-33", "run-42"]);
  });
});

describe("compareFloat8", () => {
  it("orders as PostgreSQL: NaN above Infinity, and equal to itself", () => {
    const values = [Number.NaN, 3, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1];
    expect([...values].sort(compareFloat8)).toEqual([Number.NEGATIVE_INFINITY, -1, 3, Number.POSITIVE_INFINITY, Number.NaN]);
    expect(compareFloat8(Number.NaN, Number.NaN)).toBe(0);
  });
});
