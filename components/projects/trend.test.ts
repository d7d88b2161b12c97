import { describe, expect, it } from "vitest";
import { describeTrend } from "./trend";

describe("describeTrend", () => {
  it("reads up as worse (red) and down as better (green) for latency", () => {
    const base = { kind: "change", latestMs: 12, medianMs: 10, relativeDelta: 0.2, previousRuns: 10 } as const;
    expect(describeTrend({ ...base, direction: "up" })).toEqual({
      symbol: "↑",
      tone: "bad",
      word: "worse",
      delta: "+20.0%",
      title: "Latest p95 12 ms vs median 10 ms of the previous 10 runs: +20.0%. Worse: more than 5% slower.",
    });
    expect(describeTrend({ ...base, latestMs: 8, relativeDelta: -0.2, direction: "down" })).toMatchObject({ symbol: "↓", tone: "good" });
    expect(describeTrend({ ...base, latestMs: 10.2, relativeDelta: 0.02, previousRuns: 1, direction: "flat" })).toMatchObject({
      symbol: "→",
      tone: "neutral",
      title: "Latest p95 10.2 ms vs median 10 ms of the previous run: +2.0%. Within ±5%: steady.",
    });
  });

  it("says why there is no trend", () => {
    expect(describeTrend({ kind: "insufficient", reason: "need 2 runs with a p95, have 1" })).toEqual({
      symbol: "·",
      tone: "neutral",
      word: "no trend",
      delta: "",
      title: "No trend: need 2 runs with a p95, have 1.",
    });
  });
});
