/**
 * A run's machine shift: how much faster or slower the whole run was than its reference, for reasons
 * that have nothing to do with the code (docs/statistics.md, "The machine's shift"). On a shared runner
 * a burst of other work can slow a whole run by 20–50%; every benchmark of the run moves with it, by about
 * the same factor, while a change of the code moves the benchmarks it touches, each by its own factor.
 *
 * Model (per benchmark i, on the log scale): y_i = s + c_i + e_i, with s the machine's shift, c_i the code's
 * change (0 for most benchmarks) and e_i noise of variance w_i² + τ² — w_i from the run's repetitions, τ
 * the run-to-run noise a benchmark shows beyond its repetitions (a random effect, as in a random-effects
 * meta-analysis: DerSimonian & Laird 1986).
 *
 * Estimator: the **largest group of benchmarks that moved together**, not the median. The median is the
 * shift only while most benchmarks are unchanged: a change that touches four of seven benchmarks makes
 * the median one of them. The unchanged benchmarks agree with each other up to noise; changed ones are
 * spread by their own factors. So:
 *  1. start at the half-sample mode of the y_i (Bickel & Frühwirth 2006): the shortest interval holding
 *     half the points, recursively — the densest region, whatever the other points do;
 *  2. from there, a mean shift: the group is every benchmark within K = 3 of its noise of the centre, the
 *     centre the precision-weighted mean of the group (weights 1 / (w_i² + τ²)), τ the spread of the
 *     group beyond the repetitions (the MAD of standardized residuals: robust), until the group stops
 *     changing;
 *  3. the benchmarks outside the group are searched the same way for other groups that moved together
 *     (two or more): a burst that hit only part of the run, or a change that slowed several benchmarks
 *     alike. One run against one cannot tell those two apart; a group as large as the first is preferred
 *     when its centre is nearer 0 (most runs are not slowed by a burst).
 * Benchmarks known to have changed (an exact count moved: exact-metrics.ts) are left out of the estimate.
 * With fewer than MIN_FOR_TAU benchmarks in the group, τ is the prior given (the series' history, or the
 * default for a shared runner).
 */
import { median, medianInPlace } from "../stats/descriptive";

/** One benchmark's log change against its reference, and the sd and df of that change from its repetitions. */
export interface ShiftPoint {
  key: string;
  /** log(value / reference). */
  y: number;
  /** The sd of y from the run's repetitions (0 when unknown: τ carries the noise). */
  within: number;
  /** Degrees of freedom of `within` (Infinity when it is exact). */
  df: number;
}

export interface ShiftGroup {
  /** The group's centre, on the log scale. */
  shift: number;
  /** The standard error of the centre. */
  standardError: number;
  /** The benchmarks in the group. */
  keys: string[];
}

export interface MachineShift extends ShiftGroup {
  /** Run-to-run noise beyond the repetitions (log sd), and how many benchmarks it was measured on (0: the prior). */
  tau: number;
  tauFrom: number;
  /** Other groups of two or more benchmarks that moved together, beyond the main group. */
  alternatives: ShiftGroup[];
}

/** Within this many of its noise sds of the centre, a benchmark moved with the group. */
export const GROUP_RADIUS_SDS = 3;
/** τ is measured from the group when it has at least this many benchmarks (a MAD of fewer is too rough). */
export const MIN_FOR_TAU = 5;
/** 1 / Φ⁻¹(0.75): a median absolute standardized residual of 0.6745 is one sd. */
const MAD_TO_SD = 1.4826;
const MAX_ITERATIONS = 50;

/** The half-sample mode of some values (Bickel & Frühwirth 2006): robust to any minority, and to a spread-out majority. */
export function halfSampleMode(values: readonly number[]): number | null {
  let sorted = Float64Array.from(values).sort();
  if (sorted.length === 0) return null;
  while (sorted.length > 3) {
    const half = Math.ceil(sorted.length / 2);
    let best = 0;
    for (let start = 1; start + half - 1 < sorted.length; start++) {
      if (sorted[start + half - 1]! - sorted[start]! < sorted[best + half - 1]! - sorted[best]!) best = start;
    }
    sorted = sorted.slice(best, best + half);
  }
  if (sorted.length === 3) {
    const [a, b, c] = [sorted[0]!, sorted[1]!, sorted[2]!];
    if (b - a < c - b) return (a + b) / 2;
    if (c - b < b - a) return (b + c) / 2;
    return b;
  }
  return sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
}

/**
 * τ of a group about its centre: the value that makes the median of |y − centre| / √(w² + τ²) equal to
 * 0.6745 (a normal sd), found by bisection; 0 when the repetitions already explain the spread.
 */
function tauOf(points: readonly ShiftPoint[], centre: number): number {
  // Taken some 60 times over a suite of 10,000 benchmarks: flat arrays, an indexed loop, one buffer, and
  // the median by selection rather than a sort.
  const count = points.length;
  const residuals = new Float64Array(count);
  const withinSquared = new Float64Array(count);
  for (let index = 0; index < count; index++) {
    residuals[index] = Math.abs(points[index]!.y - centre);
    withinSquared[index] = points[index]!.within ** 2;
  }
  const standardized = new Float64Array(count);
  const medianStandardized = (tau: number) => {
    const tauSquared = tau ** 2;
    for (let index = 0; index < count; index++) standardized[index] = residuals[index]! / Math.sqrt(withinSquared[index]! + tauSquared);
    return medianInPlace(standardized);
  };
  const target = 1 / MAD_TO_SD;
  // At τ = 0 a benchmark without repetitions standardizes to ∞ or 0/0: the sorted median orders those.
  if (median(points.map((point, index) => residuals[index]! / Math.sqrt(point.within ** 2)))! <= target) return 0;
  let low = 0;
  let high = 0;
  for (let index = 0; index < count; index++) high = Math.max(high, residuals[index]!);
  high = high * 2 + 1e-9;
  for (let step = 0; step < 60; step++) {
    const mid = (low + high) / 2;
    if (medianStandardized(mid) > target) low = mid;
    else high = mid;
  }
  return high;
}

/** What τ is taken to be when a group is too small to measure it, and the least it is taken to be when measured. */
export interface NoisePrior {
  prior: number;
  floor: number;
}

/** The group around a start: mean shift with precision weights until the group stops changing. */
function groupAround(points: readonly ShiftPoint[], start: number, noise: NoisePrior): { group: ShiftGroup; tau: number; tauFrom: number } {
  let centre = start;
  let tau = noise.prior;
  let tauFrom = 0;
  let members: ShiftPoint[] = [];
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    const next = points.filter((point) => Math.abs(point.y - centre) <= GROUP_RADIUS_SDS * Math.sqrt(point.within ** 2 + tau ** 2));
    const chosen = next.length > 0 ? next : [points.reduce((best, point) => (Math.abs(point.y - centre) < Math.abs(best.y - centre) ? point : best))];
    const weights = chosen.map((point) => 1 / (point.within ** 2 + tau ** 2));
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    const nextCentre = chosen.reduce((sum, point, index) => sum + weights[index]! * point.y, 0) / total;
    const nextTau = chosen.length >= MIN_FOR_TAU ? Math.max(noise.floor, tauOf(chosen, nextCentre)) : noise.prior;
    const isSame = chosen.length === members.length && chosen.every((point, index) => point === members[index]);
    members = chosen;
    tauFrom = chosen.length >= MIN_FOR_TAU ? chosen.length : 0;
    if (isSame && Math.abs(nextCentre - centre) < 1e-12 && Math.abs(nextTau - tau) < 1e-12) break;
    centre = nextCentre;
    tau = nextTau;
  }
  const weights = members.map((point) => 1 / (point.within ** 2 + tau ** 2));
  const standardError = Math.sqrt(1 / weights.reduce((sum, weight) => sum + weight, 0));
  return { group: { shift: centre, standardError, keys: members.map((point) => point.key) }, tau, tauFrom };
}

/**
 * The machine's shift of a run: the largest group of benchmarks that moved together, its noise τ beyond
 * the repetitions (measured, at least `noise.floor`; or `noise.prior` for a small group), and other groups
 * that moved together. Null without a point.
 */
export function estimateMachineShift(points: readonly ShiftPoint[], noise: NoisePrior): MachineShift | null {
  const start = halfSampleMode(points.map((point) => point.y));
  if (start === null) return null;
  const main = groupAround(points, start, noise);
  const alternatives: ShiftGroup[] = [];
  const inMain = new Set(main.group.keys);
  let rest = points.filter((point) => !inMain.has(point.key));
  while (rest.length >= 2 && alternatives.length < 3) {
    const restStart = halfSampleMode(rest.map((point) => point.y))!;
    // The main group's τ: the other groups are read with the noise the run showed.
    const { group } = groupAround(rest, restStart, { prior: main.tau, floor: main.tau });
    if (group.keys.length < 2) break;
    alternatives.push(group);
    const inGroup = new Set(group.keys);
    rest = rest.filter((point) => !inGroup.has(point.key));
  }
  // A group as large as the main one whose centre is nearer 0 is the likelier machine shift.
  const rival = alternatives.find((group) => group.keys.length > main.group.keys.length || (group.keys.length === main.group.keys.length && Math.abs(group.shift) < Math.abs(main.group.shift)));
  if (rival) {
    const inRival = new Set(rival.keys);
    const swapped = groupAround(points.filter((point) => inRival.has(point.key)), rival.shift, noise);
    const others = [main.group, ...alternatives.filter((group) => group !== rival)];
    return { ...swapped.group, tau: Math.max(swapped.tau, main.tau), tauFrom: Math.max(swapped.tauFrom, main.tauFrom), alternatives: others };
  }
  return { ...main.group, tau: main.tau, tauFrom: main.tauFrom, alternatives };
}
