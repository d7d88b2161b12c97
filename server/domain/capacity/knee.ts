/**
 * The knee of a capacity curve: the load level past which latency climbs much faster than it did up to
 * it (docs/statistics.md, "Capacity").
 *
 * Kneedle (Satopää, Albrecht, Irwin & Raghavan 2011, "Finding a 'Kneedle' in a Haystack: Detecting Knee
 * Points in System Behavior", ICDCS Workshops, §III) locates it, and a slope test decides whether it is
 * a bend at all:
 * 1. Levels in load order: x = load level, y = latency. Both are normalized to [0, 1] over the measured
 *    range (x̂ = (x − x_min)/(x_max − x_min), likewise ŷ).
 * 2. Kneedle's difference curve for a convex increasing curve, d = x̂ − ŷ; the candidate is the interior
 *    level with the largest d (the level furthest below the chord from the lowest load to the highest).
 * 3. It is a knee when (a) latency at the highest load is at least MIN_LATENCY_RISE above the lowest's,
 *    (b) d > 0 there, and (c) latency per unit of load from the candidate to the highest level is at
 *    least KNEE_SLOPE_RATIO times that from the lowest level to the candidate.
 *
 * Why x is the load level, not the achieved throughput the chart draws: throughput flattens, or falls,
 * once the service saturates, which is exactly where the knee is, so latency against it is not a
 * function; the offered load only grows.
 * Why not Kneedle's own confirmation (the difference curve must drop below d_max − S·mean(Δx̂), S = 1):
 * after the last level it asks d_max > 1/(n − 1), which three evenly spaced levels can never meet
 * (there d ≤ x̂ = 0.5). Kneedle was made for dense curves; a load sweep has three to ten points, and the
 * slope ratio says the same thing ("bends") in words a reader can check on the chart.
 * Why 1.5×: the bundled fixtures' rounds, repeated at one load, differ in p95 by up to a third (Locust
 * GetListing 12–16 ms over 110–126 requests); a smaller rise can be noise, while a saturating service
 * multiplies its latency. Why 2×: a straight line has ratio 1.
 */
import { assertFiniteValues, insufficientData, type InsufficientData } from "../stats/insufficient";

export const MIN_LOAD_LEVELS = 3;
/** Latency at the highest load must be at least this fraction above the lowest load's (0.5: 1.5×). */
export const MIN_LATENCY_RISE = 0.5;
/** Latency per unit of load past the knee must be at least this multiple of that up to it. */
export const KNEE_SLOPE_RATIO = 2;

export interface CurvePoint {
  load: number;
  latencyMs: number;
}

export type KneeResult =
  | {
      status: "knee";
      /** Position of the knee in the points given. */
      index: number;
      load: number;
      latencyMs: number;
      /** Latency per unit of load past the knee ÷ up to it; null when latency did not rise up to it. */
      slopeRatio: number | null;
    }
  | { status: "no-knee"; reason: string }
  | InsufficientData;

/**
 * @param points one per load level, in increasing load order (distinct loads), latency in ms.
 * @param metric the latency's name in reasons ("p95").
 */
export function findKnee(points: readonly CurvePoint[], metric = "p95"): KneeResult {
  assertFiniteValues(
    points.flatMap((point) => [point.load, point.latencyMs]),
    "points",
  );
  points.forEach((point, index) => {
    if (index > 0 && point.load <= points[index - 1]!.load)
      throw new RangeError("points must be in increasing load order");
  });
  if (points.length < MIN_LOAD_LEVELS) {
    return insufficientData(`too few load levels: need ${MIN_LOAD_LEVELS}, have ${points.length}`);
  }
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const rise = last.latencyMs - first.latencyMs;
  if (rise <= 0) return noKnee(`${metric} does not rise from the lowest load to the highest`);
  if (first.latencyMs > 0 && rise < MIN_LATENCY_RISE * first.latencyMs) {
    return noKnee(
      `${metric} rises only ${Math.round((100 * rise) / first.latencyMs)}% from the lowest load to the highest`,
    );
  }

  const latencies = points.map((point) => point.latencyMs);
  const low = Math.min(...latencies);
  const span = Math.max(...latencies) - low;
  const xRange = last.load - first.load;
  let best = -1;
  let bestDifference = 0;
  for (let index = 1; index < points.length - 1; index += 1) {
    const point = points[index]!;
    const difference = (point.load - first.load) / xRange - (point.latencyMs - low) / span;
    if (difference > bestDifference) {
      best = index;
      bestDifference = difference;
    }
  }
  if (best === -1) return noKnee(`${metric} grows at least as fast at low load as at high load`);

  const knee = points[best]!;
  const before = (knee.latencyMs - first.latencyMs) / (knee.load - first.load);
  const after = (last.latencyMs - knee.latencyMs) / (last.load - knee.load);
  const slopeRatio = before > 0 ? after / before : null;
  if (after <= 0 || (slopeRatio !== null && slopeRatio < KNEE_SLOPE_RATIO)) {
    const ratio = slopeRatio === null || after <= 0 ? "no faster" : `only ${slopeRatio.toFixed(1)}× faster`;
    return noKnee(`${metric} grows ${ratio} per unit of load at high load than at low load`);
  }
  return { status: "knee", index: best, load: knee.load, latencyMs: knee.latencyMs, slopeRatio };
}

function noKnee(reason: string): KneeResult {
  return { status: "no-knee", reason: `no knee in the measured range: ${reason}` };
}
