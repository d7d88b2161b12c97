import { describe, expect, it } from "vitest";
import { logTicks } from "./log-ticks";

describe("logTicks", () => {
  it("puts 1-2-5 ticks inside a narrow range", () => {
    expect(logTicks(0.8, 30)).toEqual([1, 2, 5, 10, 20]);
  });
  it("keeps to decades over a wide range", () => {
    expect(logTicks(0.05, 20000)).toEqual([0.1, 1, 10, 100, 1000, 10000]);
  });
  it("gives nothing for a range a log axis cannot draw", () => {
    expect(logTicks(0, 10)).toEqual([]);
  });
});
