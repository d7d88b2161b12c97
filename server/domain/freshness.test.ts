import { describe, expect, it } from "vitest";
import { assessFreshness, formatHours } from "./freshness";

const NOW = new Date("2025-11-20T12:00:00Z");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Start times `offsetsHours` hours before NOW. */
const hoursAgo = (...offsetsHours: number[]) => offsetsHours.map((hours) => new Date(NOW.getTime() - hours * HOUR));
/** One run a day at 09:00 UTC, the newest `firstDayAgo` days before NOW, `count` of them. */
const daily = (count: number, firstDayAgo: number) =>
  Array.from(
    { length: count },
    (_, index) => new Date(Date.parse("2025-11-20T09:00:00Z") - (firstDayAgo + index) * DAY),
  );

describe("assessFreshness", () => {
  it("has no runs: no-runs", () => {
    expect(assessFreshness([], NOW)).toEqual({
      status: "no-runs",
      lastRunAt: null,
      medianGapHours: null,
      cadence: null,
      missingAfterHours: null,
      message: "No runs yet.",
    });
  });

  it("a daily project whose last run was this morning is fresh", () => {
    const freshness = assessFreshness(daily(30, 0), NOW);
    expect(freshness).toMatchObject({
      status: "fresh",
      lastRunAt: new Date("2025-11-20T09:00:00Z"),
      medianGapHours: 24,
      cadence: "daily",
      missingAfterHours: 72,
    });
    expect(freshness.message).toBe("Last run 3 hours ago; this project usually uploads daily.");
  });

  it("a daily project silent for 4 days is missing data", () => {
    // Newest run 4 days before today's 09:00, i.e. 4 days 3 hours ago.
    const freshness = assessFreshness(daily(20, 4), NOW);
    expect(freshness.status).toBe("missing");
    expect(freshness.message).toBe("No run for 4 days; this project usually uploads daily.");
    expect(freshness.lastRunAt).toEqual(new Date("2025-11-16T09:00:00Z"));
  });

  it("waits max(3 days, 3 × median gap): a daily project 70 hours silent is still fresh, 73 hours missing", () => {
    const history = (lastHoursAgo: number) => hoursAgo(...Array.from({ length: 10 }, (_, i) => lastHoursAgo + 24 * i));
    expect(assessFreshness(history(70), NOW).status).toBe("fresh");
    expect(assessFreshness(history(73), NOW).status).toBe("missing");
  });

  it("a weekly project waits three weeks before it counts as missing", () => {
    const weekly = (lastDaysAgo: number) =>
      hoursAgo(...Array.from({ length: 8 }, (_, i) => 24 * (lastDaysAgo + 7 * i)));
    const fresh = assessFreshness(weekly(6), NOW);
    expect(fresh).toMatchObject({ status: "fresh", cadence: "weekly", medianGapHours: 168, missingAfterHours: 504 });
    expect(fresh.message).toBe("Last run 6 days ago; this project usually uploads weekly.");
    const missing = assessFreshness(weekly(22), NOW);
    expect(missing.status).toBe("missing");
    expect(missing.message).toBe("No run for 22 days; this project usually uploads weekly.");
  });

  it("counts runs less than an hour apart as one upload session (5 rounds per CI job)", () => {
    // Every day, 5 rounds 5 minutes apart: the median gap between runs is 5 minutes, between sessions 24 h.
    const rounds = daily(8, 0).flatMap((start) =>
      [0, 5, 10, 15, 20].map((minutes) => new Date(start.getTime() + minutes * 60_000)),
    );
    const freshness = assessFreshness(rounds, NOW);
    expect(freshness).toMatchObject({ status: "fresh", cadence: "daily", medianGapHours: 24 });
  });

  it("is robust to the odd skipped day: the median, not the mean, names the schedule", () => {
    // Gaps (days): 1, 1, 5, 1, 1, 1 → median 1 day; the mean would be 1.67 days.
    const times = hoursAgo(...[0, 1, 2, 7, 8, 9, 10].map((days) => 2 + 24 * days));
    expect(assessFreshness(times, NOW)).toMatchObject({ status: "fresh", cadence: "daily", medianGapHours: 24 });
  });

  it("a project with a few runs has no schedule yet: irregular, never missing", () => {
    const freshness = assessFreshness(hoursAgo(24 * 40, 24 * 41, 24 * 42), NOW);
    expect(freshness).toMatchObject({
      status: "irregular",
      cadence: null,
      missingAfterHours: null,
      medianGapHours: 24,
    });
    expect(freshness.message).toBe(
      "Last run 40 days ago; runs on only 3 occasions so far, too few to learn a schedule.",
    );
    expect(assessFreshness(hoursAgo(5), NOW).message).toBe(
      "Last run 5 hours ago; runs on only 1 occasion so far, too few to learn a schedule.",
    );
  });

  it("a project that uploads once a month or so is irregular: no run is expected", () => {
    const freshness = assessFreshness(hoursAgo(...[3, 33, 60, 95, 120, 150].map((days) => 24 * days)), NOW);
    expect(freshness.status).toBe("irregular");
    expect(freshness.medianGapHours).toBe(24 * 30);
    expect(freshness.message).toBe(
      "Last run 3 days ago; uploads are rare (about every 30 days), so no run is expected.",
    );
  });

  it("a daily median with too little recent evidence is irregular", () => {
    // 5 sessions, but 3 of them are a burst more than 30 days before the last run.
    const times = hoursAgo(0, 24, 24 * 60, 24 * 61, 24 * 62);
    const freshness = assessFreshness(times, NOW);
    // Session gaps 24, 1416, 24, 24 h → median 24 h (daily), but only 2 sessions in the 30 days before the last.
    expect(freshness).toMatchObject({ status: "irregular", medianGapHours: 24, cadence: null });
    expect(freshness.message).toBe("Last run less than a minute ago; uploads have no regular schedule.");
  });

  it("judges the window before the last run, so a daily project that stopped long ago is missing, not irregular", () => {
    const freshness = assessFreshness(daily(30, 45), NOW);
    expect(freshness.status).toBe("missing");
    expect(freshness.message).toBe("No run for 45 days; this project usually uploads daily.");
  });

  it("accepts runs in any order and a run slightly in the future (clock skew)", () => {
    const shuffled = [...daily(10, 0)].reverse();
    expect(assessFreshness(shuffled, NOW).lastRunAt).toEqual(new Date("2025-11-20T09:00:00Z"));
    const skewed = assessFreshness([new Date(NOW.getTime() + 60_000), ...daily(10, 1)], NOW);
    expect(skewed.status).toBe("fresh");
    expect(skewed.message).toBe("Last run less than a minute ago; this project usually uploads daily.");
  });
});

describe("formatHours", () => {
  it("says minutes, hours, then whole days", () => {
    expect(formatHours(0.01)).toBe("less than a minute");
    expect(formatHours(1 / 60)).toBe("1 minute");
    expect(formatHours(0.5)).toBe("30 minutes");
    expect(formatHours(1.9)).toBe("1 hour");
    expect(formatHours(47.9)).toBe("47 hours");
    expect(formatHours(99)).toBe("4 days");
  });
});
