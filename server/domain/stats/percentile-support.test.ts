import { describe, expect, it } from "vitest";
import { minRequestsForPercentile, percentileUnsupportedReason } from "./percentile-support";

describe("minRequestsForPercentile", () => {
  it("asks for ten requests beyond the percentile", () => {
    expect([50, 90, 95, 99, 99.9].map(minRequestsForPercentile)).toEqual([20, 100, 200, 1000, 10000]);
    expect(minRequestsForPercentile(100)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("percentileUnsupportedReason", () => {
  it("names the smallest request count of the runs judged", () => {
    // Locust baseline round 3: GetAllCategories had 38 requests; its p99 is its slowest request.
    expect(percentileUnsupportedReason(99, [23, 26, 38])).toBe("too few requests to judge p99 (23; needs 1,000)");
    expect(percentileUnsupportedReason(50, [23, 26, 38])).toBeNull();
    expect(percentileUnsupportedReason(95, [1000, 999, 1001])).toBeNull();
  });

  it("does not hold unknown counts against a percentile", () => {
    expect(percentileUnsupportedReason(99, [null, null])).toBeNull();
    expect(percentileUnsupportedReason(99, [null, 50])).toMatch(/\(50; needs 1,000\)/);
  });
});
