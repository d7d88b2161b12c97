import { describe, expect, it } from "vitest";
import { describeRunOfPoint, shortCommit, toRunPoint } from "./run-point";

describe("shortCommit", () => {
  it("shortens commits as git does and keeps a missing one missing", () => {
    expect(shortCommit("9f1c2e7deadbeef")).toBe("9f1c2e7");
    expect(shortCommit("9f1c")).toBe("9f1c");
    expect(shortCommit(null)).toBeNull();
  });
});

describe("toRunPoint", () => {
  const run = {
    runId: "run-1",
    startedAt: new Date("2026-01-01T09:00:00Z"),
    label: "nightly",
    round: 2,
    branch: "main",
    commit: "9f1c2e7deadbeef",
  };

  it("places a stored run at its start time and the given position, with what its tooltip says", () => {
    expect(toRunPoint(run, 42)).toEqual({
      runId: "run-1",
      time: Date.UTC(2026, 0, 1, 9),
      order: 42,
      label: "nightly",
      round: 2,
      branch: "main",
      commitShort: "9f1c2e7",
    });
  });

  it("keeps a fractional position (an overlaid run between two base runs)", () => {
    expect(toRunPoint(run, 3.5).order).toBe(3.5);
  });

  it("keeps what the run does not say missing", () => {
    expect(describeRunOfPoint({ label: null, round: null, branch: null, commit: null })).toEqual({
      label: null,
      round: null,
      branch: null,
      commitShort: null,
    });
  });
});
