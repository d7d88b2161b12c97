import { describe, expect, it } from "vitest";
import { METRICS, metricRange } from "../metrics";
import { readFixtureJson } from "../parsers/fixtures/read-fixture";
import { parseGhz } from "../parsers/ghz/ghz";
import { median } from "../stats/descriptive";
import { learnNoiseBand } from "../stats/noise-band";
import {
  bandAtTimes,
  bandIndexesNeeded,
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

/** Base runs one hour apart with these p95 values (null: none reported). */
function baseRuns(values: readonly (number | null)[]) {
  return values.map((value, i) => ({ runId: `r${i}`, time: i * 3_600_000, value }));
}

describe("rollingNoiseBand", () => {
  it("is the median ± 3 × the run-to-run noise of the window, once 5 runs are known", () => {
    const bands = rollingNoiseBand(baseRuns(HISTORY));
    expect(bands.slice(0, 4)).toEqual([null, null, null, null]);
    const last = bands[5]!;
    expect(last.medianMs).toBeCloseTo(100.5, 10);
    expect(last.lowMs).toBeCloseTo(91.6044, 4);
    expect(last.highMs).toBeCloseTo(109.3956, 4);
    expect(last.runs).toBe(6);
  });

  it("learns from the last 20 runs only, and a run without a value gets the band of those before it", () => {
    const values = [...Array.from({ length: 20 }, (_, i) => 500 + (i % 2)), ...HISTORY, ...HISTORY, ...HISTORY, ...HISTORY, null];
    const bands = rollingNoiseBand(baseRuns(values));
    // After 24 runs at 100 ms, the 20 learnt from are all at 100 ms: the 500 ms runs no longer count.
    expect(bands[43]!.medianMs).toBeCloseTo(100.5, 10);
    expect(bands[43]!.runs).toBe(20);
    expect(bands[44]).toEqual(bands[43]);
  });

  it("has no band over a median of 0", () => {
    expect(rollingNoiseBand(baseRuns([0, 0, 0, 0, 0, 0]))).toEqual([null, null, null, null, null, null]);
  });

  it("starts again at a recorded change or a change marker: nothing before it is learnt from", () => {
    const runs = baseRuns([...HISTORY, 130, 131, 129, 132, 130, 131]);
    const recorded = rollingNoiseBand(runs, { regimeStarts: [{ runId: "r6" }] });
    // Runs 6–9 are 4 runs of the new level: no band; from run 10 (5 runs) it is theirs alone.
    expect(recorded.slice(6, 10)).toEqual([null, null, null, null]);
    expect(recorded[10]).toEqual(rollingNoiseBand(baseRuns([130, 131, 129, 132, 130]))[4]);
    expect(recorded[5]).toEqual(rollingNoiseBand(runs)[5]);
    // A marker between runs 5 and 6 starts the same regime.
    expect(rollingNoiseBand(runs, { regimeStarts: [{ at: runs[5]!.time + 60_000 }] })).toEqual(recorded);
  });
});

/**
 * The real ghz reports of GetAllCategories (p95 5.8–7.4 ms, then 9.2–10 ms on the ManagedAsync build),
 * cycled as the demo's nightly runs upload them: 18 baseline nights, then 12 after the slowdown. A low
 * latency whose rounds differ by a quarter of its level: a noisy, low-level series with a step.
 */
function ghzNights(): { runs: ReturnType<typeof baseRuns>; step: number } {
  const p95 = (variant: string, round: number) => {
    const run = parseGhz(readFixtureJson(`ghz/${variant}/round${round}/GetAllCategories.json`));
    return run.aggregate.latency.percentiles["95"]!;
  };
  const nights = (variant: string, count: number) => Array.from({ length: count }, (_, i) => p95(variant, (i % 3) + 1));
  return { runs: baseRuns([...nights("baseline", 18), ...nights("managedasync", 12)]), step: 18 };
}

describe("rollingNoiseBand on real ghz rounds with a step", () => {
  const { runs, step } = ghzNights();
  const range = metricRange(METRICS.p95);

  it("never reaches below 0 ms, though the rounds' noise is larger than the level", () => {
    const unclamped = rollingNoiseBand(runs);
    expect(Math.min(...unclamped.flatMap((band) => (band ? [band.lowMs] : [])))).toBeLessThan(0);
    const bands = rollingNoiseBand(runs, { range, regimeStarts: [{ runId: `r${step}` }] });
    for (const band of bands) if (band) expect(band.lowMs).toBeGreaterThanOrEqual(0);
    expect(bands.some((band) => band?.lowMs === 0)).toBe(true);
  });

  it("after the step, is learnt from the runs after it only (the recorded change)", () => {
    const bands = rollingNoiseBand(runs, { range, regimeStarts: [{ runId: `r${step}` }] });
    const after = runs.slice(step).map((run) => run.value!);
    expect(bands.slice(step, step + 4)).toEqual([null, null, null, null]);
    for (let i = step + 4; i < runs.length; i++) {
      const expected = learnNoiseBand(after.slice(0, i - step + 1), { range })!;
      expect(bands[i]).toEqual({ medianMs: expected.median, lowMs: expected.low, highMs: expected.high, runs: i - step + 1 });
      expect(bands[i]!.lowMs).toBeGreaterThan(Math.max(...runs.slice(0, step).map((run) => run.value!)));
    }
  });

  it("finds the step by itself once 6 runs follow it, when no change was recorded (another branch)", () => {
    const bands = rollingNoiseBand(runs, { range });
    const last = bands.at(-1)!;
    expect(last.runs).toBe(runs.length - step);
    expect(last.medianMs).toBeCloseTo(median(runs.slice(step).map((run) => run.value!))!, 10);
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

describe("bandIndexesNeeded", () => {
  it("is the drawn base runs and, for each overlay run, the last base run before it; rollingNoiseBand learns only those", () => {
    const base = [1, 2, 3, 4, 5, 6, 7].map((order) => ({ order, time: order * 10 }));
    const needed = bandIndexesNeeded(base, new Set([1, 7]), [35, 36, 5, 100]);
    expect([...needed].sort()).toEqual([0, 2, 6]);
    const runs = baseRuns([...HISTORY, 101]);
    const all = rollingNoiseBand(runs);
    const some = rollingNoiseBand(runs, { at: new Set([5]) });
    expect(some[5]).toEqual(all[5]);
    expect(some.filter((band) => band !== null)).toHaveLength(1);
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

  it("carries the band under an overlay run between two banded base runs, and leaves a gap where a base run has none", () => {
    const bands = [
      { order: 1, lowMs: 90, highMs: 110 },
      { order: 2, lowMs: 94, highMs: 130 },
    ];
    // At x = 20, a quarter of the way from 10 to 50.
    const later = [...base.slice(0, 1), { ...base[1]!, time: 50 }];
    expect(toOverlaySeries(later, bands, [run], "time")[1]!.noiseBandMs).toEqual([91, 115]);
    // No band at the base run after it (a change just happened): none under the overlay run either.
    expect(toOverlaySeries(later, bands.slice(0, 1), [run], "time")[1]!.noiseBandMs).toBeNull();
  });

  it("spreads each line's rounds of one commit in time mode, over the span of both lines", () => {
    const minute = 60_000;
    const nights = [0, 1, 2, 3].map((day) => ({ runId: `n${day}`, time: day * 86_400_000, order: day + 1, commitShort: `c${day}`, branch: "main" }));
    const rounds = [1, 2, 3].map((round) => ({ ...run, runId: `o${round}`, time: 86_400_000 + 18 * 3_600_000 + round * 3 * minute, order: 2 + round / 4, round, commitShort: "bbbbbbb" }));
    const series = toOverlaySeries(nights, [], rounds, "time");
    const drawn = series.filter((point) => point.overlayP95Ms !== null).map((point) => point.x);
    // 1% of the 3-day span apart (43.2 minutes), not 3 minutes.
    expect(drawn[1]! - drawn[0]!).toBeCloseTo(0.01 * 3 * 86_400_000, 6);
    expect(drawn[2]! - drawn[1]!).toBeCloseTo(0.01 * 3 * 86_400_000, 6);
    expect(series.filter((point) => point.overlayP95Ms === null).map((point) => point.x)).toEqual(nights.map((night) => night.time));
  });
});
