/**
 * Change-point detection over a run history (one endpoint × metric, oldest first), after Apache Otava
 * (formerly DataStax Hunter): Fleming et al. (2023), "Hunter: Using Change Point Detection to Hunt for
 * Performance Regressions", ICPE '23, https://doi.org/10.1145/3578244.3583719.
 *
 * 1. Split. Slide a window of `windowLength` points (step: half a window) over the series. In each
 *    window run E-divisive (see e-divisive.ts): find the best split of the current segments, keep it
 *    when Student's t-test between the two sides gives p ≤ 10 × maxPValue, repeat until a split fails.
 *    The union of these "weak" change points goes to step 2.
 * 2. Merge. Recompute every change point's test between its two neighbouring segments in the whole
 *    series; while some change point fails a guard, drop the one with the largest p-value and
 *    recompute. Guards (all configurable):
 *      - p ≤ maxPValue (Otava's default 0.001), where p is the t-test p-value multiplied by the number
 *        of positions the split could have taken between its neighbours (see adjustForSplitPositions),
 *      - both neighbouring segments have ≥ minSegmentLength points (Chromium's dashboard uses 6),
 *      - |Δ%| ≥ minRelativeChangePct,
 *      - |Δ mean| ≥ minMagnitudeSd pooled standard deviations of the two segments.
 * Why a t-test and not E-divisive's permutation test: it is deterministic, orders of magnitude faster,
 * and Hunter found it as good on performance data. Why windows: a change far in the past must not
 * hide a small recent one, and adding a run must not move old change points. Why the extra guards:
 * with hundreds of runs, a 0.5% shift is "significant" but not worth a regression alert; the relative
 * and σ guards are Chromium-dashboard style (catapult `find_change_points.py`). The false-positive
 * rate of these defaults on synthetic noise is measured by scripts/evaluate-change-points.ts and
 * written in docs/change-point-detection.md.
 */
import { assertFiniteValues } from "./insufficient";
import { createEnergySplitFinder } from "./e-divisive";
import { studentTTestFromMoments, type StudentTTest } from "./student-t-test";

export interface ChangePointOptions {
  /** Sliding-window length of the split step (Otava: 50). */
  readonly windowLength: number;
  /**
   * Final significance threshold (Otava: 0.001), Bonferroni-adjusted over the split's positions; the split
   * step uses 10× this. 1e-5 here: the product re-tests every (endpoint × metric) series after every upload
   * and a recorded change is permanent, so Otava's 0.001 opened about 0.3 false regressions per flat
   * 200-run series of five endpoints (docs/change-point-detection.md, "Repeated detection").
   */
  readonly maxPValue: number;
  /** Minimum points on each side of a change point. */
  readonly minSegmentLength: number;
  /** Minimum |Δ%| of segment means, in percent. */
  readonly minRelativeChangePct: number;
  /** Minimum |Δ mean| in pooled standard deviations of the two segments. */
  readonly minMagnitudeSd: number;
}

export const DEFAULT_CHANGE_POINT_OPTIONS: ChangePointOptions = {
  windowLength: 50,
  maxPValue: 1e-5,
  minSegmentLength: 6,
  minRelativeChangePct: 2,
  minMagnitudeSd: 1,
};

export interface SegmentSummary {
  readonly mean: number;
  readonly n: number;
}

export interface ChangePoint {
  /** Index of the first point of the new segment. */
  readonly index: number;
  readonly before: SegmentSummary;
  readonly after: SegmentSummary;
  /** 100 · (after.mean − before.mean) / before.mean; null when before.mean is 0. */
  readonly deltaPct: number | null;
  /**
   * Student's t-test between the two neighbouring segments, Bonferroni-adjusted for the number of
   * positions the split could have taken between them (so: the chance of a split this strong anywhere
   * in that stretch of pure noise).
   */
  readonly pValue: number;
  readonly direction: "increase" | "decrease";
}

/** Detects level shifts. Series shorter than 2 × minSegmentLength have none by construction. */
export function detectChangePoints(
  series: readonly number[],
  options: Partial<ChangePointOptions> = {},
): ChangePoint[] {
  const settings: ChangePointOptions = { ...DEFAULT_CHANGE_POINT_OPTIONS, ...options };
  if (settings.windowLength < 2 * settings.minSegmentLength) {
    throw new RangeError("windowLength must hold two segments of minSegmentLength points");
  }
  assertFiniteValues(series, "series");
  if (series.length < 2 * settings.minSegmentLength) return [];

  const moments = createSegmentMoments(series);
  const weakIndices = findWeakChangePoints(series, settings);
  return mergeChangePoints(weakIndices, series.length, settings, moments);
}

/**
 * Smallest block the split step considers. Deliberately smaller than minSegmentLength: a window edge
 * falls at an arbitrary place, and forcing 6 points on each side inside a window would push a step
 * that sits 3 points before the edge to the wrong index. The merge step enforces minSegmentLength on
 * the whole series, where the edges are real.
 */
const SPLIT_MIN_BLOCK = 3;

/** Split step: E-divisive with a relaxed t-test inside each sliding window. */
function findWeakChangePoints(series: readonly number[], settings: ChangePointOptions): number[] {
  const firstPassPValue = Math.min(0.5, settings.maxPValue * 10);
  const step = Math.max(1, Math.floor(settings.windowLength / 2));
  const found = new Set<number>();
  let start = 0;
  while (series.length - start >= 2 * SPLIT_MIN_BLOCK) {
    const end = Math.min(start + settings.windowLength, series.length);
    const inWindow = findChangePointsInWindow(series.slice(start, end), firstPassPValue, SPLIT_MIN_BLOCK);
    const absolute = inWindow.map((index) => index + start);
    absolute.forEach((index) => found.add(index));
    const lastFound = absolute.length > 0 ? Math.max(...absolute) : 0;
    start = Math.max(lastFound, start + step);
  }
  return [...found].sort((a, b) => a - b);
}

function findChangePointsInWindow(window: readonly number[], maxPValue: number, minSegmentLength: number): number[] {
  const finder = createEnergySplitFinder(window);
  const windowMoments = createSegmentMoments(window);
  const changePoints: number[] = [];
  for (;;) {
    const bounds = [0, ...changePoints, window.length];
    let best: { index: number; qHat: number; start: number; end: number } | null = null;
    for (let i = 0; i + 1 < bounds.length; i += 1) {
      const start = bounds[i] ?? 0;
      const end = bounds[i + 1] ?? window.length;
      const candidate = finder.findBestSplit(start, end, minSegmentLength);
      if (candidate !== null && (best === null || candidate.qHat > best.qHat)) best = { ...candidate, start, end };
    }
    if (best === null) return changePoints;
    const test = testSplit(windowMoments, best.start, best.index, best.end);
    if (test.pValue > maxPValue) return changePoints;
    changePoints.push(best.index);
    changePoints.sort((a, b) => a - b);
  }
}

/** Merge step: drop the weakest failing change point until every one passes every guard. */
function mergeChangePoints(
  weakIndices: readonly number[],
  length: number,
  settings: ChangePointOptions,
  moments: SegmentMoments,
): ChangePoint[] {
  let indices = [...weakIndices];
  for (;;) {
    const evaluated = indices.map((index, i) => {
      const start = indices[i - 1] ?? 0;
      const end = indices[i + 1] ?? length;
      return describeChangePoint(moments, start, index, end, settings);
    });
    const failing = evaluated.filter((candidate) => !candidate.passes);
    if (failing.length === 0) return evaluated.map((candidate) => candidate.changePoint);
    const weakest = failing.reduce((worst, candidate) =>
      candidate.changePoint.pValue > worst.changePoint.pValue ||
      (candidate.changePoint.pValue === worst.changePoint.pValue &&
        Math.abs(candidate.changePoint.deltaPct ?? 0) < Math.abs(worst.changePoint.deltaPct ?? 0))
        ? candidate
        : worst,
    );
    indices = indices.filter((index) => index !== weakest.changePoint.index);
  }
}

function describeChangePoint(
  moments: SegmentMoments,
  start: number,
  index: number,
  end: number,
  settings: ChangePointOptions,
): { changePoint: ChangePoint; passes: boolean } {
  const before = moments.of(start, index);
  const after = moments.of(index, end);
  const test = testSplit(moments, start, index, end);
  const pValue = adjustForSplitPositions(test.pValue, end - start, settings.minSegmentLength);
  const deltaPct = before.mean === 0 ? null : (100 * (after.mean - before.mean)) / before.mean;
  const magnitudeSd =
    test.pooledSd === 0 ? Number.POSITIVE_INFINITY : Math.abs(after.mean - before.mean) / test.pooledSd;
  const passes =
    pValue <= settings.maxPValue &&
    before.n >= settings.minSegmentLength &&
    after.n >= settings.minSegmentLength &&
    (deltaPct === null || Math.abs(deltaPct) >= settings.minRelativeChangePct) &&
    magnitudeSd >= settings.minMagnitudeSd;
  return {
    changePoint: {
      index,
      before: { mean: before.mean, n: before.n },
      after: { mean: after.mean, n: after.n },
      deltaPct,
      pValue,
      direction: after.mean >= before.mean ? "increase" : "decrease",
    },
    passes,
  };
}

/**
 * Bonferroni adjustment for where the split was chosen: the change point is the best of the
 * (length − 2·minSegmentLength + 1) positions it could have taken between its neighbours, so its raw
 * t-test p-value is far too small under the null (a maximum of many t statistics). Multiplying by
 * the number of positions bounds the chance of a split this strong anywhere in the stretch
 * (conservative, since neighbouring positions are correlated). Without it, a 7-point run at the end of
 * a flat 500-point history, or a 10-point blip, passes p ≤ 0.001 about once per 3,000–5,000 points.
 */
function adjustForSplitPositions(pValue: number, length: number, minSegmentLength: number): number {
  const positions = Math.max(1, length - 2 * minSegmentLength + 1);
  return Math.min(1, pValue * positions);
}

function testSplit(moments: SegmentMoments, start: number, index: number, end: number): StudentTTest {
  return studentTTestFromMoments(moments.of(start, index), moments.of(index, end));
}

interface SegmentMoments {
  /** n, mean and sample variance of series[start..end), in O(1). */
  of(start: number, end: number): { n: number; mean: number; variance: number };
}

/**
 * Prefix sums of x and x² after subtracting the series mean: O(1) moments for any segment.
 * Why centre first: Σx² − n·x̄² cancels catastrophically when the level is large and the noise small.
 */
function createSegmentMoments(series: readonly number[]): SegmentMoments {
  const center = series.reduce((sum, value) => sum + value, 0) / Math.max(1, series.length);
  const sums = new Float64Array(series.length + 1);
  const squares = new Float64Array(series.length + 1);
  series.forEach((value, i) => {
    const centered = value - center;
    sums[i + 1] = (sums[i] ?? 0) + centered;
    squares[i + 1] = (squares[i] ?? 0) + centered * centered;
  });
  return {
    of(start, end) {
      const n = end - start;
      const sum = (sums[end] ?? 0) - (sums[start] ?? 0);
      const sumOfSquares = (squares[end] ?? 0) - (squares[start] ?? 0);
      const centeredMean = sum / n;
      const variance = n > 1 ? Math.max(0, (sumOfSquares - n * centeredMean * centeredMean) / (n - 1)) : 0;
      return { n, mean: centeredMean + center, variance };
    },
  };
}
