import { describe, expect, it } from "vitest";
import { createSeededRandom } from "../stats/random";
import type { ComparableRun } from "./compare-runs";
import { compareRuns } from "./compare-runs";
import { describeNotJudged, explainInconclusive, headlineChanges } from "./gate-summary";
import { comparableRun, p95Endpoints } from "./comparable-run.fixture";

function runOf(id: string, p95s: Record<string, number>, tool = "custom"): ComparableRun {
  return comparableRun(id, { tool, endpoints: p95Endpoints(p95s) });
}

const random = createSeededRandom(11);
const history = Array.from({ length: 20 }, (_, index) =>
  runOf(`b${index}`, { Fast: 20 * (1 + random.gaussian(0, 0.03)), Slow: 40 * (1 + random.gaussian(0, 0.03)) }),
);

describe("explainInconclusive and headlineChanges", () => {
  it("says why no endpoint could be judged and what would decide, and shows the changes seen as not judged", () => {
    const comparison = compareRuns(history.slice(0, 2), [runOf("h", { Fast: 20.4, Slow: 69.2 })]);
    expect(comparison.verdict).toBe("inconclusive");
    expect(explainInconclusive(comparison)).toEqual({
      kind: "too-little-history",
      reason:
        "too little history: need 6 runs in all with at least 2 in the base (have 2 base + 1 head): 3 more rounds of the head, or 3 more base runs, would decide",
    });
    const changes = headlineChanges(comparison, 3);
    // The gate metrics (p95 of each endpoint) first, largest |Δ| first, none of them judged.
    expect(changes.map(({ endpoint, metric }) => `${endpoint} ${metric.metric}`)).toEqual([
      "Slow p95",
      "Fast p95",
      expect.stringMatching(/p50$/),
    ]);
    expect(changes.every((change) => !change.isJudged)).toBe(true);
    expect(changes[0]!.metric.deltaPct).toBeGreaterThan(60);
    expect(describeNotJudged(comparison)).toBeNull();
  });

  it("shows the aggregate's change when it is what the gate judges (no endpoint measured on both sides)", () => {
    // A base run with no endpoints (k6's end-of-test summary) against one with them (its NDJSON).
    const base = runOf("b", { Only: 20 });
    const aggregateOnly = { ...base, endpoints: [] };
    const comparison = compareRuns([aggregateOnly], [runOf("h", { Fast: 35 })]);
    expect(explainInconclusive(comparison)?.reason).toMatch(/^too little history/);
    const [first] = headlineChanges(comparison, 3);
    expect(`${first!.endpoint} ${first!.metric.metric}`).toBe(`${comparison.aggregate.name} p95`);
    expect(first!.metric.gate).toBe(true);
    expect(first!.isJudged).toBe(false);
  });

  it("gives runs of several tools no reason but theirs, and no pooled change", () => {
    const comparison = compareRuns(
      [runOf("a", { Fast: 20 }, "k6"), runOf("b", { Fast: 60 }, "locust")],
      [runOf("h", { Fast: 90 }, "k6")],
    );
    expect(explainInconclusive(comparison)).toEqual({ kind: "not-comparable", reason: comparison.notComparable });
    expect(headlineChanges(comparison, 4)).toEqual([]);
  });

  it("on a judged comparison: no explanation, the endpoints not judged in one line, and only what regressed or improved", () => {
    const head = runOf("h", { Fast: 20.1, Slow: 60 });
    const withNew = { ...head, endpoints: [...head.endpoints, { ...head.endpoints[0]!, name: "New" }] };
    const comparison = compareRuns(history, [withNew]);
    expect(comparison.verdict).toBe("regressed");
    expect(explainInconclusive(comparison)).toBeNull();
    expect(describeNotJudged(comparison)).toBe("1 endpoint of 3 not judged (New: measured on one side only)");
    const changes = headlineChanges(comparison, 4);
    expect(changes[0]).toMatchObject({
      endpoint: "Slow",
      isJudged: true,
      metric: { metric: "p95", verdict: "regressed" },
    });
    expect(changes.every(({ metric }) => metric.verdict === "regressed" || metric.verdict === "improved")).toBe(true);
  });
});
