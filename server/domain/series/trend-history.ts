/**
 * A whole trend history held in memory (the trend page's history cache, server/services/
 * trend-history-cache.ts), compact: per run, in the history's order (started_at, then run id), the
 * result id, the run id, the start time and the five values run selection reads, in typed arrays. Pure:
 * appending, and choosing the candidates run selection picks from exactly as the database does
 * (server/services/trends/trend-history-sql.ts readTrendCandidates), are tested without a database.
 *
 * Values follow PostgreSQL's float8 semantics, so a candidate chosen here is the one the SQL chooses:
 * null is skipped by min and max, NaN is greater than every number and equal to itself.
 */
import { LATEST_RUNS, PRESELECT_BUCKETS_PER_POINT } from "./trend-series";

/** The values run selection reads, in the order of `HistoryRow.values`. */
export const HISTORY_VALUES = ["p95Ms", "p99Ms", "maxMs", "errorRate", "throughput"] as const;
export type HistoryValue = (typeof HISTORY_VALUES)[number];

/** One run of a history as read (appended). */
export interface HistoryRow {
  id: number;
  runId: string;
  startedAtMs: number;
  values: Record<HistoryValue, number | null>;
}

/** A candidate (or a marked run) as run selection and the markers take it: the shape of the SQL read's rows. */
export interface HistoryCandidate {
  id: number;
  runId: string;
  startedAt: Date;
  p95Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  errorRate: number | null;
  throughput: number | null;
  /** 1-based position in the history. */
  order: number;
  /** False for a marked run read only to place its marker. */
  isCandidate: boolean;
}

/** A history in memory, oldest first; grows in place as runs are appended. */
export class CompactHistory {
  size = 0;
  private ids = new Int32Array(0);
  private runIds: string[] = [];
  private times = new Float64Array(0);
  private values: Float64Array[] = HISTORY_VALUES.map(() => new Float64Array(0));
  /** Bit k set: values[k] is null. */
  private nulls = new Uint8Array(0);

  constructor(rows: readonly HistoryRow[] = []) {
    this.append(rows);
  }

  /** Roughly what the history holds in memory, in bytes (typed arrays, plus ~56 bytes per run id string). */
  get bytes(): number {
    return this.ids.length * (4 + 8 + 8 * HISTORY_VALUES.length + 1 + 8 + 56);
  }

  /** The last run's order key, or null when empty. */
  get last(): { startedAtMs: number; runId: string } | null {
    if (this.size === 0) return null;
    return { startedAtMs: this.times[this.size - 1]!, runId: this.runIds[this.size - 1]! };
  }

  /** Appends rows (sorted, each after the last): the caller checks with `isAfterLast`. */
  append(rows: readonly HistoryRow[]): void {
    if (rows.length === 0) return;
    this.reserve(this.size + rows.length);
    for (const row of rows) {
      const at = this.size++;
      this.ids[at] = row.id;
      this.runIds[at] = row.runId;
      this.times[at] = row.startedAtMs;
      let nullBits = 0;
      HISTORY_VALUES.forEach((name, k) => {
        const value = row.values[name];
        if (value === null) nullBits |= 1 << k;
        this.values[k]![at] = value ?? 0;
      });
      this.nulls[at] = nullBits;
    }
  }

  /**
   * Whether a run starting at `startedAtMs` comes after the history's last run. A run starting at the
   * same millisecond as the last is not taken as after it: the history orders such runs by run id in
   * the database's collation, so the caller reads the history again rather than guess.
   */
  isAfterLast(startedAtMs: number): boolean {
    const last = this.last;
    return last === null || startedAtMs > last.startedAtMs;
  }

  private reserve(capacity: number): void {
    if (capacity <= this.ids.length) return;
    const next = Math.max(capacity, Math.ceil(this.ids.length * 1.5), 64);
    const grow = <A extends Int32Array | Float64Array | Uint8Array>(array: A, make: (length: number) => A): A => {
      const bigger = make(next);
      bigger.set(array);
      return bigger;
    };
    this.ids = grow(this.ids, (length) => new Int32Array(length));
    this.times = grow(this.times, (length) => new Float64Array(length));
    this.values = this.values.map((column) => grow(column, (length) => new Float64Array(length)));
    this.nulls = grow(this.nulls, (length) => new Uint8Array(length));
  }

  private value(k: number, index: number): number | null {
    return (this.nulls[index]! & (1 << k)) !== 0 ? null : this.values[k]![index]!;
  }

  /** The run at `index` (0-based) as a candidate row. */
  private candidate(index: number, isCandidate: boolean): HistoryCandidate {
    return {
      id: this.ids[index]!,
      runId: this.runIds[index]!,
      startedAt: new Date(this.times[index]!),
      p95Ms: this.value(0, index),
      p99Ms: this.value(1, index),
      maxMs: this.value(2, index),
      errorRate: this.value(3, index),
      throughput: this.value(4, index),
      order: index + 1,
      isCandidate,
    };
  }

  /**
   * The candidates run selection chooses from and the marked runs, oldest first, with the history's
   * length: what readTrendCandidates answers for the same history (see there for the choice: every run
   * of a short history, else the first, the latest LATEST_RUNS, each of PRESELECT_BUCKETS_PER_POINT ×
   * maxPoints position buckets' first lowest and highest p95, and the first run of each pinned line's
   * extreme; marked runs and the first run at or after each marked time, flagged as no candidates).
   */
  selectCandidates(maxPoints: number, marked: { runIds: readonly string[]; times: readonly string[] }): { rows: HistoryCandidate[]; total: number } {
    const total = this.size;
    const buckets = PRESELECT_BUCKETS_PER_POINT * maxPoints;
    const isWhole = total <= 2 * buckets;
    const picked = new Uint8Array(total);
    if (!isWhole) {
      // Each bucket's first lowest and first highest p95 ((n - 1) × buckets / total, integer division).
      let bucketStart = 0;
      while (bucketStart < total) {
        const bucket = Math.floor((bucketStart * buckets) / total);
        let end = bucketStart + 1;
        while (end < total && Math.floor((end * buckets) / total) === bucket) end++;
        const low = this.firstExtreme(0, "min", bucketStart, end);
        const high = this.firstExtreme(0, "max", bucketStart, end);
        if (low !== -1) picked[low] = 1;
        if (high !== -1) picked[high] = 1;
        bucketStart = end;
      }
      for (const [k, which] of [[1, "max"], [2, "max"], [3, "max"], [4, "max"], [4, "min"]] as const) {
        const index = this.firstExtreme(k, which, 0, total);
        if (index !== -1) picked[index] = 1;
      }
    }
    const markedRuns = new Set(marked.runIds);
    const markedAfter = new Set<number>();
    for (const time of marked.times) {
      const at = new Date(time).getTime();
      const index = this.firstAtOrAfter(at);
      if (index !== -1) markedAfter.add(index);
    }
    const rows: HistoryCandidate[] = [];
    for (let index = 0; index < total; index++) {
      const isCandidate = isWhole || index === 0 || index + 1 > total - LATEST_RUNS || picked[index] === 1;
      if (isCandidate || markedAfter.has(index) || markedRuns.has(this.runIds[index]!)) rows.push(this.candidate(index, isCandidate));
    }
    return { rows, total };
  }

  /** The first index in [from, to) holding the column's lowest or highest value (PostgreSQL's order), or -1 when all are null. */
  private firstExtreme(k: number, which: "min" | "max", from: number, to: number): number {
    let best = -1;
    let bestValue = 0;
    for (let index = from; index < to; index++) {
      const value = this.value(k, index);
      if (value === null) continue;
      if (best === -1 || compareFloat8(value, bestValue) * (which === "max" ? 1 : -1) > 0) {
        best = index;
        bestValue = value;
      }
    }
    return best;
  }

  /** The first index whose start time is at or after `at` (the times are sorted), or -1. */
  private firstAtOrAfter(at: number): number {
    let low = 0;
    let high = this.size;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.times[middle]! >= at) high = middle;
      else low = middle + 1;
    }
    return low < this.size ? low : -1;
  }
}

/** PostgreSQL's float8 order: NaN above every number (Infinity included), and equal to itself. */
export function compareFloat8(a: number, b: number): number {
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : 1;
  if (Number.isNaN(b)) return -1;
  return a < b ? -1 : a > b ? 1 : 0;
}
