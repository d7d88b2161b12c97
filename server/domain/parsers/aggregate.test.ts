import { describe, expect, it } from "vitest";
import { addCounts, maxOf, mergeCountsIfAllKnown, minOf, sumOfCounts } from "./aggregate";

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

describe("addCounts and sumOfCounts", () => {
  it("add count maps key by key", () => {
    const added = addCounts([{ "200": 3, "500": 1 }, {}, { "404": 2, "200": 1 }]);
    expect(added).toEqual({ "200": 4, "500": 1, "404": 2 });
    expect(addCounts([])).toEqual({});
    expect(sumOfCounts(added)).toBe(7);
    expect(sumOfCounts({})).toBe(0);
  });

  it("leave a merge unknown when one map is unknown", () => {
    expect(mergeCountsIfAllKnown([{ OK: 2 }, null])).toBeNull();
    expect(mergeCountsIfAllKnown([])).toBeNull();
    expect(mergeCountsIfAllKnown([{ OK: 2 }, { OK: 1, Canceled: 1 }])).toEqual({ OK: 3, Canceled: 1 });
  });
});
