/**
 * A run's latency histogram built from its per-request samples (k6 NDJSON points, hey and ghz CSV rows,
 * ghz `details[]`, JMeter JTL samples), so runs can later be compared as distributions and pooled across
 * rounds exactly.
 *
 * Why HDR (HdrHistogram, via hdr-histogram-js): its buckets are log-spaced with a fixed relative width
 * (2 significant digits: every bucket is at most 1% wide), and the edges depend only on that setting,
 * never on the data. Two runs' histograms therefore share their edges, so adding them bucket by bucket
 * (`pooled-percentile.ts:poolHistograms`) loses nothing: the pooled histogram is the one the pooled
 * samples would have made. Reference: Gil Tene, HdrHistogram (http://hdrhistogram.org).
 *
 * Samples are recorded in whole microseconds (the tools write at most µs precision). A bucket is stored
 * as `{upperMs, count}` (HistogramBucket: it covers (previous upperMs, upperMs]); where HDR buckets were
 * empty between two recorded ones, an empty bucket marks the gap, so every stored bucket spans exactly
 * one HDR bucket or an empty stretch and the edges stay exact.
 */
import { Int32Histogram } from "hdr-histogram-js";
import type { HistogramBucket } from "../run";

/** HdrHistogram's precision: 2 significant digits, buckets at most 1% wide. Changing it changes every edge. */
export const HISTOGRAM_SIGNIFICANT_DIGITS = 2;

const MICROSECONDS_PER_MS = 1000;

/**
 * The longest latency recorded: 10^9 ms, 11.6 days. HdrHistogram's buckets stop working far beyond
 * (the library fails from about 10^13 ms); anything this long is no request's latency, so a recorder
 * that saw one gives no histogram at all rather than a wrong one.
 */
export const MAX_RECORDED_LATENCY_MS = 1e9;

export class LatencyRecorder {
  private readonly histogram = new Int32Histogram(1, 2, HISTOGRAM_SIGNIFICANT_DIGITS);
  private hasOverflowed = false;

  /**
   * `ticksPerMs`: the unit values are recorded in, 1000 (µs, requests) by default; a microbenchmark's
   * time per operation is recorded in ns (1e6), as it can be a few ns.
   */
  constructor(private readonly ticksPerMs: number = MICROSECONDS_PER_MS) {
    // Grows to the largest value recorded: no latency is ever clipped.
    this.histogram.autoResize = true;
  }

  /** Records one latency in ms; negative or non-finite values are the caller's bug, not data. */
  record(latencyMs: number): void {
    this.recordCount(latencyMs, 1);
  }

  /**
   * Records `count` latencies of `latencyMs` at once: a tool's own histogram of (value, count) pairs
   * (JMH's sample mode keeps a million samples as a few hundred pairs). The caller keeps the total
   * within 2^31 − 1 (the bucket counts are 32-bit).
   */
  recordCount(latencyMs: number, count: number): void {
    if (!(latencyMs >= 0) || !Number.isFinite(latencyMs))
      throw new RangeError(`LatencyRecorder: invalid latency ${latencyMs}`);
    if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`LatencyRecorder: invalid count ${count}`);
    if (count === 0) return;
    if (latencyMs > MAX_RECORDED_LATENCY_MS) this.hasOverflowed = true;
    else this.histogram.recordValueWithCount(Math.round(latencyMs * this.ticksPerMs), count);
  }

  get count(): number {
    return this.histogram.totalCount;
  }

  /** The recorded distribution as ascending buckets; null when nothing was recorded or a latency was beyond MAX_RECORDED_LATENCY_MS. */
  buckets(): HistogramBucket[] | null {
    if (this.hasOverflowed || this.histogram.totalCount === 0) return null;
    const buckets: HistogramBucket[] = [];
    const histogram = this.histogram;
    let previousUpper: number | null = null;
    // The counts array read index by index (the library's recordedValuesIterator walks the same buckets
    // with an object per step: 1.3 ms a histogram, 7 s for a file of 5,000 benchmarks).
    for (let index = 0; index < histogram.countsArrayLength; index++) {
      const count = histogram.getCountAtIndex(index);
      if (count === 0) continue;
      const value = histogram.valueFromIndex(index);
      const lowest = histogram.lowestEquivalentValue(value);
      const highest = histogram.highestEquivalentValue(value);
      // An empty stretch between two recorded buckets keeps its own (empty) bucket.
      if (lowest > 0 && previousUpper !== null && lowest - 1 > previousUpper)
        buckets.push({ upperMs: (lowest - 1) / this.ticksPerMs, count: 0 });
      if (lowest > 0 && previousUpper === null && lowest - 1 > 0) buckets.push({ upperMs: (lowest - 1) / this.ticksPerMs, count: 0 });
      buckets.push({ upperMs: highest / this.ticksPerMs, count });
      previousUpper = highest;
    }
    return buckets;
  }
}

/** The HDR histogram of some latencies (ms); null when there are none (or one beyond MAX_RECORDED_LATENCY_MS). */
export function latencyHistogramOf(samplesMs: Iterable<number>, ticksPerMs?: number): HistogramBucket[] | null {
  const recorder = new LatencyRecorder(ticksPerMs);
  for (const sample of samplesMs) recorder.record(sample);
  return recorder.buckets();
}

/** The HDR histogram of latencies given as (ms, count) pairs, as a tool counted them; null as above. */
export function latencyHistogramOfCounts(
  counts: Iterable<readonly [latencyMs: number, count: number]>,
  ticksPerMs?: number,
): HistogramBucket[] | null {
  const recorder = new LatencyRecorder(ticksPerMs);
  for (const [latencyMs, count] of counts) recorder.recordCount(latencyMs, count);
  return recorder.buckets();
}
