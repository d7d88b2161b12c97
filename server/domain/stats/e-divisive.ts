/**
 * The E-divisive candidate search of Matteson & James (2014), "A nonparametric approach for multiple
 * change point analysis of multivariate data", JASA 109(505), with distance exponent α = 1, as used by
 * Apache Otava (formerly DataStax Hunter).
 *
 * For a split of z[s..e) into X = z[s..τ) (n values) and Y = z[τ..κ) (m values), the scaled energy
 * distance is
 *   Q̂(τ, κ) = 2/(n+m)·Σ|x−y| − 2m/((n+m)(n−1))·Σ_{i<k}|x_i−x_k| − 2n/((n+m)(m−1))·Σ_{j<k}|y_j−y_k|
 * and the candidate change point is the τ of the (τ, κ) pair maximising Q̂.
 * Why energy distance: it reacts to any change of distribution (level, spread, shape) without
 * assuming normality, and the κ search lets one window hold more than one change.
 *
 * All within-block sums come from one table W(a, b) = Σ_{a≤i<k<b}|z_i − z_k| built in O(w²), so a
 * search over every (τ, κ) of a w-point window costs O(w²) (w = 50 by default: 2,500 pairs).
 */

export interface SplitCandidate {
  /** First index of the new segment, relative to the calculator's values. */
  readonly index: number;
  readonly qHat: number;
}

export interface EnergySplitFinder {
  /** Best split of values[start..end) whose two blocks have at least `minSegmentLength` values; null if none. */
  findBestSplit(start: number, end: number, minSegmentLength: number): SplitCandidate | null;
}

export function createEnergySplitFinder(values: readonly number[]): EnergySplitFinder {
  const size = values.length;
  const stride = size + 1;
  // withinSums[a * stride + b] = W(a, b) for a ≤ b.
  const withinSums = new Float64Array(stride * stride);
  for (let last = 1; last < size; last += 1) {
    const lastValue = values[last] ?? 0;
    // distanceToLast(a) = Σ_{i=a}^{last−1} |z_i − z_last|, accumulated from a = last − 1 down to 0.
    let distanceToLast = 0;
    for (let a = last - 1; a >= 0; a -= 1) {
      distanceToLast += Math.abs((values[a] ?? 0) - lastValue);
      withinSums[a * stride + last + 1] = (withinSums[a * stride + last] ?? 0) + distanceToLast;
    }
  }
  const within = (a: number, b: number): number => withinSums[a * stride + b] ?? 0;

  return {
    findBestSplit(start, end, minSegmentLength) {
      const minLength = Math.max(2, minSegmentLength);
      let best: SplitCandidate | null = null;
      for (let tau = start + minLength; tau <= end - minLength; tau += 1) {
        const n = tau - start;
        const leftSum = within(start, tau);
        for (let kappa = tau + minLength; kappa <= end; kappa += 1) {
          const m = kappa - tau;
          const rightSum = within(tau, kappa);
          const crossSum = within(start, kappa) - leftSum - rightSum;
          const qHat =
            (2 / (n + m)) * crossSum -
            ((2 * m) / ((n + m) * (n - 1))) * leftSum -
            ((2 * n) / ((n + m) * (m - 1))) * rightSum;
          if (best === null || qHat > best.qHat) best = { index: tau, qHat };
        }
      }
      return best;
    },
  };
}
