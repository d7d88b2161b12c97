/**
 * Percentiles of several runs pooled together, from their latency histograms.
 *
 * Why: percentiles do not average (the mean of five p95s is not the p95 of the five runs together),
 * but histogram counts add. Merge the histograms, then read the percentile from the merged one.
 *
 * Buckets follow `HistogramBucket`: ascending `upperMs`, bucket i covers (upperMs[i−1], upperMs[i]],
 * and the first bucket starts at `lowerMs` (0 ms by default). Runs with different bucket edges are
 * merged on the union of all edges; a source bucket's count is spread over the merged buckets it
 * covers in proportion to their width — the same "uniform within a bucket" assumption the reading
 * step makes, so merging never adds information it does not have.
 *
 * Reading p: the target rank is p/100 · total count; inside the bucket where the cumulative count
 * reaches it, interpolate linearly between the bucket's lower and upper edge (as Prometheus'
 * `histogram_quantile` and HdrHistogram's linear-bucket readings do). The error is at most one bucket
 * width. A percentile that falls in an open-ended bucket (upperMs = +∞) is insufficient data: we only
 * know it is above the last finite edge.
 */
import type { HistogramBucket } from "../run";
import { insufficientData, type InsufficientData } from "./insufficient";

export interface PooledPercentile {
  readonly status: "ok";
  readonly valueMs: number;
  /** The merged bucket the percentile fell in: the reading is exact to within its width. */
  readonly bucket: { readonly lowerMs: number; readonly upperMs: number };
  readonly totalCount: number;
}

export type PooledPercentileResult = PooledPercentile | InsufficientData;

export interface HistogramOptions {
  /** Lower edge of every histogram's first bucket. Latency cannot be negative, so 0 ms. */
  readonly lowerMs?: number;
}

/**
 * Pools histograms of differing edges: sums them on the union of their bucket edges, spreading each
 * source bucket over the merged buckets it covers (empty merged buckets included, so each bucket's
 * lower edge is the previous bucket's upper edge). An open-ended source bucket (upperMs = +∞) stays
 * open-ended: its whole count goes to the merged +∞ bucket.
 */
export function poolHistograms(
  histograms: readonly (readonly HistogramBucket[])[],
  options: HistogramOptions = {},
): HistogramBucket[] {
  const lowerMs = options.lowerMs ?? 0;
  histograms.forEach((histogram, index) => validateHistogram(histogram, index, lowerMs));
  const edges = [...new Set(histograms.flatMap((histogram) => histogram.map((bucket) => bucket.upperMs)))].sort(
    (a, b) => a - b,
  );
  const merged = edges.map((upperMs) => ({ upperMs, count: 0 }));
  for (const histogram of histograms) {
    let sourceLower = lowerMs;
    // The merged buckets are walked once per histogram: its buckets ascend, so each one's first merged
    // bucket is at or after the one before's last (a walk over all of them per bucket was quadratic).
    let from = 0;
    for (const bucket of histogram) {
      from = spreadCount(bucket.count, sourceLower, bucket.upperMs, merged, lowerMs, from);
      sourceLower = bucket.upperMs;
    }
  }
  return merged;
}

/** Reads the p-th percentile (0 ≤ p ≤ 100) of the runs' histograms pooled together. */
export function readPooledPercentile(
  histograms: readonly (readonly HistogramBucket[])[],
  percentile: number,
  options: HistogramOptions = {},
): PooledPercentileResult {
  if (!(percentile >= 0 && percentile <= 100)) throw new RangeError(`percentile ${percentile} is not in [0, 100]`);
  const merged = poolHistograms(histograms, options);
  const totalCount = merged.reduce((sum, bucket) => sum + bucket.count, 0);
  if (totalCount === 0) return insufficientData("insufficient data: the histograms hold no samples");

  const targetRank = (percentile / 100) * totalCount;
  let countBelow = 0;
  let bucketLower = options.lowerMs ?? 0;
  for (const bucket of merged) {
    // Empty buckets are skipped so p0 reads the lower edge of the first bucket that holds samples.
    if (bucket.count > 0 && countBelow + bucket.count >= targetRank) {
      if (bucket.upperMs === Number.POSITIVE_INFINITY) {
        return insufficientData(
          `p${percentile} falls in the open-ended bucket above ${bucketLower} ms; only a lower bound is known`,
        );
      }
      const fraction = Math.min(1, Math.max(0, (targetRank - countBelow) / bucket.count));
      return {
        status: "ok",
        valueMs: bucketLower + fraction * (bucket.upperMs - bucketLower),
        bucket: { lowerMs: bucketLower, upperMs: bucket.upperMs },
        totalCount,
      };
    }
    countBelow += bucket.count;
    bucketLower = bucket.upperMs;
  }
  // Unreachable: the last non-empty bucket always reaches targetRank ≤ totalCount.
  return insufficientData("insufficient data: the histograms hold no samples");
}

/**
 * Adds a source bucket (lower, upper] to the merged buckets it covers, in proportion to their width,
 * looking from merged bucket `from` on (none before it reaches above `lower`); answers where the next
 * source bucket, which starts at `upper`, begins to look.
 */
function spreadCount(count: number, lower: number, upper: number, merged: HistogramBucket[], lowerMs: number, from: number): number {
  const width = upper - lower;
  let index = from;
  while (index < merged.length && merged[index]!.upperMs < lower) index += 1;
  if (width === 0) {
    // A zero-width bucket (an exact value): everything lands on its upper edge.
    if (index < merged.length && merged[index]!.upperMs === upper) merged[index]!.count += count;
    return index;
  }
  for (; index < merged.length && merged[index]!.upperMs <= upper; index += 1) {
    const target = merged[index]!;
    if (target.upperMs <= lower) continue;
    if (upper === Number.POSITIVE_INFINITY) {
      // An open-ended bucket: everything lands on the merged +∞ bucket.
      if (target.upperMs === upper) target.count += count;
    } else {
      const mergedLower = index === 0 ? lowerMs : merged[index - 1]!.upperMs;
      target.count += (count * (target.upperMs - Math.max(mergedLower, lower))) / width;
    }
  }
  // The merged bucket whose upper edge is `upper` (every source edge is a merged edge).
  return Math.max(from, index - 1);
}

/**
 * Whether a histogram is one `poolHistograms` takes (finite counts ≥ 0, upper edges ascending from
 * `lowerMs`, each once): runs stored before uploads were checked for it may hold one that is not, and
 * their readers leave it out instead of failing.
 */
export function isPoolableHistogram(histogram: readonly HistogramBucket[], lowerMs = 0): boolean {
  return histogramProblem(histogram, 0, lowerMs) === null;
}

function validateHistogram(histogram: readonly HistogramBucket[], index: number, lowerMs: number): void {
  const problem = histogramProblem(histogram, index, lowerMs);
  if (problem !== null) throw new RangeError(problem);
}

/** What makes `histogram` (the `index`-th) one that cannot be pooled, or null. */
function histogramProblem(histogram: readonly HistogramBucket[], index: number, lowerMs: number): string | null {
  let previousUpper = lowerMs;
  for (const [bucketIndex, bucket] of histogram.entries()) {
    if (!(bucket.count >= 0) || !Number.isFinite(bucket.count)) return `histograms[${index}][${bucketIndex}].count must be a finite count ≥ 0`;
    if (Number.isNaN(bucket.upperMs) || bucket.upperMs < previousUpper || (bucketIndex > 0 && bucket.upperMs === previousUpper)) {
      return `histograms[${index}][${bucketIndex}].upperMs must be ascending and ≥ ${lowerMs}`;
    }
    previousUpper = bucket.upperMs;
  }
  return null;
}
