/**
 * Percentiles from Locust's `response_times` histogram, computed exactly as Locust computes the
 * percentile columns of `*_stats.csv` (locust/stats.py, `calculate_response_time_percentile`), so a
 * value from `--json` and from `--csv` of the same data agree.
 *
 * Locust rounds each response time before counting it (to 1 ms under 100 ms, 10 ms under 1 s, 100 ms
 * under 10 s, then 1 s), so these percentiles are rounded too: the histogram cannot say more.
 */
import type { HistogramBucket } from "../../run";

/**
 * The percentiles Locust reports (its PERCENTILES_TO_REPORT, 100% excepted: that is the max), with the
 * fraction written as Locust writes it, so ⌊n × fraction⌋ rounds exactly as in Python (99.9 / 100 and
 * 0.999 are not always the same double).
 */
export const LOCUST_PERCENTILES: readonly { key: string; fraction: number }[] = [
  { key: "50", fraction: 0.5 },
  { key: "66", fraction: 0.66 },
  { key: "75", fraction: 0.75 },
  { key: "80", fraction: 0.8 },
  { key: "90", fraction: 0.9 },
  { key: "95", fraction: 0.95 },
  { key: "98", fraction: 0.98 },
  { key: "99", fraction: 0.99 },
  { key: "99.9", fraction: 0.999 },
  { key: "99.99", fraction: 0.9999 },
];

/** `{"17": 1, "4": 5}` → ascending buckets `[{upperMs: 4, count: 5}, {upperMs: 17, count: 1}]`. */
export function toHistogram(responseTimes: Record<string, number>): HistogramBucket[] {
  return Object.entries(responseTimes)
    .map(([rounded, count]) => ({ upperMs: Number(rounded), count }))
    .filter((bucket) => bucket.count > 0)
    .sort((a, b) => a.upperMs - b.upperMs);
}

/**
 * Adds Locust histograms: counts of the same rounded response time add up, every other time keeps its own
 * bucket (Locust's own Aggregated row is built the same way). Not `poolHistograms`
 * (`stats/pooled-percentile.ts`), which spreads counts over the union of differing bucket edges.
 */
export function addLocustHistograms(histograms: readonly HistogramBucket[][]): HistogramBucket[] {
  const counts = new Map<number, number>();
  for (const histogram of histograms) {
    for (const bucket of histogram) counts.set(bucket.upperMs, (counts.get(bucket.upperMs) ?? 0) + bucket.count);
  }
  return [...counts.entries()].map(([upperMs, count]) => ({ upperMs, count })).sort((a, b) => a.upperMs - b.upperMs);
}

/**
 * Locust's rule: walking down from the slowest bucket, the first (i.e. slowest) bucket with at most
 * ⌊n × p⌋ requests in faster buckets. `n` is the histogram's own total (Locust passes
 * num_requests, equal to it unless some requests had no response time).
 */
export function locustPercentile(ascending: readonly HistogramBucket[], fraction: number): number | null {
  const total = ascending.reduce((sum, bucket) => sum + bucket.count, 0);
  if (total === 0) return null;
  const allowedAbove = Math.trunc(total * fraction); // Python's int() of a positive float

  let processed = 0;
  for (let i = ascending.length - 1; i >= 0; i--) {
    const bucket = ascending[i];
    if (!bucket) continue;
    processed += bucket.count;
    if (total - processed <= allowedAbove) return bucket.upperMs;
  }
  return null;
}

export function locustPercentiles(ascending: readonly HistogramBucket[]): Record<string, number> {
  const percentiles: Record<string, number> = {};
  for (const { key, fraction } of LOCUST_PERCENTILES) {
    const value = locustPercentile(ascending, fraction);
    if (value !== null) percentiles[key] = value;
  }
  return percentiles;
}
