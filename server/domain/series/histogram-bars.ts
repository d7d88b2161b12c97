import type { HistogramBucket } from "../run";

/**
 * A latency histogram as chart bars: each bar's range and its share of the total. Tools give buckets
 * as ascending upper edges (bucket i covers (upper[i-1], upper[i]]); some give a handful, Locust one
 * per rounded millisecond value, which no chart can draw as is.
 */

/** Above this many buckets (Locust's one-per-rounded-value histograms), buckets merge into equal-width bins. */
export const MAX_HISTOGRAM_BARS = 40;

export interface HistogramBar {
  /** Exclusive lower edge; null for the first bucket, which counts everything up to `upperMs`. */
  lowerMs: number | null;
  upperMs: number;
  count: number;
  /** count / total of the histogram, 0..1. */
  share: number;
}

/**
 * Histogram buckets → chart bars with each bar's range and share. Up to `maxBars` buckets are kept as
 * they are; more are merged into equal-width bins on a 1-2-5 step, empty bins included, so the axis
 * stays linear and readable. Buckets with a non-finite edge or a negative count are ignored.
 */
export function toHistogramBars(buckets: readonly HistogramBucket[], maxBars = MAX_HISTOGRAM_BARS): HistogramBar[] {
  const valid = buckets
    .filter((bucket) => Number.isFinite(bucket.upperMs) && Number.isFinite(bucket.count) && bucket.count >= 0)
    .slice()
    .sort((a, b) => a.upperMs - b.upperMs);
  const total = valid.reduce((sum, bucket) => sum + bucket.count, 0);
  if (valid.length === 0 || total === 0) return [];

  if (valid.length <= maxBars) {
    return valid.map((bucket, index) => ({
      lowerMs: index === 0 ? null : (valid[index - 1]?.upperMs ?? null),
      upperMs: bucket.upperMs,
      count: bucket.count,
      share: bucket.count / total,
    }));
  }

  const min = valid[0]?.upperMs ?? 0;
  const max = valid[valid.length - 1]?.upperMs ?? 0;
  const width = niceStep((max - min) / maxBars);
  const start = Math.floor(min / width) * width;
  const binCount = Math.max(1, Math.ceil((max - start) / width));
  const counts = new Array<number>(binCount).fill(0);
  for (const bucket of valid) {
    const index = Math.min(binCount - 1, Math.max(0, Math.ceil((bucket.upperMs - start) / width) - 1));
    counts[index] = (counts[index] ?? 0) + bucket.count;
  }
  return counts.map((count, index) => ({
    lowerMs: roundEdge(start + index * width),
    upperMs: roundEdge(start + (index + 1) * width),
    count,
    share: count / total,
  }));
}

/** The smallest 1, 2 or 5 × 10^n at least `raw` (a positive width; 1 when there is no spread). */
export function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  for (const factor of [1, 2, 5, 10]) {
    if (factor * magnitude >= raw * (1 - 1e-12)) return factor * magnitude;
  }
  return 10 * magnitude;
}

/** Undo floating-point noise from repeated additions (0.30000000000000004 → 0.3). */
function roundEdge(value: number): number {
  return Number(value.toPrecision(12));
}
