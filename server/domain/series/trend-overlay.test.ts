import { describe, expect, it } from "vitest";
import {
  bandAtTimes,
  describeOverlayPosition,
  describeOverlayTarget,
  parseOverlay,
  placeOverlayOnRunAxis,
  positionInBand,
  rollingNoiseBand,
  serializeOverlay,
  toOverlaySeries,
} from "./trend-overlay";

// Hand computation (as noise-band.test.ts): median 100.5; |successive differences| 2, 3, 2, 1, 3, median 2;
// half-width = 3 · 1.4826 · 2 = 8.8956 ms; band 91.6044 … 109.3956.
const HISTORY = [100, 102, 99, 101, 100, 103];

describe("parseOverlay", () => {
  it("reads branch:<name> and pr:<number>, and round-trips", () => {
    expect(parseOverlay("branch:feature/x")).toEqual({ kind: "branch", branch: "feature/x" });
    expect(parseOverlay("pr:42")).toEqual({ kind: "pr", pullRequest: 42 });
    expect(serializeOverlay({ kind: "pr", pullRequest: 42 })).toBe("pr:42");
    expect(serializeOverlay({ kind: "branch", branch: "a:b" })).toBe("branch:a:b");
    expect(parseOverlay("branch:a:b")).toEqual({ kind: "branch", branch: "a:b" });
  });

  it("takes anything malformed for no overlay", () => {
    for (const value of [null, "", "branch:", "pr:x", "pr:-1", "tag:v1", "feature/x"]) {
      expect(parseOverlay(value)).toBeNull();
    }
  });

  it("names the target for a sentence", () => {
    expect(describeOverlayTarget({ kind: "branch", branch: "feature/x" })).toBe("the branch feature/x");
    expect(describeOverlayTarget({ kind: "pr", pullRequest: 7 })).toBe("PR #7");
  });
});

describe("rollingNoiseBand", () => {
  it("is the median ± 3 × the run-to-run noise of the window, once 5 runs are known", () => {
    const bands = rollingNoiseBand(HISTORY);
    expect(bands.slice(0, 4)).toEqual([null, null, null, null]);
    const last = bands[5]!;
    expect(last.medianMs).toBeCloseTo(100.5, 10);
    expect(last.lowMs).toBeCloseTo(91.6044, 4);
    expect(last.highMs).toBeCloseTo(109.3956, 4);
    expect(last.runs).toBe(6);
  });

  it("rolls over the last N runs only, and skips missing values", () => {
    const bands = rollingNoiseBand([500, 500, ...HISTORY, null], { windowRuns: 6 });
    expect(bands[7]!.medianMs).toBeCloseTo(100.5, 10);
    expect(bands[8]).toEqual(bands[7]);
  });

  it("has no band over a median of 0", () => {
    expect(rollingNoiseBand([0, 0, 0, 0, 0, 0])).toEqual([null, null, null, null, null, null]);
  });
});

describe("placeOverlayOnRunAxis", () => {
  const base = [
    { order: 1, time: 10 },
    { order: 2, time: 20 },
    { order: 3, time: 30 },
  ];

  it("places each run after the base run it followed, spread within the gap", () => {
    const placed = placeOverlayOnRunAxis(base, [5, 21, 22, 25, 30, 99]);
    expect(placed.slice(0, 4)).toEqual([0.5, 2.25, 2.5, 2.75]);
    expect(placed[4]).toBeCloseTo(3 + 1 / 3, 10);
    expect(placed[5]).toBeCloseTo(3 + 2 / 3, 10);
  });

  it("keeps a thinned history's numbers (the drawn runs' own)", () => {
    expect(
      placeOverlayOnRunAxis(
        [
          { order: 1, time: 10 },
          { order: 40, time: 400 },
        ],
        [200],
      ),
    ).toEqual([1.5]);
  });
});

describe("positionInBand and bandAtTimes", () => {
  const band = { medianMs: 100, lowMs: 90, highMs: 110, runs: 5 };

  it("says above, within or below, inclusive of the edges", () => {
    expect(positionInBand(111, band)).toBe("above");
    expect(positionInBand(110, band)).toBe("within");
    expect(positionInBand(90, band)).toBe("within");
    expect(positionInBand(89, band)).toBe("below");
    expect(positionInBand(null, band)).toBeNull();
    expect(positionInBand(100, null)).toBeNull();
  });

  it("judges a run by the band as it stood when the run started", () => {
    const other = { ...band, highMs: 200 };
    const base = [
      { time: 10, band: null },
      { time: 20, band },
      { time: 30, band: other },
    ];
    expect(bandAtTimes(base, [5, 15, 25, 35])).toEqual([null, null, band, other]);
  });
});

describe("describeOverlayPosition", () => {
  const names = { overlay: "the branch feature/x", base: "main" };

  it("says where the last 3 runs sit when they agree", () => {
    expect(describeOverlayPosition(["within", "above", "above", "above"], names)).toBe(
      "The branch feature/x's last 3 runs are above main's p95 noise band.",
    );
    expect(describeOverlayPosition(["within"], { overlay: "PR #7", base: "main" })).toBe(
      "PR #7's last run is within main's p95 noise band.",
    );
  });

  it("counts them when they do not", () => {
    expect(describeOverlayPosition(["above", "within", "above"], names)).toBe(
      "Of the branch feature/x's last 3 runs, 2 are above main's p95 noise band and 1 is within it.",
    );
    expect(describeOverlayPosition(["below", null], names)).toBe(
      "Of the branch feature/x's last 2 runs, 1 is below main's p95 noise band and 1 has no band to compare with.",
    );
  });

  it("says why when there is no band yet, or no run", () => {
    expect(describeOverlayPosition([null, null], names)).toBe(
      "Not enough data: main's p95 noise band needs 5 of its runs before the branch feature/x's last 2 runs.",
    );
    expect(describeOverlayPosition([], names)).toBe("The branch feature/x has no runs in this series.");
  });
});

describe("toOverlaySeries", () => {
  const base = [
    { runId: "a", time: 10, order: 1, p95Ms: 100 },
    { runId: "b", time: 30, order: 2, p95Ms: 102 },
  ];
  const run = {
    runId: "o",
    time: 20,
    order: 1.5,
    label: null,
    round: null,
    branch: "f",
    commitShort: null,
    p95Ms: 130,
  };

  it("merges base points (with the band) and overlay runs (under their own key) by x", () => {
    const series = toOverlaySeries(base, [{ order: 2, lowMs: 90, highMs: 110 }], [run], "time");
    expect(series.map((point) => point.x)).toEqual([10, 20, 30]);
    expect(series.map((point) => point.noiseBandMs)).toEqual([null, null, [90, 110]]);
    expect(series.map((point) => point.overlayP95Ms)).toEqual([null, 130, null]);
    expect(series[1]).not.toHaveProperty("p95Ms");
    expect(toOverlaySeries(base, [], [run], "order").map((point) => point.x)).toEqual([1, 1.5, 2]);
  });
});
