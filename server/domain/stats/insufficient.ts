/**
 * "Not enough data" as a value (house style, habit 5): a statistic that cannot be computed says why,
 * instead of returning a sentinel such as -1, 0 or NaN that a caller could mistake for a measurement.
 */
export interface InsufficientData {
  readonly status: "insufficient";
  /** Human-readable, e.g. "insufficient data: need 2 values, have 1". */
  readonly reason: string;
}

export function insufficientData(reason: string): InsufficientData {
  return { status: "insufficient", reason };
}

/** The usual message for a sample that is too small. */
export function tooFewValues(need: number, have: number, what = "values"): InsufficientData {
  return insufficientData(`insufficient data: need ${need} ${what}, have ${have}`);
}

export function isInsufficient<T extends { readonly status: string }>(
  result: T | InsufficientData,
): result is InsufficientData {
  return result.status === "insufficient";
}

/** Statistics are computed on finite numbers only; a NaN or Infinity here is a caller's bug. */
export function assertFiniteValues(values: readonly number[], name: string): void {
  values.forEach((value, index) => {
    if (!Number.isFinite(value)) {
      throw new RangeError(`${name}[${index}] is ${value}; statistics need finite numbers`);
    }
  });
}
