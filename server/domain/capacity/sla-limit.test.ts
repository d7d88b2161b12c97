import { describe, expect, it } from "vitest";
import { findSlaLimit } from "./sla-limit";

const pass = { passed: true, failures: [] };
const fail = { passed: false, failures: ["p95 18.2 ms, target <= 15 ms"] };
const noData = { passed: null, failures: [] };
const levels = (...slas: (typeof pass | typeof fail | typeof noData | null)[]) =>
  slas.map((sla, index) => ({ load: 10 * 2 ** index, sla }));

describe("findSlaLimit", () => {
  it("is the highest level that passed, with the first that failed above it", () => {
    expect(findSlaLimit(levels(pass, pass, fail), "-")).toEqual({
      status: "limit",
      load: 20,
      nextLoad: 40,
      failedBelow: [],
    });
  });

  it("names failing levels below the limit when the curve is not monotone", () => {
    expect(findSlaLimit(levels(pass, fail, pass, fail, fail), "-")).toEqual({
      status: "limit",
      load: 40,
      nextLoad: 80,
      failedBelow: [20],
    });
    expect(findSlaLimit(levels(fail, pass), "-")).toEqual({
      status: "limit",
      load: 20,
      nextLoad: null,
      failedBelow: [10],
    });
  });

  it("says when every level met it, and when none did", () => {
    expect(findSlaLimit(levels(pass, pass, pass), "-")).toEqual({ status: "all-met", highestLoad: 40 });
    expect(findSlaLimit(levels(fail, fail, fail), "-")).toEqual({ status: "none-met", lowestLoad: 10 });
  });

  it("skips levels without data, and says when none had any", () => {
    expect(findSlaLimit(levels(pass, noData, fail), "-")).toEqual({
      status: "limit",
      load: 10,
      nextLoad: 40,
      failedBelow: [],
    });
    expect(findSlaLimit(levels(noData, noData), "-")).toEqual({
      status: "no-data",
      reason: "none of the SLA targets that apply had data at any load level",
    });
  });

  it("has no limit without an SLA target, with the caller's reason", () => {
    expect(findSlaLimit(levels(null, null, null), "the project has no SLA targets")).toEqual({
      status: "no-sla",
      reason: "the project has no SLA targets",
    });
  });
});
