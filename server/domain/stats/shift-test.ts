/**
 * Did head move away from base, beyond what the measurement can show? One metric's test, one-sided in
 * the direction the values moved, with two floors a verdict needs to be honest (docs/statistics.md,
 * "Resolution and noise floors"):
 *
 * - **Resolution.** Tools write numbers in steps (Locust counts whole milliseconds below 100 ms, wrk
 *   prints two decimals). The true difference of two such readings can be anywhere within one step of
 *   the printed one, so a difference of at most one step is never significant, and a larger one is
 *   tested as if it were one step smaller: head is moved one step towards base first. Why a full step:
 *   the base mean and the head each carry up to half a step of rounding.
 * - **Noise floor.** A window whose values are all equal (whole-ms values of a steady endpoint) has a
 *   standard deviation of 0, which would make any difference "certain". The spread used is at least
 *   the larger of: the quantisation noise of one reading, step/√12 (Sheppard 1898: the variance of a
 *   uniform rounding error); half the series' longer-run noise when it is known (a window implausibly
 *   quieter than its own series borrows); and 0.1% of the level (no benchmark repeats closer than that).
 *
 * Tests: with one head value, the prediction-interval t test (base variance, df = n − 1; Montgomery &
 * Runger §8.7); "student": the pooled-variance t test (df = n_b + n_h − 2), exact when nothing changed
 * and the head's rounds vary as the history does; "welch": Welch's t test (each side's own variance);
 * "mann-whitney": the rank test on the shifted values (no noise floor: ties carry it). The p-value is
 * one-sided in the direction of the observed change, half the two-sided one for these symmetric nulls:
 * each verdict ("regressed", "improved") is a directional claim with its own error rate α.
 */
import tCdf from "@stdlib/stats-base-dists-t-cdf";
import { mean, sampleVariance } from "./descriptive";
import { mannWhitneyUTest } from "./mann-whitney";
import { isInsufficient } from "./insufficient";
import { welchTTestFromMoments } from "./welch-t-test";

export type ShiftTestName = "prediction" | "student" | "welch" | "mann-whitney";

/** A window this much quieter than its series' longer-run noise borrows it (as a floor of half of it). */
export const LONG_RUN_NOISE_SHARE = 0.5;
/** Relative floor of the spread: 0.1% of the base level. */
export const RELATIVE_NOISE_FLOOR = 0.001;

export interface ShiftTestInput {
  base: readonly number[];
  head: readonly number[];
  test: "student" | "welch" | "mann-whitney";
  /** The step the values were written in (same unit as the values); 0 when exact. */
  resolution: number;
  /** The series' longer-run run-to-run standard deviation at the base's level (same unit), when known. */
  longRunSd: number | null;
}

export interface ShiftTestResult {
  test: ShiftTestName;
  /** One-sided, in the direction of head − base; 1 when the difference is within the resolution. */
  pValue: number;
  /** Standard error of head − base after the floors (null for Mann–Whitney). */
  standardError: number | null;
  degreesOfFreedom: number | null;
  /** |head mean − base mean| ≤ resolution: not a measurable difference. */
  isWithinResolution: boolean;
  /** Which floor set the spread, when one did. */
  floor: "resolution" | "long-run" | "relative" | null;
}

/** The smallest standard deviation a window is allowed, and which floor gives it. */
export function noiseFloor(level: number, resolution: number, longRunSd: number | null): { sd: number; kind: "resolution" | "long-run" | "relative" } {
  const candidates = [
    { sd: resolution / Math.sqrt(12), kind: "resolution" as const },
    { sd: longRunSd === null ? 0 : LONG_RUN_NOISE_SHARE * longRunSd, kind: "long-run" as const },
    { sd: RELATIVE_NOISE_FLOOR * Math.abs(level), kind: "relative" as const },
  ];
  return candidates.reduce((largest, candidate) => (candidate.sd > largest.sd ? candidate : largest));
}

function oneSidedT(t: number, degreesOfFreedom: number): number {
  if (!Number.isFinite(t)) return 0;
  return tCdf(-Math.abs(t), degreesOfFreedom);
}

/** Needs base.length ≥ 2 and head.length ≥ 1 (the comparison checks how many it has first). */
export function testShift(input: ShiftTestInput): ShiftTestResult {
  const { base, head, resolution } = input;
  if (base.length < 2 || head.length < 1) throw new RangeError("testShift needs ≥ 2 base values and ≥ 1 head value");
  const baseMean = mean(base);
  const delta = mean(head) - baseMean;
  if (Math.abs(delta) <= resolution) {
    return { test: head.length === 1 ? "prediction" : input.test, pValue: 1, standardError: null, degreesOfFreedom: null, isWithinResolution: true, floor: null };
  }
  const shift = Math.sign(delta) * resolution;
  const shifted = head.map((value) => value - shift);
  const floor = noiseFloor(baseMean, resolution, input.longRunSd);

  if (input.test === "mann-whitney" && head.length >= 2) {
    const result = mannWhitneyUTest(base, shifted);
    const pValue = isInsufficient(result) ? 1 : Math.min(1, result.pValue / 2);
    return { test: "mann-whitney", pValue, standardError: null, degreesOfFreedom: null, isWithinResolution: false, floor: null };
  }
  const baseVariance = sampleVariance(base);
  const headVariance = head.length >= 2 ? sampleVariance(shifted) : 0;
  const shiftedDelta = delta - shift;
  if (input.test === "welch" && head.length >= 2) {
    const floored = (variance: number) => Math.max(variance, floor.sd * floor.sd);
    const didFloor = floored(baseVariance) > baseVariance || floored(headVariance) > headVariance;
    const result = welchTTestFromMoments(
      { n: base.length, mean: baseMean, variance: floored(baseVariance) },
      { n: head.length, mean: baseMean + shiftedDelta, variance: floored(headVariance) },
    );
    return {
      test: "welch",
      pValue: oneSidedT(result.t, result.degreesOfFreedom),
      standardError: result.standardError,
      degreesOfFreedom: result.degreesOfFreedom,
      isWithinResolution: false,
      floor: didFloor ? floor.kind : null,
    };
  }
  // Pooled variance (one head value: the base's variance alone, the prediction-interval test).
  const degreesOfFreedom = base.length + head.length - 2;
  const pooledVariance = ((base.length - 1) * baseVariance + (head.length - 1) * headVariance) / degreesOfFreedom;
  const sd = Math.max(Math.sqrt(Math.max(0, pooledVariance)), floor.sd);
  const standardError = sd * Math.sqrt(1 / base.length + 1 / head.length);
  const t = shiftedDelta / standardError;
  return {
    test: head.length === 1 ? "prediction" : "student",
    pValue: oneSidedT(t, degreesOfFreedom),
    standardError,
    degreesOfFreedom,
    isWithinResolution: false,
    floor: sd > Math.sqrt(Math.max(0, pooledVariance)) ? floor.kind : null,
  };
}
