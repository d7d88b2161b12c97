/**
 * Shaping an endpoint's (or the run aggregate's) history into what the trend charts draw. Pure: rows in,
 * plain data out, so the choice of runs and the chart series are tested without a database or a browser.
 *
 * Downsampling choice (documented here because the page's honesty depends on it): a trend chart is
 * about 600 px wide, so a history longer than `maxPoints` runs is thinned on the server to whole runs,
 * never averaged. Runs are picked by LTTB (Largest-Triangle-Three-Buckets, see ./downsample) on p95
 * latency against time: it keeps the first and last runs and the visual shape (steps, peaks, dips) of
 * the headline percentile. LTTB looks at one series only, so on top of it we PIN the runs that hold the
 * history's extremes of the other lines people read — the highest and lowest p95, the highest p99 and
 * max, the highest error rate and the lowest and highest throughput — so the worst spike or error burst
 * is never thinned away. LTTB's budget is reduced by the pinned runs, so the total stays ≤ maxPoints.
 * Whole rows of the chosen runs are kept, so every line (p50…max, throughput, error rate) shares the
 * same points and the same hover. Min/max buckets (downsampleMinMax) would keep every bucket's extreme
 * of ONE series but up to two runs per bucket, and other lines' extremes would still be lost: LTTB plus
 * pinned extremes gives the same guarantee for every line at a fixed, predictable count.
 *
 * A history of years (tens of thousands of runs) is not read whole: the database first preselects
 * candidates, each of PRESELECT_BUCKETS_PER_POINT × maxPoints buckets' lowest and highest p95 plus the
 * pinned extremes and the first and last runs, and LTTB runs on those (MinMaxLTTB: Van Der Donckt et al.,
 * "MinMaxLTTB: Leveraging MinMax-Preselection to Scale LTTB", 2023, which finds 4 candidates per output
 * point enough for LTTB to pick practically what it picks from the whole). selectFromCandidates takes
 * them with their positions in the whole history.
 */
import { METRICS } from "../metrics";
import type { BuiltInMetricName, ResultColumn } from "../metrics";
import { downsampleLttb } from "./downsample";
import { toRunPoint } from "./run-point";
import type { RunPoint, TrendRunInfo } from "./run-point";

/** The latency lines a trend chart can draw, in legend order. */
export const TREND_LINES = ["p50", "p90", "p95", "p99", "mean", "max"] as const satisfies readonly BuiltInMetricName[];
export type TrendLine = (typeof TREND_LINES)[number];
/** Shown unless the URL says otherwise; mean and max are optional extras. */
export const DEFAULT_TREND_LINES: readonly TrendLine[] = ["p50", "p90", "p95", "p99"];

/** A trend point's field that a latency line can draw: a stored results column the point carries. */
export type TrendLineField = Extract<ResultColumn, keyof TrendValues>;

/** The field of a trend point a latency line reads: its metric's results column in the registry. */
function trendLineField(line: TrendLine): TrendLineField {
  const { column } = METRICS[line];
  // Every trend line is a latency metric with its own column; "minMs" is stored but not charted.
  if (column === null || column === "minMs") throw new Error(`trend line "${line}" has no charted results column`);
  return column;
}

/** The field of a trend point each latency line reads ("p95" → "p95Ms"), from the metric registry. */
export const TREND_LINE_FIELD: Readonly<Record<TrendLine, TrendLineField>> = Object.fromEntries(
  TREND_LINES.map((line) => [line, trendLineField(line)]),
) as Record<TrendLine, TrendLineField>;

export type TrendXMode = "time" | "order";

/** The most runs a trend chart draws: about one per 3 px of the widest chart; LTTB keeps the shape, and fewer points keep the page light (measured by npm run bench -- --pages). */
export const DEFAULT_MAX_POINTS = 300;
/**
 * Buckets of the database's min/max preselection per drawn point (two candidates each: 4 per point).
 * A history of at most PRESELECT_BUCKETS_PER_POINT × 2 × maxPoints runs is read whole.
 */
export const PRESELECT_BUCKETS_PER_POINT = 2;
/** How many of the latest runs the trend page's table lists; each is always a candidate of a long history. */
export const LATEST_RUNS = 20;
/** A trend needs two runs; one run is shown as values, never as a one-point chart. */
export const MIN_TREND_RUNS = 2;

/** One run's numbers for the endpoint; null where the tool gave none (never 0). */
export interface TrendValues {
  p50Ms: number | null;
  p90Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  meanMs: number | null;
  maxMs: number | null;
  /** Requests per second. */
  throughput: number | null;
  /** failures / requests, 0..1. */
  errorRate: number | null;
}

export type TrendRow = TrendRunInfo & TrendValues;

/** The columns run selection looks at (the narrow first read of a long history). */
export type SelectableTrendRow = Pick<TrendRow, "startedAt" | "p95Ms" | "p99Ms" | "maxMs" | "errorRate" | "throughput">;

export interface Selection<R> {
  /** The kept rows, oldest first, each with its 1-based position in the whole (filtered) history. */
  kept: { row: R; order: number }[];
  /** How many rows the history has (M in "showing N of M"). */
  total: number;
  isDownsampled: boolean;
}

/**
 * Picks at most `maxPoints` runs of a history sorted oldest first (see the module comment for why
 * LTTB on p95 plus pinned extremes). Returns the input's own row objects.
 *
 * @param maxPoints an integer ≥ 10 (room for LTTB's first and last plus the pinned extremes).
 */
export function selectTrendRuns<R extends SelectableTrendRow>(
  rows: readonly R[],
  maxPoints = DEFAULT_MAX_POINTS,
): Selection<R> {
  return selectFromCandidates(
    rows.map((row, index) => ({ row, order: index + 1 })),
    rows.length,
    maxPoints,
  );
}

/**
 * The same choice among candidates of a longer history (see the module comment): `candidates` oldest
 * first, each with its 1-based position in the whole history of `total` runs. Every candidate is kept
 * when the history is no longer than maxPoints.
 */
export function selectFromCandidates<R extends SelectableTrendRow>(
  candidates: readonly { row: R; order: number }[],
  total: number,
  maxPoints = DEFAULT_MAX_POINTS,
): Selection<R> {
  assertMaxPoints(maxPoints);
  if (total <= maxPoints) return { kept: [...candidates], total, isDownsampled: false };
  const rows = candidates.map((candidate) => candidate.row);

  const pinned = new Set<number>(
    [
      indexOfExtreme(rows, (row) => row.p95Ms, "max"),
      indexOfExtreme(rows, (row) => row.p95Ms, "min"),
      indexOfExtreme(rows, (row) => row.p99Ms, "max"),
      indexOfExtreme(rows, (row) => row.maxMs, "max"),
      indexOfExtreme(rows, (row) => row.errorRate, "max"),
      indexOfExtreme(rows, (row) => row.throughput, "min"),
      indexOfExtreme(rows, (row) => row.throughput, "max"),
    ].filter((index) => index !== -1),
  );

  const points = rows.map((row, index) => ({ x: row.startedAt.getTime(), y: row.p95Ms, index }));
  const chosen = new Set(pinned);
  for (const point of downsampleLttb(points, maxPoints - pinned.size)) chosen.add(point.index);

  const kept = [...chosen].sort((a, b) => a - b).map((index) => candidates[index]!);
  return { kept, total, isDownsampled: true };
}

/** The index of the highest (or lowest) non-null value, first of equals; -1 when all are null. */
function indexOfExtreme<R>(rows: readonly R[], value: (row: R) => number | null, which: "min" | "max"): number {
  let best = -1;
  let bestValue = 0;
  rows.forEach((row, index) => {
    const current = value(row);
    if (current === null || !Number.isFinite(current)) return;
    if (best === -1 || (which === "max" ? current > bestValue : current < bestValue)) {
      best = index;
      bestValue = current;
    }
  });
  return best;
}

function assertMaxPoints(maxPoints: number): void {
  if (!Number.isInteger(maxPoints) || maxPoints < 10) {
    throw new RangeError(`maxPoints must be an integer ≥ 10, got ${maxPoints}`);
  }
}

/** One drawn run: where it stands on both x axes (the URL picks one), what its tooltip says, and its values. */
export type TrendPoint = RunPoint & TrendValues;

/** Kept rows → the points the latency, throughput and error-rate charts share. */
export function toTrendPoints(kept: readonly { row: TrendRow; order: number }[]): TrendPoint[] {
  return kept.map(({ row, order }) => ({
    ...toRunPoint(row, order),
    p50Ms: finiteOrNull(row.p50Ms),
    p90Ms: finiteOrNull(row.p90Ms),
    p95Ms: finiteOrNull(row.p95Ms),
    p99Ms: finiteOrNull(row.p99Ms),
    meanMs: finiteOrNull(row.meanMs),
    maxMs: finiteOrNull(row.maxMs),
    throughput: finiteOrNull(row.throughput),
    errorRate: finiteOrNull(row.errorRate),
  }));
}

function finiteOrNull(value: number | null): number | null {
  return value !== null && Number.isFinite(value) ? value : null;
}

/** A point placed on the chart's x axis: `x` is the start time (epoch ms) or the run number. */
export type TrendSeriesPoint<P extends { time: number; order: number } = TrendPoint> = P & { x: number };

/** What placing a point needs: where it stands on both axes, and its commit (rounds of one commit are spread). */
export type PlaceablePoint = Pick<RunPoint, "time" | "order"> & Partial<Pick<RunPoint, "commitShort" | "branch">>;

/**
 * Points → the series a chart draws for the x mode in the URL. Missing values stay null (the chart
 * skips them; a missing p99 is never drawn as 0). Sorted by x so a line never doubles back. In time mode
 * the runs of one commit are spread in run order (`spreadCommitRounds`).
 */
export function toTrendSeries<P extends PlaceablePoint>(points: readonly P[], mode: TrendXMode): TrendSeriesPoint<P>[] {
  const xs = xPositions(points, mode);
  return points.map((point, i) => ({ ...point, x: xs[i]! })).sort(byX);
}

/** Each point's x in the URL's mode (in the points' order): its run number, or its time spread by commit. */
export function xPositions(points: readonly PlaceablePoint[], mode: TrendXMode, span = timeSpan(points)): number[] {
  if (mode === "order") return points.map((point) => point.order);
  const byTime = points.map((point, index) => ({ point, index })).sort((a, b) => a.point.time - b.point.time || a.point.order - b.point.order);
  const spread = spreadCommitRounds(byTime.map(({ point }) => point), span);
  const xs = new Array<number>(points.length);
  byTime.forEach(({ index }, k) => (xs[index] = spread[k]!));
  return xs;
}

/** From the first run's start to the last's (epoch ms): the time axis's span. */
export function timeSpan(points: readonly Pick<RunPoint, "time">[]): number {
  if (points.length === 0) return 0;
  const times = points.map((point) => point.time);
  return Math.max(...times) - Math.min(...times);
}

/** In time mode, one run of a commit is drawn at most this fraction of the axis's span right of the one before it (1% ≈ 13 px on a wide chart). */
export const ROUND_STEP_FRACTION = 0.01;

/**
 * Time-mode x of one line's runs (sorted by start time): runs of one commit on one branch that follow one
 * another (its rounds, and its other runs until the next commit is measured) are spread in run order over
 * the commit's slot, from its first run to the next commit's first run (for the line's last commit, as
 * far as the steps need): x_k = max(t_k, t_first + k · step), step = min(ROUND_STEP_FRACTION · span,
 * slot / m) for m runs. Why: rounds uploaded minutes apart would stack on one x on an axis of weeks; spread,
 * each is a point of its own. A run never passes the next commit's first run, the runs keep their order,
 * a run already far enough right keeps its time, and a run without a commit is never moved; the tooltip
 * still gives each run's own start time, commit and round.
 */
export function spreadCommitRounds(points: readonly PlaceablePoint[], span: number): number[] {
  const xs = points.map((point) => point.time);
  const maxStep = ROUND_STEP_FRACTION * Math.max(0, span);
  let first = 0;
  while (first < points.length) {
    const commit = points[first]!.commitShort ?? null;
    let end = first + 1;
    while (
      commit !== null &&
      end < points.length &&
      points[end]!.commitShort === commit &&
      (points[end]!.branch ?? null) === (points[first]!.branch ?? null)
    ) {
      end++;
    }
    const count = end - first;
    if (count > 1) {
      const start = points[first]!.time;
      const slot = end < points.length ? points[end]!.time - start : Number.POSITIVE_INFINITY;
      const step = Math.min(maxStep, slot / count);
      for (let k = 1; k < count; k++) xs[first + k] = Math.max(points[first + k]!.time, start + k * step);
    }
    first = end;
  }
  return xs;
}

/** A point's x by its start time (epoch ms) or its run number, unspread: where a marker between runs stands. */
export function xOf(point: Pick<RunPoint, "time" | "order">, mode: TrendXMode): number {
  return mode === "time" ? point.time : point.order;
}

/** Chart order: by x, then by run number, so a line never doubles back and equal times keep the run order. */
export function byX(a: { x: number; order: number }, b: { x: number; order: number }): number {
  return a.x - b.x || a.order - b.order;
}

/** The latency lines with at least one value in `points`: the others get no toggle and no line. */
export function availableTrendLines(points: readonly TrendValues[]): TrendLine[] {
  return TREND_LINES.filter((line) => points.some((point) => point[TREND_LINE_FIELD[line]] !== null));
}

/** Whether any point has a value of `field` (a throughput or error-rate chart of nothing is not drawn). */
export function hasValues<P>(points: readonly P[], value: (point: P) => number | null): boolean {
  return points.some((point) => value(point) !== null);
}

/** A custom metric's stored row (CPU %, memory MB, messages/s) of one run, with the run's position in the endpoint's history. */
export interface MetricRow {
  runId: string;
  startedAt: Date;
  value: number;
  /** The run's 1-based position in the endpoint's filtered history (the latency chart's run order). */
  order: number;
}

/** A custom metric's value at a run, placed on both x axes; the service adds the rest of the run's point. */
export type MetricPoint = Pick<RunPoint, "runId" | "time" | "order"> & { value: number };

/** A custom metric's point as its chart draws it. */
export type MetricTrendPoint = RunPoint & { value: number };

/**
 * A custom metric's history (oldest first; all of it, or the database's min/max candidates of a
 * longer one, with `total` its length) → at most `maxPoints` points by LTTB on its value, keeping the
 * first, last, lowest and highest. Each row carries its run's position in the endpoint's history, so
 * the metric charts' run-order axis matches the latency chart's. Non-finite values are left out.
 */
export function toMetricPoints(
  rows: readonly MetricRow[],
  maxPoints = DEFAULT_MAX_POINTS,
  total?: number,
): { points: MetricPoint[]; total: number; isDownsampled: boolean } {
  assertMaxPoints(maxPoints);
  const all: MetricPoint[] = [];
  for (const row of rows) {
    if (!Number.isFinite(row.value)) continue;
    all.push({ runId: row.runId, time: row.startedAt.getTime(), order: row.order, value: row.value });
  }
  const count = total ?? all.length;
  if (count <= maxPoints) return { points: all, total: count, isDownsampled: false };

  const pinned = new Set<number>([
    indexOfExtreme(all, (point) => point.value, "min"),
    indexOfExtreme(all, (point) => point.value, "max"),
  ]);
  const chosen = new Set(pinned);
  const lttb = downsampleLttb(
    all.map((point, index) => ({ x: point.time, y: point.value, index })),
    maxPoints - pinned.size,
  );
  for (const point of lttb) chosen.add(point.index);
  const points = [...chosen].sort((a, b) => a - b).map((index) => all[index] as MetricPoint);
  return { points, total: count, isDownsampled: true };
}

/** The trend page's time ranges (`?range=`); "all" is the default. */
export const TREND_RANGES = ["30d", "90d", "1y", "all"] as const;
export type TrendRange = (typeof TREND_RANGES)[number];

const RANGE_DAYS: Record<Exclude<TrendRange, "all">, number> = { "30d": 30, "90d": 90, "1y": 365 };

/** The earliest start time a range includes, or null for the whole history. */
export function rangeStart(range: TrendRange, now: Date): Date | null {
  if (range === "all") return null;
  return new Date(now.getTime() - RANGE_DAYS[range] * 86_400_000);
}
