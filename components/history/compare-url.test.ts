import { describe, expect, it } from "vitest";
import { compareHref, splitCompareSelection } from "./compare-url";
import { commitLink, describeRunTime, formatRunTime } from "./run-time";

const run = (id: string, day: number, label: string | null = "baseline") => ({
  id,
  startedAt: new Date(Date.UTC(2026, 10, day, 10)),
  label,
});

describe("splitCompareSelection", () => {
  it("needs two runs", () => {
    expect(splitCompareSelection([])).toBeNull();
    expect(splitCompareSelection([run("a", 1)])).toBeNull();
    expect(splitCompareSelection([run("a", 1), run("a", 1)])).toBeNull();
  });

  it("puts the older of two runs in base and the newer in head, whatever the selection order", () => {
    expect(splitCompareSelection([run("new", 5, "x"), run("old", 2, "y")])).toMatchObject({ base: ["old"], head: ["new"] });
  });

  it("with more, bases on the runs sharing the oldest run's label, oldest first", () => {
    const selection = splitCompareSelection([
      run("m2", 6, "ManagedAsync"),
      run("b2", 2),
      run("m1", 5, "ManagedAsync"),
      run("b1", 1),
      run("b3", 7),
    ]);
    expect(selection).toMatchObject({ base: ["b1", "b2", "b3"], head: ["m1", "m2"] });
    expect(selection?.explanation).toMatch(/3 run\(s\) with the oldest run's label "baseline"/);
  });

  it("falls back to the oldest run as base when every run has the same label", () => {
    expect(splitCompareSelection([run("c", 3), run("a", 1), run("b", 2)])).toMatchObject({ base: ["a"], head: ["b", "c"] });
    expect(splitCompareSelection([run("c", 3, null), run("a", 1, null), run("b", 2, "x")])).toMatchObject({
      base: ["a", "c"],
      head: ["b"],
    });
  });
});

describe("compareHref", () => {
  it("builds the compare page URL with comma-separated ids", () => {
    expect(compareHref("listings", { base: ["b1", "b2"], head: ["h1"] })).toBe("/projects/listings/compare?base=b1,b2&head=h1");
    expect(compareHref("a b", { base: ["x/y"], head: ["z"] })).toBe("/projects/a%20b/compare?base=x%2Fy&head=z");
  });
});

describe("run times and commits", () => {
  it("formats start times in UTC, short in the cell and long in the title", () => {
    const date = new Date("2026-11-22T10:05:09Z");
    expect(formatRunTime(date)).toBe("2026-11-22 10:05");
    expect(describeRunTime(date, new Date("2026-11-25T11:00:00Z"))).toBe("2026-11-22 10:05:09 UTC · 3 d ago");
  });

  it("links a short commit to the repository when it has an http(s) URL", () => {
    expect(commitLink("https://github.com/acme/listings/", "9f1c2e7aa0b")).toEqual({
      text: "9f1c2e7",
      href: "https://github.com/acme/listings/commit/9f1c2e7aa0b",
    });
    expect(commitLink(null, "9f1c2e7aa0b")).toEqual({ text: "9f1c2e7", href: null });
    expect(commitLink("javascript:alert(1)", "9f1c2e7")).toEqual({ text: "9f1c2e7", href: null });
  });
});
