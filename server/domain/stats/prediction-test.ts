/**
 * Is one new value (a single head run) consistent with a group of earlier values (the base rounds)?
 * The prediction-interval t test: under "same distribution", (x − mean) / (s · √(1 + 1/n)) follows
 * Student's t with n − 1 degrees of freedom (e.g. Montgomery & Runger, "Applied Statistics and
 * Probability for Engineers", §8.7 "Tolerance and prediction intervals"). It asks the right question
 * for "did this run get slower than the recent ones?", where Welch's test would need ≥ 2 head runs.
 */
import { sampleStandardDeviation, mean as meanOf } from "./descriptive";
import { assertFiniteValues, tooFewValues } from "./insufficient";
import type { InsufficientData } from "./insufficient";
import { twoSidedTCritical, twoSidedTPValue } from "./t-distribution";

export interface PredictionTestResult {
  readonly status: "ok";
  readonly t: number;
  readonly degreesOfFreedom: number;
  readonly pValue: number;
  /** 95% prediction interval for one more value from the group. */
  readonly predictionInterval95: readonly [number, number];
}

export function predictionTest(group: readonly number[], value: number): PredictionTestResult | InsufficientData {
  assertFiniteValues(group, "group");
  assertFiniteValues([value], "value");
  if (group.length < 2) return tooFewValues(2, group.length, "values in the group");
  const mean = meanOf(group);
  const spread = sampleStandardDeviation(group) * Math.sqrt(1 + 1 / group.length);
  const degreesOfFreedom = group.length - 1;
  const half = twoSidedTCritical(0.95, degreesOfFreedom) * spread;
  const predictionInterval95 = [mean - half, mean + half] as const;
  if (spread === 0) {
    // A group without spread: any other value is a certain difference, the same value none.
    const t = value === mean ? 0 : Math.sign(value - mean) * Number.POSITIVE_INFINITY;
    return { status: "ok", t, degreesOfFreedom, pValue: value === mean ? 1 : 0, predictionInterval95 };
  }
  const t = (value - mean) / spread;
  return { status: "ok", t, degreesOfFreedom, pValue: twoSidedTPValue(t, degreesOfFreedom), predictionInterval95 };
}
