import type { LatencySummary } from "../run";

/** The percentiles Benchtrack computes when it has raw samples: the ones pages and SLAs use. */
export const SAMPLE_PERCENTILES = [50, 90, 95, 99, 99.9] as const;

/**
 * The p-th percentile (0..100) of an ascending array, interpolating linearly between the two nearest
 * ranks: rank = p/100 × (n − 1). This is k6's method (and NumPy's default "linear"), so percentiles
 * computed from k6 points match the ones k6 prints for the same samples.
 * Throws on an empty array or p outside 0..100: both are caller bugs, not data conditions.
 */
export function percentileOfSorted(sorted: Float64Array | readonly number[], p: number): number {
  const n = sorted.length;
  if (n === 0) throw new RangeError("percentileOfSorted: no samples");
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentileOfSorted: p must be 0..100, got ${p}`);
  const rank = (p / 100) * (n - 1);
  const lowerIndex = Math.floor(rank);
  const upperIndex = Math.min(lowerIndex + 1, n - 1);
  const lower = sorted[lowerIndex] ?? 0;
  const upper = sorted[upperIndex] ?? lower;
  return lower + (upper - lower) * (rank - lowerIndex);
}

/** The key a percentile is stored under in `LatencySummary.percentiles`: 50 → "50", 99.9 → "99.9". */
function percentileKey(p: number): string {
  return String(p);
}

/**
 * Summarises ascending samples (ms) into min, mean, max, sample standard deviation (n − 1, as the
 * samples estimate the endpoint's spread) and the requested percentiles. Empty input gives nulls and no
 * percentiles: "no data" stays visible instead of turning into zeros.
 */
export function summarizeSortedSamples(
  sorted: Float64Array | readonly number[],
  percentiles: readonly number[] = SAMPLE_PERCENTILES,
): LatencySummary {
  const n = sorted.length;
  if (n === 0) return { minMs: null, meanMs: null, maxMs: null, stdDevMs: null, percentiles: {} };
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sorted[i] ?? 0;
  const mean = sum / n;
  // Two passes (mean first, then squared deviations) avoid the cancellation of the Σx² − n·mean² form.
  let squaredDeviations = 0;
  for (let i = 0; i < n; i++) {
    const deviation = (sorted[i] ?? 0) - mean;
    squaredDeviations += deviation * deviation;
  }
  const result: Record<string, number> = {};
  for (const p of percentiles) result[percentileKey(p)] = percentileOfSorted(sorted, p);
  return {
    minMs: sorted[0] ?? null,
    meanMs: mean,
    maxMs: sorted[n - 1] ?? null,
    stdDevMs: n >= 2 ? Math.sqrt(squaredDeviations / (n - 1)) : null,
    percentiles: result,
  };
}

/** Like `summarizeSortedSamples`, for samples in any order (sorts a copy; the input is left untouched). */
export function summarizeSamples(
  samples: Float64Array | readonly number[],
  percentiles: readonly number[] = SAMPLE_PERCENTILES,
): LatencySummary {
  const sorted = Float64Array.from(samples).sort();
  return summarizeSortedSamples(sorted, percentiles);
}
