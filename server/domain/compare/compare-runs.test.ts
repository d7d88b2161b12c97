import { describe, expect, it } from "vitest";
import { parseBenchtrack } from "../parsers/benchtrack/benchtrack";
import type { EndpointResult } from "../run";
import { ISSUE_BASE_P95_MS, ISSUE_HEAD_P95_MS } from "../stats/issue-example.fixture";
import { createSeededRandom } from "../stats/random";
import type { ComparableRun } from "./compare-runs";
import { compareRuns, comparabilityWarnings, historyKey, trendValues } from "./compare-runs";

/** A run in the Benchtrack format, as a user would upload it, then parsed as ingest does. */
function run(id: string, label: string, summary: Record<string, unknown>, extra: Partial<ComparableRun> = {}): ComparableRun {
  const parsed = parseBenchtrack({ schema: "benchtrack/v1", label, tool: "custom", summary });
  return {
    id,
    label,
    round: null,
    startedAt: "2026-11-22T10:00:00Z",
    format: "benchtrack",
    tool: parsed.tool,
    durationSeconds: 30,
    hostName: "perf-1",
    config: { concurrency: 2 },
    aggregate: parsed.aggregate,
    endpoints: parsed.endpoints,
    metrics: parsed.metrics,
    ...extra,
  };
}

// The five-round table of the compare issue: P50/P90/P95 in seconds, completion time in seconds.
const BASE_P50 = [1.12, 1.15, 1.13, 1.14, 1.14]; // mean 1.136
const HEAD_P50 = [1.75, 1.78, 1.77, 1.76, 1.785]; // mean 1.769
const BASE_P90 = [2.2, 2.25, 2.21, 2.24, 2.215]; // mean 2.223
const HEAD_P90 = [3.95, 3.99, 3.96, 3.98, 3.965]; // mean 3.969
const BASE_COMPLETION = [6.5, 6.7, 6.6, 6.6, 6.6]; // mean 6.6
const HEAD_COMPLETION = [9.1, 9.3, 9.2, 9.2, 9.2]; // mean 9.2

function issueRuns(side: "base" | "head"): ComparableRun[] {
  const [p50, p90, p95, completion, label] =
    side === "base"
      ? [BASE_P50, BASE_P90, ISSUE_BASE_P95_MS, BASE_COMPLETION, "baseline"]
      : [HEAD_P50, HEAD_P90, ISSUE_HEAD_P95_MS, HEAD_COMPLETION, "ManagedAsync"];
  return p95.map((value, round) =>
    run(`${side}-${round + 1}`, label, {
      latency: { unit: "s", p50: p50[round], p90: p90[round], p95: value },
      metrics: { completion: { value: completion[round], unit: "s", better: "lower" } },
    }),
  );
}

describe("compareRuns: five rounds of baseline vs five of ManagedAsync", () => {
  const comparison = compareRuns(issueRuns("base"), issueRuns("head"));
  const metric = (name: string) => comparison.aggregate.metrics.find((candidate) => candidate.metric === name)!;

  it("reproduces the table's means (seconds → ms)", () => {
    expect(metric("p50").base.mean).toBeCloseTo(1136, 6);
    expect(metric("p50").head.mean).toBeCloseTo(1769, 6);
    expect(metric("p90").base.mean).toBeCloseTo(2223, 6);
    expect(metric("p90").head.mean).toBeCloseTo(3969, 6);
    expect(metric("p95").base.mean).toBeCloseTo(2483.2, 6);
    expect(metric("p95").head.mean).toBeCloseTo(4372.8, 6);
    expect(metric("metrics.completion").base.mean).toBeCloseTo(6.6, 9);
    expect(metric("metrics.completion").head.mean).toBeCloseTo(9.2, 9);
  });

  it("finds p95 +76.1% with p < 0.001: regressed, and says how the group value is formed", () => {
    const p95 = metric("p95");
    expect(p95.deltaPct).toBeCloseTo(76.1, 1);
    expect(p95.pValue).toBeLessThan(0.001);
    expect(p95.test).toBe("welch");
    expect(p95.verdict).toBe("regressed");
    expect(p95.deltaPctCi95![0]).toBeGreaterThan(50);
    expect(p95.deltaPctCi95![1]).toBeLessThan(110);
    expect(p95.aggregation).toBe("mean of per-run p95 (5 runs)");
    expect(p95.base.values).toEqual(ISSUE_BASE_P95_MS.map((value) => value * 1000));
    expect(comparison.verdict).toBe("regressed");
    expect(comparison.kind).toBe("groups");
    expect(comparison.warnings).toEqual([]);
  });

  it("the same runs on both sides change nothing (and are flagged)", () => {
    const same = compareRuns(issueRuns("base"), issueRuns("base"));
    expect(same.aggregate.metrics.find((candidate) => candidate.metric === "p95")!.verdict).toBe("unchanged");
    expect(same.warnings.join(" ")).toMatch(/same run is on both sides/);
  });
});

describe("compareRuns: 1 vs 1 uses the noise band of recent history", () => {
  const endpoint = (p95: number): EndpointResult[] =>
    parseBenchtrack({ schema: "benchtrack/v1", endpoints: [{ name: "GetListing", latency: { unit: "ms", p95 } }] }).endpoints;

  it("a +30% step beyond a ~2% band regresses; without history it is inconclusive", () => {
    const base = run("b", "baseline", { latency: { unit: "ms", p95: 10 } }, { endpoints: endpoint(10) });
    const head = run("h", "baseline", { latency: { unit: "ms", p95: 13 } }, { endpoints: endpoint(13) });
    const history = new Map([[historyKey("GetListing", "p95"), [10, 10.2, 9.9, 10.1, 10, 9.8, 10.1]]]);
    const judged = compareRuns([base], [head], { minEffectPct: 5, alpha: 0.05, test: "welch", history });
    const p95 = judged.endpoints[0]!.metrics.find((candidate) => candidate.metric === "p95")!;
    expect(judged.kind).toBe("pairwise");
    expect(p95.test).toBe("noise-band");
    expect(p95.verdict).toBe("regressed");
    expect(p95.reason).toMatch(/noise band/);

    const blind = compareRuns([base], [head]);
    expect(blind.endpoints[0]!.metrics.find((candidate) => candidate.metric === "p95")!.verdict).toBe("inconclusive");
  });
});

describe("compareRuns: one run against a group", () => {
  it("judges the run with the prediction-interval test", () => {
    const base = issueRuns("base");
    const slow = run("new", "baseline", { latency: { unit: "s", p95: 4.3 } });
    const comparison = compareRuns(base, [slow]);
    const p95 = comparison.aggregate.metrics.find((metric) => metric.metric === "p95")!;
    expect(comparison.kind).toBe("group-vs-run");
    expect(p95.test).toBe("prediction");
    expect(p95.verdict).toBe("regressed");
    const typical = compareRuns(base, [run("ok", "baseline", { latency: { unit: "s", p95: 2.5 } })]);
    expect(typical.aggregate.metrics.find((metric) => metric.metric === "p95")!.verdict).toBe("unchanged");
  });
});

describe("comparison warnings", () => {
  it("puts the unfair environment differences first (tool, load profile, host size), then durations and endpoints", () => {
    const base = run("b", "x", { latency: { unit: "ms", p95: 1 } }, { config: { vus: 10 }, tool: "k6", hostCpus: 16 });
    const head = run("h", "x", { latency: { unit: "ms", p95: 1 } }, {
      config: { vus: 20 },
      tool: "locust",
      hostName: "perf-2",
      hostCpus: 4,
      durationSeconds: 60,
      endpoints: parseBenchtrack({ schema: "benchtrack/v1", endpoints: [{ name: "New" }] }).endpoints,
    });
    const comparison = compareRuns([base], [head]);
    expect(comparison.warnings.map((warning) => warning.split(/ \(|:/)[0])).toEqual([
      "Different tools",
      "Different load profiles",
      "Different host sizes",
      "Different durations",
      "Endpoints only in head",
    ]);
    expect(comparison.warnings.slice(0, 3)).toEqual(comparison.environment.unfair);
    expect(comparison.warnings[1]).toMatch(/vus 10 → 20/);
    expect(comparabilityWarnings([base], [head]).join("\n")).not.toMatch(/Different tools/);
  });

  it("does not warn about another host name of the same size: it lists it under what changed", () => {
    const comparison = compareRuns([run("b", "x", { latency: { unit: "ms", p95: 1 } })], [run("h", "x", { latency: { unit: "ms", p95: 1 } }, { hostName: "perf-2" })]);
    expect(comparison.warnings).toEqual([]);
    expect(comparison.environment.differences).toMatchObject([{ field: "host", base: ["perf-1"], head: ["perf-2"], isUnfair: false }]);
  });
});

describe("compareRuns on endpoints that share a name across protocols", () => {
  it("compares gRPC GetListing with gRPC GetListing only, and names each with its protocol", () => {
    const endpoints = (grpcP95: number, httpP95: number) =>
      parseBenchtrack({
        schema: "benchtrack/v1",
        endpoints: [
          { name: "GetListing", protocol: "grpc", latency: { unit: "ms", p95: grpcP95 } },
          { name: "GetListing", protocol: "http", latency: { unit: "ms", p95: httpP95 } },
        ],
      }).endpoints;
    const base = run("b", "baseline", { latency: { unit: "ms", p95: 10 } }, { endpoints: endpoints(2, 20) });
    const head = run("h", "baseline", { latency: { unit: "ms", p95: 10 } }, { endpoints: endpoints(3, 20) });
    const comparison = compareRuns([base], [head]);
    const p95Of = (name: string) => comparison.endpoints.find((endpoint) => endpoint.name === name)?.metrics.find((m) => m.metric === "p95");
    expect(comparison.endpoints.map((endpoint) => endpoint.name)).toEqual(["GetListing (grpc)", "GetListing (http)"]);
    expect(p95Of("GetListing (grpc)")?.deltaPct).toBeCloseTo(50);
    expect(p95Of("GetListing (http)")?.deltaPct).toBeCloseTo(0);
  });
});

/** A run of five endpoints (5,000 requests each) whose p95s are given; p50 = p95 / 2, p99 = 1.5 · p95. */
function fiveEndpoints(id: string, p95s: readonly number[]): ComparableRun {
  const parsed = parseBenchtrack({
    schema: "benchtrack/v1",
    tool: "custom",
    endpoints: p95s.map((p95, index) => ({
      name: `E${index + 1}`,
      requests: 5000,
      failures: 0,
      latency: { unit: "ms", p50: p95 / 2, p95, p99: p95 * 1.5, mean: p95 / 1.8 },
    })),
  });
  return run(id, "nightly", {}, { aggregate: parsed.aggregate, endpoints: parsed.endpoints });
}

describe("compareRuns: the gate metrics, one per endpoint", () => {
  const random = createSeededRandom(21);
  const levels = [10, 20, 40, 80, 160];
  const history = Array.from({ length: 20 }, (_, index) => fiveEndpoints(`b${index}`, levels.map((level) => level * (1 + random.gaussian(0, 0.03)))));

  it("judges each endpoint on its p95, corrected over the endpoints only, and reports the rest apart", () => {
    const head = fiveEndpoints("h", levels.map((level, index) => level * (index === 0 ? 1.3 : 1)));
    const comparison = compareRuns(history, [head]);
    const e1 = comparison.endpoints.find((endpoint) => endpoint.name === "E1")!;
    expect(e1.gateMetric).toEqual({ name: "p95", why: "p95 (auto: every run has ≥ 5,000 requests)" });
    const p95 = e1.metrics.find((metric) => metric.metric === "p95")!;
    expect(p95).toMatchObject({ gate: true, verdict: "regressed", test: "prediction" });
    // Holm over the 5 endpoints' p95s: the smallest p is multiplied by 5, not by the 5 × 7 metrics tested.
    expect(p95.adjustedPValue).toBeCloseTo(Math.min(1, 5 * p95.pValue!), 12);
    expect(p95.detectablePct).toBeGreaterThan(5);
    expect(p95.detectablePct).toBeLessThan(20);
    expect(e1.metrics.filter((metric) => metric.gate)).toHaveLength(1);
    expect(comparison.verdict).toBe("regressed");
    expect(comparison.counts).toMatchObject({ regressed: 1, unchanged: 4 });
    // The aggregate of runs with endpoints is reported, never gated.
    expect(comparison.aggregate.gateMetric).toBeNull();
    expect(comparison.aggregate.metrics.some((metric) => metric.gate)).toBe(false);
  });

  it("is inconclusive, saying what would decide, with too few runs — even where an error rate of 0 is 'unchanged'", () => {
    const comparison = compareRuns(history.slice(0, 3), [fiveEndpoints("h", levels.map((level) => level * 1.8))]);
    const p95 = comparison.endpoints[0]!.metrics.find((metric) => metric.metric === "p95")!;
    expect(p95).toMatchObject({ verdict: "inconclusive", inconclusiveKind: "too-little-history" });
    expect(p95.deltaPct).toBeGreaterThan(70); // shown, though not judged
    expect(p95.reason).toBe(
      "need 6 runs in all with at least 2 in the base (have 3 base + 1 head): 2 more rounds of the head, or 2 more base runs, would decide",
    );
    expect(comparison.endpoints[0]!.metrics.find((metric) => metric.metric === "errorRate")!.verdict).toBe("unchanged");
    expect(comparison.verdict).toBe("inconclusive");
    expect(comparison.endpoints.every((endpoint) => endpoint.verdict === "inconclusive")).toBe(true);
  });

  it("judges 3 rounds against 3 (6 in all), pooling their variance when asked, as the CI gate does", () => {
    const rounds = [1.75, 1.8, 1.78].map((factor, index) => fiveEndpoints(`h${index}`, levels.map((level) => level * factor)));
    const comparison = compareRuns(history.slice(0, 3), rounds, { minEffectPct: 5, alpha: 0.01, test: "student" });
    const p95 = comparison.endpoints[0]!.metrics.find((metric) => metric.metric === "p95")!;
    expect(p95).toMatchObject({ verdict: "regressed", test: "student", degreesOfFreedom: 4 });
    expect(comparison.verdict).toBe("regressed");
  });

  it("compares the gate metrics alone when asked, with the same p-values and verdicts as a full comparison", () => {
    const heads = [1.3, 1.02, 1].map((factor, index) => fiveEndpoints(`g${index}`, levels.map((level, endpoint) => level * (endpoint === 0 ? factor : 1 + 0.01 * index))));
    for (const headRuns of [[heads[0]!], heads]) {
      const options = { minEffectPct: 5, alpha: 0.01, test: "student" as const, history: trendValues(history.slice(0, 12)) };
      const full = compareRuns(history.slice(12), headRuns, options);
      const gateOnly = compareRuns(history.slice(12), headRuns, { ...options, metrics: "gate" });
      expect(gateOnly.endpoints.map((endpoint) => endpoint.metrics)).toEqual(full.endpoints.map((endpoint) => endpoint.metrics.filter((metric) => metric.gate)));
      expect(gateOnly.endpoints.every((endpoint) => endpoint.metrics.length === 1)).toBe(true);
      expect(gateOnly.aggregate.metrics).toEqual([]);
      expect([gateOnly.verdict, gateOnly.counts]).toEqual([full.verdict, full.counts]);
    }
    expect(compareRuns(history.slice(12), [heads[0]!], { minEffectPct: 5, alpha: 0.01, test: "student", metrics: "gate" }).verdict).toBe("regressed");
  });

  it("gates on the project's metric when it names one", () => {
    const comparison = compareRuns(history, [fiveEndpoints("h", levels)], { minEffectPct: 5, alpha: 0.01, test: "welch", gateMetric: "p99" });
    expect(comparison.endpoints.map((endpoint) => endpoint.gateMetric?.name)).toEqual(["p99", "p99", "p99", "p99", "p99"]);
  });
});

describe("compareRuns: pooled percentiles from the runs' histograms", () => {
  const withHistogram = (id: string, p95: number, histogram: EndpointResult["histogram"]): ComparableRun => {
    const made = run(id, "h", { requests: 1000, latency: { unit: "ms", p50: p95 / 2, p95 } });
    return { ...made, aggregate: { ...made.aggregate, histogram } };
  };
  const good = [{ upperMs: 5, count: 200 }, { upperMs: 10, count: 800 }];

  it("pools the histograms of both sides; a run stored with a repeated edge (before uploads were checked for it) leaves the pooled reading out instead of failing", () => {
    const base = [withHistogram("b1", 10, good), withHistogram("b2", 10, good)];
    const head = [withHistogram("h1", 10, good), withHistogram("h2", 10, good)];
    const p95 = (comparison: ReturnType<typeof compareRuns>) => comparison.aggregate?.metrics.find((metric) => metric.metric === "p95");
    expect(p95(compareRuns(base, head))?.pooled).toEqual({ baseMs: 9.6875, headMs: 9.6875, deltaPct: 0 });

    const repeated = [{ upperMs: 5, count: 100 }, { upperMs: 5, count: 100 }, { upperMs: 10, count: 800 }];
    const comparison = compareRuns(base, [withHistogram("h1", 10, good), withHistogram("h2", 10, repeated)]);
    expect(p95(comparison)?.pooled).toBeNull();
    expect(p95(comparison)?.head.n).toBe(2);
  });
});
