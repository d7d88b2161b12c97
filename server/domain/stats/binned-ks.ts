/**
 * The two-sample Kolmogorov–Smirnov test on binned latencies: do two histograms come from the same
 * distribution? Used by the compare page to say whether base's and head's latency *shapes* differ.
 *
 * Statistic: D = max |F_base(x) − F_head(x)|, the largest vertical gap between the two empirical CDFs.
 * With raw samples the max runs over every sample; with histograms we only know each CDF at its bucket
 * edges (inside a bucket the samples could lie anywhere), so D is taken over the edges where BOTH CDFs
 * are known: a shared edge, a point inside an empty bucket (no sample anywhere in it), below 0 ms or past
 * the last edge (Locust counts exact rounded values, so there every point is known). HDR histograms (latency-histogram.ts) share one fixed grid of buckets at most 1% wide,
 * so every edge qualifies and the binned D is within one bucket of the raw-sample D. Binning can only
 * hide a gap, never invent one: the binned D is ≤ the raw D, so its p-value is ≥ the raw one.
 *
 * p-value: the asymptotic Kolmogorov distribution, P(D > d) ≈ Q_KS(√(n·m/(n+m)) · d), as scipy's
 * `kstwobign` (Kolmogorov 1933; Smirnov 1948; series forms from Numerical Recipes §14.3.3 and
 * Marsaglia, Tsang & Wang 2003). It assumes every request is an independent draw. Requests of one run
 * are not (they share warm-up, GC pauses, noisy neighbours), so with thousands of requests the p-value is
 * tiny whenever the runs differ at all: it says the shapes differ, not that head is slower. Whether a
 * change is real across rounds is the round-based verdict's question (docs/statistics.md).
 */
import type { HistogramBucket } from "../run";
import { insufficientData, type InsufficientData } from "./insufficient";

export interface BinnedKsResult {
  readonly status: "ok";
  /** D, 0..1: the largest gap between the two CDFs. */
  readonly statistic: number;
  /** The latency (ms, a bucket edge) where the gap is largest. */
  readonly atMs: number;
  /** F_head − F_base at atMs: positive when head has more requests at or below atMs (head faster there). */
  readonly signedGap: number;
  readonly baseCount: number;
  readonly headCount: number;
  /** n·m/(n+m): the sample size the asymptotic distribution is read at. */
  readonly effectiveN: number;
  /** Asymptotic P(D ≥ observed) if every request were an independent draw (see the header). */
  readonly pValue: number;
  /** How many edges D was taken over. */
  readonly edgesCompared: number;
}

export type BinnedKsOutcome = BinnedKsResult | InsufficientData;

/**
 * Q_KS(λ) = P(K > λ) for the Kolmogorov distribution K: 2 Σ_{k≥1} (−1)^{k−1} e^{−2k²λ²}, which
 * converges fast for λ ≥ 1.18; below, 1 − √(2π)/λ · Σ_{k≥1} e^{−(2k−1)²π²/(8λ²)}, which converges fast there.
 */
export function kolmogorovSurvival(lambda: number): number {
  if (!Number.isFinite(lambda)) throw new RangeError(`kolmogorovSurvival: λ is ${lambda}`);
  if (lambda <= 0) return 1;
  if (lambda < 1.18) {
    let sum = 0;
    for (let k = 1; k <= 20; k++) sum += Math.exp(-((2 * k - 1) ** 2) * Math.PI ** 2 / (8 * lambda ** 2));
    return clamp01(1 - (Math.sqrt(2 * Math.PI) / lambda) * sum);
  }
  let sum = 0;
  for (let k = 1; k <= 100; k++) {
    const term = Math.exp(-2 * k * k * lambda * lambda);
    sum += (k % 2 === 1 ? 1 : -1) * term;
    if (term < 1e-300) break;
  }
  return clamp01(2 * sum);
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}

/** A histogram's step CDF: the fraction of samples ≤ x, where the buckets tell (null where they do not). */
export class HistogramCdf {
  private readonly buckets: readonly HistogramBucket[];
  private readonly cumulative: number[];
  readonly total: number;

  /** exactValues: each bucket's count sits at its upper edge (Locust's rounded values), so F is known everywhere. */
  constructor(
    buckets: readonly HistogramBucket[],
    private readonly exactValues = false,
  ) {
    this.buckets = buckets.filter((bucket) => Number.isFinite(bucket.upperMs) && bucket.count >= 0);
    let running = 0;
    this.cumulative = this.buckets.map((bucket) => (running += bucket.count));
    this.total = running;
  }

  get edges(): number[] {
    return this.buckets.map((bucket) => bucket.upperMs);
  }

  /** F(x) where the histogram knows it exactly (an edge, inside an empty bucket, outside the range), else null. */
  knownAt(x: number): number | null {
    if (this.total === 0) return null;
    if (x < 0) return 0;
    if (this.exactValues) return this.stepAt(x);
    const index = this.buckets.findIndex((bucket) => bucket.upperMs >= x);
    if (index === -1) return 1;
    const bucket = this.buckets[index]!;
    const below = index === 0 ? 0 : this.cumulative[index - 1]!;
    if (bucket.upperMs === x) return this.cumulative[index]! / this.total;
    if (bucket.count === 0 || (index === 0 && x === 0)) return below / this.total;
    return null;
  }

  /** F(x) read as a step (the count up to the last edge ≤ x): what a step chart draws. */
  stepAt(x: number): number {
    if (this.total === 0) return 0;
    let count = 0;
    for (let index = 0; index < this.buckets.length && this.buckets[index]!.upperMs <= x; index++) count = this.cumulative[index]!;
    return count / this.total;
  }
}

/** The two-sample KS test on two latency histograms (see the header for what binning and correlation do to it). */
export function binnedKsTest(
  base: readonly HistogramBucket[],
  head: readonly HistogramBucket[],
  options: { exactValues?: boolean } = {},
): BinnedKsOutcome {
  const baseCdf = new HistogramCdf(base, options.exactValues);
  const headCdf = new HistogramCdf(head, options.exactValues);
  if (baseCdf.total === 0 || headCdf.total === 0) {
    return insufficientData(`insufficient data: the ${baseCdf.total === 0 ? "base" : "head"} histogram holds no samples`);
  }
  const edges = [...new Set([...baseCdf.edges, ...headCdf.edges])].sort((a, b) => a - b);
  let statistic = 0;
  let atMs = edges[0] ?? 0;
  let signedGap = 0;
  let edgesCompared = 0;
  for (const edge of edges) {
    const fBase = baseCdf.knownAt(edge);
    const fHead = headCdf.knownAt(edge);
    if (fBase === null || fHead === null) continue;
    edgesCompared++;
    const gap = fHead - fBase;
    if (Math.abs(gap) > statistic) {
      statistic = Math.abs(gap);
      atMs = edge;
      signedGap = gap;
    }
  }
  const effectiveN = (baseCdf.total * headCdf.total) / (baseCdf.total + headCdf.total);
  return {
    status: "ok",
    statistic,
    atMs,
    signedGap,
    baseCount: baseCdf.total,
    headCount: headCdf.total,
    effectiveN,
    pValue: kolmogorovSurvival(Math.sqrt(effectiveN) * statistic),
    edgesCompared,
  };
}
