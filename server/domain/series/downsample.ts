/**
 * Thinning long series (years of runs) to what a chart can draw, without hiding what matters.
 * Points are assumed sorted by x; both functions return a subsequence of the input (same objects, same
 * order), so extra fields such as a run id survive for "click a point → that run".
 *
 * A point with y = null is a gap (the run did not report that metric). A bucket with no data keeps one
 * null point so the chart breaks its line there; a gap narrower than a bucket is bridged, since at that
 * zoom it is narrower than the spacing between drawn points.
 */

export interface SeriesPoint {
  x: number;
  y: number | null;
}

type DataPoint<P extends SeriesPoint> = P & { y: number };

function hasData<P extends SeriesPoint>(point: P): point is DataPoint<P> {
  return point.y !== null;
}

/**
 * Largest-Triangle-Three-Buckets (Steinarsson 2013, "Downsampling Time Series for Visual
 * Representation", ch. 4): keep the first and last points; split the rest into `threshold − 2` equal
 * buckets and keep, from each, the point forming the largest triangle with the point kept before it and
 * the mean of the next bucket. That keeps the visual shape (peaks, dips) far better than averaging.
 *
 * Gaps: a bucket without data keeps its first (null) point. Next to a gap the triangle has no anchor on
 * that side, so the bucket keeps the point where the line resumes (first data point after a gap) or
 * stops (last data point before a gap).
 *
 * @param threshold the most points to return; an integer ≥ 2.
 */
export function downsampleLttb<P extends SeriesPoint>(points: readonly P[], threshold: number): P[] {
  assertCount("threshold", threshold, 2);
  const first = points[0];
  const last = points[points.length - 1];
  if (points.length <= threshold || first === undefined || last === undefined) return [...points];
  if (threshold === 2) return [first, last];

  const inner = points.slice(1, -1);
  const buckets = splitIntoBuckets(inner, threshold - 2);
  const kept: P[] = [first];
  for (const [index, bucket] of buckets.entries()) {
    const previous = kept[kept.length - 1] ?? first;
    const next = buckets[index + 1] ?? [last];
    kept.push(pickFromBucket(bucket, previous, meanOf(next)));
  }
  kept.push(last);
  return kept;
}

function pickFromBucket<P extends SeriesPoint>(
  bucket: readonly P[],
  previous: P,
  nextMean: { x: number; y: number } | null,
): P {
  const candidates = bucket.filter(hasData);
  const firstCandidate = candidates[0];
  const lastCandidate = candidates[candidates.length - 1];
  // A non-empty bucket (splitIntoBuckets never makes empty ones) with no data: mark the gap.
  if (firstCandidate === undefined || lastCandidate === undefined) return bucket[0] ?? previous;
  if (!hasData(previous)) return firstCandidate;
  if (nextMean === null) return lastCandidate;

  let best = firstCandidate;
  let bestArea = -1;
  for (const candidate of candidates) {
    const area = doubledTriangleArea(previous, candidate, nextMean);
    if (area > bestArea) {
      best = candidate;
      bestArea = area;
    }
  }
  return best;
}

/** Twice the area of triangle abc (the factor ½ does not change which is largest). */
function doubledTriangleArea(
  a: { x: number; y: number },
  b: { x: number; y: number },
  c: { x: number; y: number },
): number {
  return Math.abs((a.x - c.x) * (b.y - a.y) - (a.x - b.x) * (c.y - a.y));
}

function meanOf(points: readonly SeriesPoint[]): { x: number; y: number } | null {
  let sumX = 0;
  let sumY = 0;
  let count = 0;
  for (const point of points) {
    if (point.y === null) continue;
    sumX += point.x;
    sumY += point.y;
    count += 1;
  }
  return count === 0 ? null : { x: sumX / count, y: sumY / count };
}

/**
 * Min/max per bucket (the idea behind M4, Jugel et al. 2014, without first/last): split the points into
 * `buckets` equal-count buckets and keep each one's lowest and highest point, in their original order.
 * Unlike LTTB, which keeps one point per bucket, every spike and every dip survives, so a p99 excursion
 * of one run stays visible at any zoom. Returns at most 2 × `buckets` points; the input unchanged when it
 * is already that short. A bucket with no data keeps its first (null) point.
 *
 * @param buckets an integer ≥ 1.
 */
export function downsampleMinMax<P extends SeriesPoint>(points: readonly P[], buckets: number): P[] {
  assertCount("buckets", buckets, 1);
  if (points.length <= buckets * 2) return [...points];

  const kept: P[] = [];
  for (const bucket of splitIntoBuckets(points, buckets)) {
    const extremes = extremesOf(bucket);
    if (extremes === null) {
      const gap = bucket[0];
      if (gap !== undefined) kept.push(gap);
      continue;
    }
    const { min, max } = extremes;
    if (min.index === max.index) kept.push(min.point);
    else if (min.index < max.index) kept.push(min.point, max.point);
    else kept.push(max.point, min.point);
  }
  return kept;
}

interface Indexed<P> {
  point: P;
  index: number;
}

/** The lowest and highest data points (first of equals), or null when the bucket is all gap. */
function extremesOf<P extends SeriesPoint>(bucket: readonly P[]): { min: Indexed<P>; max: Indexed<P> } | null {
  let min: Indexed<DataPoint<P>> | null = null;
  let max: Indexed<DataPoint<P>> | null = null;
  for (const [index, point] of bucket.entries()) {
    if (!hasData(point)) continue;
    if (min === null || point.y < min.point.y) min = { point, index };
    if (max === null || point.y > max.point.y) max = { point, index };
  }
  return min === null || max === null ? null : { min, max };
}

/** `count` consecutive, non-empty buckets whose sizes differ by at most one (needs count ≤ length). */
function splitIntoBuckets<P>(points: readonly P[], count: number): P[][] {
  const buckets: P[][] = [];
  for (let bucket = 0; bucket < count; bucket += 1) {
    const start = Math.floor((bucket * points.length) / count);
    const end = Math.floor(((bucket + 1) * points.length) / count);
    buckets.push(points.slice(start, end));
  }
  return buckets;
}

function assertCount(name: string, value: number, minimum: number): void {
  if (!Number.isInteger(value) || value < minimum) {
    throw new RangeError(`${name} must be an integer ≥ ${minimum}, got ${value}`);
  }
}
