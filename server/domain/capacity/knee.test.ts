import { describe, expect, it } from "vitest";
import { findKnee, KNEE_SLOPE_RATIO, MIN_LATENCY_RISE } from "./knee";

const curve = (pairs: readonly [number, number][]) => pairs.map(([load, latencyMs]) => ({ load, latencyMs }));

describe("findKnee", () => {
  it("finds the classic knee of an M/M/1 queue at 80% utilisation", () => {
    // Service rate 1,000 req/s: response time 1/(μ − λ) = 1.25, 2, 5, 10 ms at λ = 200, 500, 800, 900 req/s.
    // x̂ = 0, 0.429, 0.857, 1; ŷ = 0, 0.086, 0.429, 1; d = x̂ − ŷ peaks at λ = 800 (0.429).
    // Slopes: (5 − 1.25)/600 = 0.00625 ms per req/s up to it, (10 − 5)/100 = 0.05 past it: 8×.
    const knee = findKnee(
      curve([
        [200, 1.25],
        [500, 2],
        [800, 5],
        [900, 10],
      ]),
    );
    expect(knee).toMatchObject({ status: "knee", index: 2, load: 800, latencyMs: 5 });
    if (knee.status !== "knee") throw new Error("no knee");
    expect(knee.slopeRatio).toBeCloseTo(8, 10);
  });

  it("finds the knee of three levels made of the bundled ghz GetListing rounds (p95)", () => {
    // Concurrency 10: the median of baseline rounds 1 and 2 (9.93, 9.66 ms); 20: baseline round 3;
    // 40: ManagedAsync round 1. Flat, then +86%: latency took off past concurrency 20.
    const knee = findKnee(
      curve([
        [10, 9.795],
        [20, 9.8],
        [40, 18.19],
      ]),
    );
    expect(knee).toMatchObject({ status: "knee", index: 1, load: 20, latencyMs: 9.8 });
    if (knee.status !== "knee") throw new Error("no knee");
    // (18.19 − 9.8)/20 past it against (9.8 − 9.795)/10 up to it.
    expect(knee.slopeRatio).toBeCloseTo(8.39 / 20 / (0.005 / 10), 6);
  });

  it("puts the knee at the last level before a jump at the highest load", () => {
    const knee = findKnee(
      curve([
        [10, 10],
        [20, 10.2],
        [30, 10.1],
        [40, 10.4],
        [50, 25],
      ]),
    );
    expect(knee).toMatchObject({ status: "knee", load: 40 });
  });

  it("calls a flat-then-rising curve a knee even when latency dipped before it (no slope to compare)", () => {
    const knee = findKnee(
      curve([
        [50, 12],
        [100, 11.5],
        [200, 30],
      ]),
    );
    expect(knee).toMatchObject({ status: "knee", load: 100, slopeRatio: null });
  });

  it("finds none on a straight line: latency grows as fast at low load as at high load", () => {
    const knee = findKnee(
      curve([
        [10, 5],
        [20, 10],
        [30, 15],
        [40, 20],
      ]),
    );
    if (knee.status !== "no-knee") throw new Error(`expected no knee, got ${knee.status}`);
    expect(knee.reason).toMatch(/^no knee in the measured range: p95 grows/);
  });

  it(`finds none on a mild curve whose slope grows less than ${KNEE_SLOPE_RATIO}×`, () => {
    // Slope 0.1 ms/VU up to 50 VUs, 0.15 past it.
    const knee = findKnee(
      curve([
        [10, 10],
        [50, 14],
        [90, 20],
      ]),
    );
    expect(knee).toEqual({
      status: "no-knee",
      reason:
        "no knee in the measured range: p95 grows only 1.5× faster per unit of load at high load than at low load",
    });
  });

  it(`finds none when latency rises less than ${100 * MIN_LATENCY_RISE}% over the range (noise, not a bend)`, () => {
    expect(
      findKnee(
        curve([
          [10, 9.9],
          [20, 9.7],
          [40, 12.3],
        ]),
      ),
    ).toEqual({
      status: "no-knee",
      reason: "no knee in the measured range: p95 rises only 24% from the lowest load to the highest",
    });
    expect(
      findKnee(
        curve([
          [10, 20],
          [20, 18],
          [40, 15],
        ]),
        "p99",
      ),
    ).toEqual({
      status: "no-knee",
      reason: "no knee in the measured range: p99 does not rise from the lowest load to the highest",
    });
  });

  it("finds none on a concave curve (latency climbs early, then levels off)", () => {
    expect(
      findKnee(
        curve([
          [10, 5],
          [20, 12],
          [40, 14],
        ]),
      ),
    ).toMatchObject({ status: "no-knee" });
  });

  it("says too few load levels under three", () => {
    expect(
      findKnee(
        curve([
          [10, 5],
          [20, 50],
        ]),
      ),
    ).toEqual({ status: "insufficient", reason: "too few load levels: need 3, have 2" });
    expect(findKnee([])).toEqual({ status: "insufficient", reason: "too few load levels: need 3, have 0" });
  });

  it("refuses unordered levels and non-finite numbers: a caller's bug", () => {
    expect(() =>
      findKnee(
        curve([
          [20, 5],
          [10, 6],
          [30, 20],
        ]),
      ),
    ).toThrow(RangeError);
    expect(() =>
      findKnee(
        curve([
          [10, 5],
          [10, 6],
          [30, 20],
        ]),
      ),
    ).toThrow(RangeError);
    expect(() =>
      findKnee(
        curve([
          [10, 5],
          [20, Number.NaN],
          [30, 20],
        ]),
      ),
    ).toThrow(RangeError);
  });
});
