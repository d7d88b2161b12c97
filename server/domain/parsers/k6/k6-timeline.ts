/**
 * k6 `--out json` NDJSON as a timeline: the run cut into one-second windows (Locust's history is one row
 * a second too), each a point of requests/s, failures/s, p50 and p95 of http_req_duration, and for the
 * aggregate the VUs (k6's `vus` gauge, the most seen in the window). k6 writes every sample with its
 * time but no windows of its own, so the windows are Benchtrack's:
 * - Window k covers [origin + k s, origin + (k + 1) s), `origin` being the first point's time (k6 writes
 *   points nearly in time order, so that is the run's start). A point earlier than the origin counts in
 *   window 0, which then starts at the earliest point. The last window ends at the last point; shorter
 *   than half a second, it is folded into the one before, so no rate is taken over a sliver of time.
 *   Each point's `atMs` is its window's end; its rates are its counts over the time it covers.
 * - Requests are http_reqs values (request-duration points where a file has no http_reqs), failures
 *   http_req_failed points ≠ 0: what the run's totals count (k6-ndjson.ts).
 * - Bounded memory: percentiles come from an HDR histogram per window and endpoint (2 significant
 *   digits: HDR's value at the percentile, the highest of its ≤1%-wide bucket, nearest rank), held only
 *   while the window is open: until a point 10 s newer than its end is read (k6 writes a sample within a
 *   second or two of its time). Then p50/p95 are fixed and the histogram goes back to a pool; a window
 *   keeps a few numbers. A duration read after its window closed still counts in its requests; it is
 *   left out of the window's percentiles, and a note says how many were.
 * - The aggregate has a point for every window, 0 requests where none ran; an endpoint has one for each
 *   window it was requested in (its lines bound them, as artillery's endpoint windows). Over
 *   MAX_TIMELINE_POINTS windows, one in every k is kept, by the rule of the other tools' timelines.
 */
import { Int32Histogram } from "hdr-histogram-js";
import { AGGREGATE_NAME, type TimelinePoint } from "../../run";
import { HISTOGRAM_SIGNIFICANT_DIGITS, MAX_RECORDED_LATENCY_MS } from "../../stats/latency-histogram";
import { thinnedTimelineNote, thinningStepOf } from "../timeline";

export const K6_WINDOW_MS = 1_000;
/** A window's histogram is kept until a point this much newer than the window's end is read. */
export const K6_WINDOW_OPEN_MS = 10_000;
/** A last window shorter than this is folded into the one before it. */
const MIN_LAST_WINDOW_MS = 500;
const MICROSECONDS_PER_MS = 1000;

interface Window {
  requests: number;
  durations: number;
  failures: number;
  users: number | null;
  /** While the window is open and has durations. */
  histogram: Int32Histogram | null;
  /** A duration beyond MAX_RECORDED_LATENCY_MS: no percentiles for this window. */
  overflowed: boolean;
  p50Ms: number | null;
  p95Ms: number | null;
}

class Series {
  readonly windows = new Map<number, Window>();
  /** Indexes of the windows whose histogram is still open. */
  readonly open = new Set<number>();
  sawRequests = false;
  sawFailures = false;
  /** The window last used: a request's three points (duration, http_reqs, failed) land in the same one. */
  lastIndex = Number.NaN;
  lastWindow: Window | null = null;
}

export interface K6Timelines {
  aggregate: TimelinePoint[] | null;
  /** By endpoint name (as k6-ndjson.ts names them). */
  endpoints: Map<string, TimelinePoint[]>;
  notes: string[];
}

export class K6TimelineRecorder {
  private originMs: number | null = null;
  private newestMs = Number.NEGATIVE_INFINITY;
  /** Windows below this index are closed: their percentiles are fixed. */
  private closedBelow = 0;
  private readonly aggregate = new Series();
  private readonly endpoints = new Map<string, Series>();
  private readonly pool: Int32Histogram[] = [];
  private lateDurations = 0;

  /** Every point's time, whatever its metric: the clock that closes windows. */
  observe(timeMs: number): void {
    this.originMs ??= timeMs;
    if (timeMs <= this.newestMs) return;
    this.newestMs = timeMs;
    const closeBelow = this.indexOf(timeMs - K6_WINDOW_OPEN_MS);
    if (closeBelow <= this.closedBelow) return;
    this.closedBelow = closeBelow;
    for (const series of [this.aggregate, ...this.endpoints.values()]) {
      for (const index of series.open) if (index < closeBelow) this.close(series, index);
    }
  }

  recordDuration(endpoint: string, timeMs: number, durationMs: number): void {
    const index = this.indexOf(timeMs);
    const isOpen = index >= this.closedBelow;
    if (!isOpen) this.lateDurations++;
    for (const series of this.seriesOf(endpoint)) {
      const window = this.windowAt(series, index);
      window.durations++;
      if (!isOpen) continue;
      if (durationMs > MAX_RECORDED_LATENCY_MS) window.overflowed = true;
      else (window.histogram ??= this.pool.pop() ?? newHistogram()).recordValue(Math.round(durationMs * MICROSECONDS_PER_MS));
    }
  }

  /** An http_reqs point: `count` requests (k6 writes 1). */
  recordRequests(endpoint: string, timeMs: number, count: number): void {
    const index = this.indexOf(timeMs);
    for (const series of this.seriesOf(endpoint)) {
      series.sawRequests = true;
      this.windowAt(series, index).requests += count;
    }
  }

  /** An http_req_failed point: a failed request when `failed`, else a good one. */
  recordFailed(endpoint: string, timeMs: number, failed: boolean): void {
    const index = this.indexOf(timeMs);
    for (const series of this.seriesOf(endpoint)) {
      series.sawFailures = true;
      if (failed) this.windowAt(series, index).failures++;
    }
  }

  /** A `vus` gauge point. */
  recordUsers(timeMs: number, users: number): void {
    const window = this.windowAt(this.aggregate, this.indexOf(timeMs));
    window.users = Math.max(window.users ?? 0, users);
  }

  /** The timelines of a run whose points span firstMs..lastMs; none when that is shorter than a window. */
  finish(firstMs: number, lastMs: number): K6Timelines {
    const none: K6Timelines = { aggregate: null, endpoints: new Map(), notes: [] };
    if (this.originMs === null || !(lastMs - firstMs >= K6_WINDOW_MS)) return none;
    const origin = this.originMs;
    let last = this.indexOf(lastMs);
    const startOf = (index: number): number => (index === 0 ? firstMs : origin + index * K6_WINDOW_MS);
    const endOf = (index: number): number => (index === last ? lastMs : origin + (index + 1) * K6_WINDOW_MS);
    const allSeries = [this.aggregate, ...this.endpoints.values()];
    if (last > 0 && lastMs - startOf(last) < MIN_LAST_WINDOW_MS) {
      for (const series of allSeries) this.fold(series, last, last - 1);
      last--;
    }
    for (const series of allSeries) for (const index of series.open) this.close(series, index);

    const pointOf = (series: Series, index: number): TimelinePoint => {
      const window = series.windows.get(index);
      const seconds = (endOf(index) - startOf(index)) / 1000;
      const requests = (series.sawRequests ? window?.requests : window?.durations) ?? 0;
      return {
        atMs: endOf(index),
        requestsPerSecond: requests / seconds,
        failuresPerSecond: series.sawFailures ? (window?.failures ?? 0) / seconds : null,
        p50Ms: window?.p50Ms ?? null,
        p95Ms: window?.p95Ms ?? null,
        users: window?.users ?? null,
      };
    };
    const notes: string[] = [];
    // Only the kept windows are made (thinTimelines' rule: every step-th and the last), so a file whose
    // points lie years apart stays cheap.
    const count = last + 1;
    const step = thinningStepOf(count);
    const aggregate: TimelinePoint[] = [];
    for (let index = 0; index < count; index += step) aggregate.push(pointOf(this.aggregate, index));
    if ((count - 1) % step !== 0) aggregate.push(pointOf(this.aggregate, count - 1));
    if (step > 1) notes.push(thinnedTimelineNote(AGGREGATE_NAME, count, step, aggregate.length));
    const endpoints = new Map<string, TimelinePoint[]>();
    for (const [name, series] of this.endpoints) {
      const indexes = [...series.windows.keys()].sort((a, b) => a - b);
      if (indexes.length > 0) endpoints.set(name, indexes.map((index) => pointOf(series, index)));
    }
    if (this.lateDurations > 0) {
      notes.push(
        `${this.lateDurations} request duration(s) came more than ${K6_WINDOW_OPEN_MS / 1000} s after later points: ` +
          "counted in their second's requests on the timeline, left out of its p50/p95.",
      );
    }
    return { aggregate, endpoints, notes };
  }

  private indexOf(timeMs: number): number {
    return Math.max(0, Math.floor((timeMs - (this.originMs ?? timeMs)) / K6_WINDOW_MS));
  }

  private seriesOf(endpoint: string): [Series, Series] {
    let series = this.endpoints.get(endpoint);
    if (!series) {
      series = new Series();
      this.endpoints.set(endpoint, series);
    }
    return [this.aggregate, series];
  }

  private windowAt(series: Series, index: number): Window {
    if (index === series.lastIndex && series.lastWindow) return series.lastWindow;
    let window = series.windows.get(index);
    if (!window) {
      window = { requests: 0, durations: 0, failures: 0, users: null, histogram: null, overflowed: false, p50Ms: null, p95Ms: null };
      series.windows.set(index, window);
      if (index >= this.closedBelow) series.open.add(index);
    }
    series.lastIndex = index;
    series.lastWindow = window;
    return window;
  }

  /** Fixes an open window's percentiles and returns its histogram to the pool. */
  private close(series: Series, index: number): void {
    series.open.delete(index);
    const window = series.windows.get(index);
    const histogram = window?.histogram;
    if (!window || !histogram) return;
    if (!window.overflowed && histogram.totalCount > 0) [window.p50Ms, window.p95Ms] = p50AndP95Of(histogram);
    histogram.reset();
    this.pool.push(histogram);
    window.histogram = null;
  }

  /** Moves open window `from` into open window `into` (both are, at the run's end). */
  private fold(series: Series, from: number, into: number): void {
    const source = series.windows.get(from);
    if (!source) return;
    series.windows.delete(from);
    series.open.delete(from);
    series.lastWindow = null;
    const target = this.windowAt(series, into);
    target.requests += source.requests;
    target.durations += source.durations;
    target.failures += source.failures;
    target.overflowed ||= source.overflowed;
    if (source.users !== null) target.users = Math.max(target.users ?? 0, source.users);
    if (source.histogram) {
      if (target.histogram) {
        target.histogram.add(source.histogram);
        source.histogram.reset();
        this.pool.push(source.histogram);
      } else target.histogram = source.histogram;
    }
  }
}

/**
 * p50 and p95 in ms, as HDR's getValueAtPercentile gives them (the highest value equivalent to the
 * nearest-rank sample's), found in one walk of the counts instead of two: a run of 100 endpoints for an
 * hour closes 360,000 windows.
 */
function p50AndP95Of(histogram: Int32Histogram): [number, number] {
  // Nearest rank, ceil(p · n / 100): exact in doubles for whole p and n (p · n is an integer, and a
  // division whose quotient is a whole number is exact).
  const rank50 = Math.max(1, Math.ceil((50 * histogram.totalCount) / 100));
  const rank95 = Math.max(1, Math.ceil((95 * histogram.totalCount) / 100));
  const valueAt = (index: number) => histogram.highestEquivalentValue(histogram.valueFromIndex(index)) / MICROSECONDS_PER_MS;
  let p50 = Number.NaN;
  let seen = 0;
  for (let index = 0; index < histogram.countsArrayLength; index++) {
    seen += histogram.getCountAtIndex(index);
    if (Number.isNaN(p50) && seen >= rank50) p50 = valueAt(index);
    if (seen >= rank95) return [p50, valueAt(index)];
  }
  throw new RangeError("p50AndP95Of: fewer counts than totalCount");
}

function newHistogram(): Int32Histogram {
  const histogram = new Int32Histogram(1, 2, HISTOGRAM_SIGNIFICANT_DIGITS);
  histogram.autoResize = true;
  return histogram;
}
