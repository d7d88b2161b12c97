import { describe, expect, it } from "vitest";
import { formatRunTime, timeTickFormatter, timeTicks } from "./time-axis";

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 22, 9, 37);

describe("timeTicks", () => {
  it("puts about six ticks on round UTC days", () => {
    const ticks = timeTicks(T0, T0 + 5 * DAY);
    expect(ticks).toEqual([1, 2, 3, 4, 5].map((days) => Date.UTC(2026, 10, 22 + days)));
  });

  it("uses coarser steps on long spans and never more than the target", () => {
    const ticks = timeTicks(T0, T0 + 3 * 365 * DAY);
    expect(ticks.length).toBeGreaterThan(1);
    expect(ticks.length).toBeLessThanOrEqual(6);
  });

  it("gives a single tick when every run started at once, none for nonsense", () => {
    expect(timeTicks(T0, T0)).toEqual([T0]);
    expect(timeTicks(T0, T0 - 1)).toEqual([]);
    expect(timeTicks(Number.NaN, T0)).toEqual([]);
  });
});

describe("time labels", () => {
  it("label ticks by span, in UTC", () => {
    expect(timeTickFormatter(DAY)(T0)).toBe("Nov 22, 09:37");
    expect(timeTickFormatter(30 * DAY)(T0)).toBe("Nov 22");
    expect(timeTickFormatter(800 * DAY)(T0)).toBe("Nov 2026");
  });

  it("formats a run's time in full", () => {
    expect(formatRunTime(T0)).toBe("2026-11-22 09:37 UTC");
    expect(formatRunTime(new Date(T0))).toBe("2026-11-22 09:37 UTC");
    expect(formatRunTime(Number.NaN)).toBe("—");
  });
});
