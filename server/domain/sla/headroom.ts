/**
 * How far a check's value sits from its threshold, as a ratio and a phrase ("27× under target",
 * "12% over target"). The ratio always reads "bigger is safer": threshold / value when lower is better
 * (latency ≤ 50 ms), value / threshold when higher is better (throughput ≥ 900 req/s). So > 1 is inside
 * the target, 1 is on it, < 1 is outside it, and sorting by ratio puts the limiting check first.
 */
import { isLowerBetter, type SlaOperator } from "./policy";

export interface Headroom {
  /**
   * "Bigger is safer" ratio (see module comment). null when it is unbounded (a zero latency or error
   * rate) or meaningless (negative numbers); `label` still says which side of the target the value is.
   */
  ratio: number | null;
  label: string;
}

/** From this ratio up, the phrase uses a factor ("3.2× under target") rather than a percentage. */
const FACTOR_FROM = 2;

/**
 * The raw ratio, with Infinity for "unbounded" and NaN for "meaningless", for ordering checks.
 * 0 / 0 counts as exactly on target.
 */
export function headroomRatio(value: number, op: SlaOperator, threshold: number): number {
  if (value < 0 || threshold < 0) return Number.NaN;
  if (value === 0 && threshold === 0) return 1;
  return isLowerBetter(op) ? threshold / value : value / threshold;
}

export function headroomOf(value: number, op: SlaOperator, threshold: number, passed: boolean): Headroom {
  const ratio = headroomRatio(value, op, threshold);
  return { ratio: Number.isFinite(ratio) ? ratio : null, label: labelFor(ratio, isLowerBetter(op), passed) };
}

function labelFor(ratio: number, lowerIsBetter: boolean, passed: boolean): string {
  const safeSide = lowerIsBetter ? "under" : "above";
  const unsafeSide = lowerIsBetter ? "over" : "below";
  if (Number.isNaN(ratio)) return passed ? "within target" : "outside target";
  if (ratio === Number.POSITIVE_INFINITY) return lowerIsBetter ? "zero, under target" : "above a zero target";
  if (ratio === 0) return lowerIsBetter ? "over a zero target" : "zero, below target";
  if (ratio === 1) return "at target";
  if (ratio >= FACTOR_FROM) return `${formatFactor(ratio)}× ${safeSide} target`;
  if (ratio > 1) {
    // Distance as a share of the threshold: 37 ms against 50 ms is 26% under; 1200 against 900 is 33% above.
    const share = lowerIsBetter ? 1 - 1 / ratio : ratio - 1;
    return `${formatShare(share)} ${safeSide} target`;
  }
  if (1 / ratio >= FACTOR_FROM) return `${formatFactor(1 / ratio)}× ${unsafeSide} target`;
  const share = lowerIsBetter ? 1 / ratio - 1 : 1 - ratio;
  return `${formatShare(share)} ${unsafeSide} target`;
}

/** 27.3 → "27", 2.54 → "2.5": two significant figures is all a headline factor needs. */
function formatFactor(factor: number): string {
  return factor >= 10 ? String(Math.round(factor)) : String(Number(factor.toPrecision(2)));
}

/** 0.123 → "12%", 0.004 → "0.4%": whole percents, one decimal below 10% so near misses are visible. */
function formatShare(share: number): string {
  const percent = share * 100;
  return `${percent >= 10 ? Math.round(percent) : Number(percent.toFixed(1))}%`;
}
