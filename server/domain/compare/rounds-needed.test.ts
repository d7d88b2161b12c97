import { describe, expect, it } from "vitest";
import type { ComparableRun } from "./compare-runs";
import { compareRuns, DEFAULT_COMPARE_OPTIONS } from "./compare-runs";
import { describeMetricRounds } from "./rounds-needed";
import { comparableRun } from "./comparable-run.fixture";

/** One round of a k6 nightly as uploaded (5,000 requests, so p95 can be judged), with its p95 in ms. */
function round(id: string, p95: number, extra: Record<string, unknown> = {}): ComparableRun {
  return comparableRun(
    id,
    { tool: "k6", label: "nightly", summary: { requests: 5000, latency: { unit: "ms", p95 }, ...extra } },
    { hostName: "perf-1", config: { vus: 50 } },
  );
}

const side = (name: string, p95s: readonly number[]) => p95s.map((p95, index) => round(`${name}-${index + 1}`, p95));

// Noisy rounds: base mean 100 ms (sd 7.906), head mean 104 ms (sd 6.671); Welch p = 0.41, Δ +4%.
const NOISY_BASE = [100, 110, 95, 105, 90];
const NOISY_HEAD = [104, 96, 112, 99, 109];

describe("adviseRounds", () => {
  it("says how many rounds per side would detect the 5% minimum effect at the observed noise (Welch)", () => {
    const comparison = compareRuns(side("base", NOISY_BASE), side("head", NOISY_HEAD));
    expect(comparison.verdict).toBe("unchanged");
    const advice = comparison.rounds!;
    expect(advice.headline).toMatchObject({ endpoint: "(all)", metric: "p95", have: { base: 5, head: 5 } });
    // δ = 5 ms, s_b² + s_h² = 62.5 + 44.5 = 107, one-sided α = 0.01: 45 per side (noncentral t at the
    // Welch df, scipy: 44 → 79.6%, 45 → 80.6%).
    expect(advice.headline.estimate).toEqual({ status: "ok", roundsPerSide: 45 });
    expect(advice.headline.baseNoisePct).toBeCloseTo(7.906, 3);
    expect(advice.headline.headNoisePct).toBeCloseTo(6.414, 3);
    expect(advice.sentence).toBe(
      "About 45 rounds per side would detect a 5% change in p95 (All endpoints) at this noise (round-to-round noise 7.9% base, 6.4% head; Welch's t-test, α = 0.01, 80% power); this comparison has 5 vs 5.",
    );
  });

  it("uses the comparison's own test, α and minimum effect", () => {
    const welch = compareRuns(side("base", NOISY_BASE), side("head", NOISY_HEAD)).rounds!.headline.estimate;
    const rank = compareRuns(side("base", NOISY_BASE), side("head", NOISY_HEAD), {
      ...DEFAULT_COMPARE_OPTIONS,
      test: "mann-whitney",
    }).rounds!;
    expect(rank.test).toBe("mann-whitney");
    expect(rank.headline.estimate).toEqual({ status: "ok", roundsPerSide: 47 }); // 45 / (3/π), the ARE
    expect(welch).toEqual({ status: "ok", roundsPerSide: 45 });
    const larger = compareRuns(side("base", NOISY_BASE), side("head", NOISY_HEAD), {
      ...DEFAULT_COMPARE_OPTIONS,
      minEffectPct: 10,
    }).rounds!;
    expect(larger.headline.estimate).toEqual({ status: "ok", roundsPerSide: 13 }); // scipy: 12 → 79.0%, 13 → 83.0%
  });

  it("answers 'more than 50 rounds' when the noise swamps the minimum effect", () => {
    const comparison = compareRuns(side("base", [60, 140, 90, 120, 80]), side("head", [130, 70, 110, 95, 105]));
    const advice = comparison.rounds!;
    expect(advice.headline.estimate).toEqual({ status: "beyond", maxRounds: 50 });
    expect(advice.sentence).toMatch(
      /^Detecting a 5% change in p95 \(All endpoints\) at this noise .* would take more than 50 rounds per side .*: reduce the noise first\.$/,
    );
  });

  it("cannot tell for a metric whose noise is unknown (a single base value), and lists it last", () => {
    const base = side("base", NOISY_BASE).map((run, index) =>
      index === 0 ? { ...run, metrics: { completion: { value: 6.6, unit: "s", better: "lower" as const } } } : run,
    );
    const head = side("head", NOISY_HEAD).map((run) => ({
      ...run,
      metrics: { completion: { value: 6.7, unit: "s", better: "lower" as const } },
    }));
    const advice = compareRuns(base, head).rounds!;
    expect(advice.headline.metric).toBe("p95");
    const last = advice.metrics.at(-1)!;
    expect(last).toMatchObject({ metric: "metrics.completion", estimate: { status: "insufficient" } });
    expect(describeMetricRounds(last, advice)).toBe(
      "How many rounds would detect a 5% change in metrics.completion (All endpoints)? Cannot tell: the noise is unknown with 1 base value.",
    );
  });

  it("says nothing when the 95% CI already rules out the minimum effect, or a change was found", () => {
    // Quiet rounds: Δ +1%, p = 0.08, CI of Δ% well inside ±5%: "unchanged" is an answer, not a shrug.
    const quiet = compareRuns(side("base", [100, 101, 99, 100.5, 99.5]), side("head", [101, 100, 102, 100.5, 101.5]));
    expect(quiet.verdict).toBe("unchanged");
    expect(quiet.rounds).toBeNull();
    const slower = compareRuns(
      side("base", NOISY_BASE),
      side(
        "head",
        NOISY_HEAD.map((value) => value * 1.5),
      ),
    );
    expect(slower.verdict).toBe("regressed");
    expect(slower.rounds).toBeNull();
  });

  it("advises only group comparisons: not 1 vs 1, nor one run against a group", () => {
    expect(compareRuns(side("base", [100]), side("head", [104])).rounds).toBeNull();
    expect(compareRuns(side("base", NOISY_BASE), side("head", [104])).rounds).toBeNull();
  });
});

describe("describeMetricRounds", () => {
  it("says when the rounds at hand were already enough", () => {
    const entry = {
      endpoint: "GetListing",
      metric: "p95",
      baseNoisePct: 1.2,
      headNoisePct: 1.5,
      have: { base: 10, head: 10 },
      estimate: { status: "ok", roundsPerSide: 6 },
    } as const;
    expect(describeMetricRounds(entry, { minEffectPct: 5, alpha: 0.05, power: 0.8, test: "welch" })).toBe(
      "10 vs 10 rounds are enough to detect a 5% change in p95 (GetListing) at this noise (round-to-round noise 1.2% base, 1.5% head; 6 per side suffice with Welch's t-test, α = 0.05, 80% power): a change that large would likely have shown.",
    );
  });
});
