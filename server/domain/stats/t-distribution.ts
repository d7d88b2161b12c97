/**
 * Student's t distribution, from @stdlib (a tested port of the Cephes/Boost algorithms), wrapped so
 * that the rest of the module talks in the terms it needs: a two-sided p-value and a critical value.
 */
import tCdf from "@stdlib/stats-base-dists-t-cdf";
import tQuantile from "@stdlib/stats-base-dists-t-quantile";

/** P(|T| ≥ |t|) for T ~ t(df). Uses the lower tail of −|t| so tiny p-values keep their precision. */
export function twoSidedTPValue(t: number, degreesOfFreedom: number): number {
  if (Number.isNaN(t)) return Number.NaN;
  if (!Number.isFinite(t)) return 0;
  return Math.min(1, 2 * tCdf(-Math.abs(t), degreesOfFreedom));
}

/**
 * Quantiles already computed, by probability and degrees of freedom. A comparison asks for the same few
 * (95% intervals, the family's α, 80% power at the same df) hundreds of times, and each costs ~12 µs of
 * iteration; the cache returns the very same numbers. Bounded: cleared when full (Welch's df vary).
 */
const QUANTILES = new Map<string, number>();
const MAX_CACHED_QUANTILES = 4096;

function cachedTQuantile(probability: number, degreesOfFreedom: number): number {
  const key = `${probability}|${degreesOfFreedom}`;
  const known = QUANTILES.get(key);
  if (known !== undefined) return known;
  if (QUANTILES.size >= MAX_CACHED_QUANTILES) QUANTILES.clear();
  const value = tQuantile(probability, degreesOfFreedom);
  QUANTILES.set(key, value);
  return value;
}

/** The t value with `confidence` of the mass between −t and +t, e.g. 2.776 for 95% and 4 df. */
export function twoSidedTCritical(confidence: number, degreesOfFreedom: number): number {
  return cachedTQuantile(1 - (1 - confidence) / 2, degreesOfFreedom);
}

/** The t value with `probability` of the mass below it, e.g. 0.8416… for 0.8 as df → ∞. */
export function lowerTQuantile(probability: number, degreesOfFreedom: number): number {
  return cachedTQuantile(probability, degreesOfFreedom);
}
