import { describe, expect, it } from "vitest";
import { comparableRun, p95Endpoints } from "../compare/comparable-run.fixture";
import { compareRuns } from "../compare/compare-runs";
import type { ComparableRun } from "../compare/compare-runs";
import { headlineChanges } from "../compare/gate-summary";
import { AGGREGATE_NAME } from "../run";
import { judgeGate } from "./judge";
import { JUDGE_SETTINGS, judgeInputOf } from "./judge-input.fixture";

// judgeGate compares every metric only when its gate metrics show fewer changes than its answer names
// (judge.ts decideFromRuns): the changes it names unjudged must be what the full comparison would name.
const SETTINGS = JUDGE_SETTINGS;
const MAX_UNJUDGED = 3;

function run(id: string, hour: number, p95s: Record<string, number>, p99Factor = 1.2): ComparableRun {
  const endpoints = p95Endpoints(p95s).map((endpoint) => ({ ...endpoint, latency: { ...endpoint.latency, p99: endpoint.latency.p95 * p99Factor } }));
  return comparableRun(id, { label: "nightly", startedAt: new Date(Date.UTC(2026, 0, 1, hour)).toISOString(), endpoints });
}

function judge(baseRuns: ComparableRun[], head: ComparableRun) {
  return judgeGate(judgeInputOf(baseRuns, head));
}

/** What the full comparison (every metric) names as the largest changes seen. */
function unjudgedOfFullComparison(baseRuns: ComparableRun[], head: ComparableRun) {
  const full = compareRuns(baseRuns, [head], { ...SETTINGS, test: "student", metrics: "all" });
  return headlineChanges(full, MAX_UNJUDGED).map(({ endpoint, metric }) => ({ endpoint, metric: metric.metric, deltaPct: metric.deltaPct }));
}

const named = (result: ReturnType<typeof judge>) =>
  result.comparison.unjudged.map(({ endpoint, metric, deltaPct }) => ({ endpoint: endpoint ?? AGGREGATE_NAME, metric, deltaPct }));

describe("judgeGate: the changes an inconclusive gate names", () => {
  // Two base runs and one head: too little history to judge (6 runs in all are needed).
  it("names the full comparison's largest changes when its gate metrics show enough (gate metrics only compared)", () => {
    const base = [run("b2", 2, { a: 100, b: 200, c: 300, d: 400 }), run("b1", 1, { a: 101, b: 199, c: 301, d: 402 })];
    const head = run("h", 3, { a: 130, b: 260, c: 310, d: 500 }, 2);
    const result = judge(base, head);
    expect(result.outcome).toBe("inconclusive");
    expect(result.comparison.unjudged).toHaveLength(MAX_UNJUDGED);
    expect(named(result)).toEqual(unjudgedOfFullComparison(base, head));
    expect(result.comparison.unjudged.every((change) => change.metric === "p95")).toBe(true);
  });

  it("reads the other metrics when the gate metrics show fewer changes than it names", () => {
    // Only the p99s moved: the gate metric (p95) shows one change, the rest come from every metric.
    const base = [run("b2", 2, { a: 100, b: 200 }), run("b1", 1, { a: 100, b: 200 })];
    const head = run("h", 3, { a: 100, b: 230 }, 3);
    const result = judge(base, head);
    expect(result.outcome).toBe("inconclusive");
    expect(named(result)).toEqual(unjudgedOfFullComparison(base, head));
    expect(result.comparison.unjudged.some((change) => change.metric === "p99")).toBe(true);
  });
});
