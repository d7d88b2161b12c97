import { describe, expect, it } from "vitest";
import { maxOf, minOf } from "./aggregate";

describe("minOf and maxOf", () => {
  it("handle more values than Math.min(...values) can take as arguments", () => {
    const values = Array.from({ length: 500_000 }, (_, index) => (index * 7919) % 500_000);
    expect(() => Math.min(...values)).toThrow(RangeError);
    expect(minOf(values)).toBe(0);
    expect(maxOf(values)).toBe(499_999);
  });

  it("give the identities for no values", () => {
    expect(minOf([])).toBe(Number.POSITIVE_INFINITY);
    expect(maxOf([])).toBe(Number.NEGATIVE_INFINITY);
  });
});
