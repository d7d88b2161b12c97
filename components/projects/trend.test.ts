import { describe, expect, it } from "vitest";
import { describeIncidentMark, describeTrend, describeUnsettled } from "./trend";

describe("describeTrend", () => {
  it("reads a significant rise as worse (red), a significant fall as better (green), anything else as no significant change", () => {
    const base = { kind: "change", latestMs: 12, medianMs: 10, relativeDelta: 0.2, previousRuns: 10, pValue: 0.0004 } as const;
    expect(describeTrend({ ...base, direction: "up" })).toEqual({
      symbol: "↑",
      tone: "bad",
      word: "worse",
      delta: "+20.0%",
      text: "+20.0%",
      title: "Latest p95 12 ms vs median 10 ms of the previous 10 runs of this series: +20.0% (p < 0.001). Worse: more than 5% slower, and significant.",
    });
    expect(describeTrend({ ...base, latestMs: 8, relativeDelta: -0.2, direction: "down" })).toMatchObject({ symbol: "↓", tone: "good" });
    expect(describeTrend({ ...base, latestMs: 10.2, relativeDelta: 0.02, previousRuns: 1, pValue: null, direction: "flat" })).toMatchObject({
      symbol: "→",
      tone: "neutral",
      word: "no significant change",
      text: "no sig. change",
      title: "Latest p95 10.2 ms vs median 10 ms of the previous run of this series: +2.0%. Within ±5%: no significant change.",
    });
    expect(describeTrend({ ...base, pValue: 0.31, direction: "flat" })).toMatchObject({
      symbol: "→",
      tone: "neutral",
      title: "Latest p95 12 ms vs median 10 ms of the previous 10 runs of this series: +20.0% (p = 0.31). No significant change: within what the previous runs produce.",
    });
  });

  it("says why there is no trend", () => {
    expect(describeTrend({ kind: "insufficient", reason: "need 2 runs with a p95, have 1" })).toEqual({
      symbol: "·",
      tone: "neutral",
      word: "no trend",
      delta: "",
      text: "",
      title: "No trend: need 2 runs with a p95, have 1.",
    });
  });

  it("names the recorded change the previous runs start at or stop before", () => {
    const base = { kind: "change", latestMs: 13, medianMs: 10, relativeDelta: 0.3, previousRuns: 10, pValue: 0.0004, direction: "up" } as const;
    expect(describeTrend({ ...base, before: "incident #3", since: null }).title).toBe(
      "Latest p95 13 ms vs median 10 ms of the previous 10 runs of this series before incident #3: +30.0% (p < 0.001). Worse: more than 5% slower, and significant.",
    );
    expect(describeTrend({ ...base, previousRuns: 1, pValue: null, direction: "flat", since: "accepted incident #2", before: null }).title).toMatch(
      /^Latest p95 13 ms vs median 10 ms of the previous run of this series since accepted incident #2: \+30\.0%\./,
    );
  });
});

describe("never 'no significant change' with too few runs since a step", () => {
  const flat = { kind: "change", direction: "flat", latestMs: 10.2, medianMs: 10, relativeDelta: 0.02, previousRuns: 10, pValue: 0.4 } as const;
  const day = (date: string) => new Date(`${date}T03:00:00Z`);

  it("says the runs since a step the gate failed are too few to tell, with the step's day and how many of how many", () => {
    const failing = { kind: "failing", runs: 2, needed: 6, since: day("2026-11-10"), sinceKind: "change", sinceWords: null } as const;
    expect(describeTrend({ ...flat, unsettled: failing })).toEqual({
      symbol: "·",
      tone: "neutral",
      word: "too few runs to tell",
      delta: "+2.0%",
      text: "too few runs since the step on 2026-11-10 to tell (2 of 6)",
      title:
        "Latest p95 10.2 ms vs median 10 ms of the previous 10 runs of this series: +2.0% (p = 0.4). The latest 2 runs of this series failed the CI gate, from the run of 2026-11-10 on: a step change-point detection has not confirmed yet (it needs 6 runs after it). Too few runs since it to tell where the level is.",
    });
    expect(describeUnsettled({ ...failing, runs: 7 }).text).toBe("step on 2026-11-10 not confirmed yet (7 runs)");
    // An arrow that points keeps its delta; the tooltip says the level is young.
    const up = describeTrend({ ...flat, direction: "up", latestMs: 13, relativeDelta: 0.3, unsettled: failing });
    expect(up).toMatchObject({ symbol: "↑", text: "+30.0%" });
    expect(up.title).toMatch(/Worse: more than 5% slower, and significant\. The latest 2 runs of this series failed the CI gate/);
  });

  it("names the accepted step or the change marker the level starts at, or the series' few runs", () => {
    const accepted = { kind: "few-runs", runs: 3, needed: 6, since: day("2026-11-20"), sinceKind: "change", sinceWords: "accepted incident #3" } as const;
    expect(describeUnsettled(accepted)).toEqual({
      text: "too few runs since the step on 2026-11-20 to tell (3 of 6)",
      sentence: "Only 3 runs since accepted incident #3 (2026-11-20): a flat trend needs 6 runs of its level to read as no significant change.",
    });
    expect(describeUnsettled({ ...accepted, sinceKind: "marker", sinceWords: 'the change marker "pool 20 → 50"' }).text).toBe(
      "too few runs since the change marker on 2026-11-20 to tell (3 of 6)",
    );
    expect(describeUnsettled({ ...accepted, since: null, sinceKind: null, sinceWords: null })).toEqual({
      text: "too few runs to tell (3 of 6)",
      sentence: "Only 3 runs of this series: a flat trend needs 6 runs of its level to read as no significant change.",
    });
  });
});

describe("describeIncidentMark", () => {
  it("names the incident and its change on the endpoint, in the series' words", () => {
    expect(describeIncidentMark({ number: 3, state: "open", metric: "p95", deltaPct: 31.04 })).toEqual({
      text: "Incident #3 · +31.0% p95",
      title:
        "Incident #3 (Open): p95 +31.0% on this series since its step; the CI gate judges runs against the level before it until the incident is accepted or marked invalid. Open the incident.",
    });
    expect(describeIncidentMark({ number: 1, state: "investigating", metric: "mean", deltaPct: 12.5 }, "benchmark").text).toBe("Incident #1 · +12.5% mean time/op");
  });
});
