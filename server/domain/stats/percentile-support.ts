/**
 * Whether a latency percentile measured from n requests can be judged at all. A run's p99 from 38
 * requests is its slowest request, not a property of the service: comparing two such values compares
 * two maxima. A percentile q is taken as evidence only when the run has at least
 * MIN_TAIL_REQUESTS requests beyond it, n · (1 − q/100) ≥ 10, i.e.
 *   p50 ≥ 20 requests, p90 ≥ 100, p95 ≥ 200, p99 ≥ 1,000, p99.9 ≥ 10,000.
 * With 10 observations in the tail, the order statistic that estimates q has a relative spread small
 * enough that run-to-run noise, not the rank of one request, dominates (see docs/statistics.md).
 */
import { formatNumber } from "../format";

export const MIN_TAIL_REQUESTS = 10;

/** The fewest requests a run needs for its `percentile` (0–100) to be judged. */
export function minRequestsForPercentile(percentile: number): number {
  const tailPct = 100 - percentile;
  if (tailPct <= 0) return Number.POSITIVE_INFINITY;
  // Rounded before the ceiling: 100 − 99.9 is 0.0999…, and 10 / 0.001 must be 10,000, not 10,001.
  return Math.ceil(Math.round(((MIN_TAIL_REQUESTS * 100) / tailPct) * 1e6) / 1e6);
}

/**
 * null when every run's request count supports the percentile (unknown counts are not held against
 * it); otherwise the reason, naming the smallest count: "too few requests to judge p99 (38; needs 1,000)".
 */
export function percentileUnsupportedReason(percentile: number, requestCounts: readonly (number | null)[]): string | null {
  const known = requestCounts.filter((count): count is number => count !== null && Number.isFinite(count));
  if (known.length === 0) return null;
  const fewest = Math.min(...known);
  const needed = minRequestsForPercentile(percentile);
  if (fewest >= needed) return null;
  // formatNumber's formatter is made once; toLocaleString builds one per call (a comparison asks this ~600 times).
  const format = (value: number) => (Number.isFinite(value) ? formatNumber(value, 3) : value.toLocaleString("en-US"));
  return `too few requests to judge p${percentile} (${format(fewest)}; needs ${format(needed)})`;
}
