import { describe, expect, it } from "vitest";
import type { ComparableRun } from "../compare/compare-runs";
import { compareRuns } from "../compare/compare-runs";
import { clipText, comparisonImageContent } from "./comparison-image";
import { comparableRun, p95Endpoints } from "../compare/comparable-run.fixture";

function runOf(id: string, p95s: Record<string, number>): ComparableRun {
  return comparableRun(
    id,
    { endpoints: p95Endpoints(p95s) },
    { label: null, startedAt: "2026-11-22T00:00:00Z", tool: "k6" },
  );
}

const named = (id: string, branch: string) => ({
  id,
  label: null,
  round: null,
  startedAt: new Date("2026-11-22T00:00:00Z"),
  branch,
  commit: null,
});

describe("comparisonImageContent", () => {
  it("an inconclusive comparison says so and why, and lists the largest changes seen as not judged", () => {
    const comparison = compareRuns(
      [runOf("b1", { GetListing: 20 }), runOf("b2", { GetListing: 20.4 })],
      [runOf("h1", { GetListing: 35 })],
    );
    const content = comparisonImageContent(
      comparison,
      [named("b1", "main"), named("b2", "main")],
      [named("h1", "feature/x")],
    );
    expect(content.verdict).toBe("inconclusive");
    expect(content.reason).toBe(
      "No endpoint could be judged: too little history: need 6 runs in all with at least 2 in the base (have 2 base + 1 head): 3 more rounds of the head, or 3 more base runs, would decide",
    );
    expect(content.changesHeading).toBe("Largest changes seen, not judged (too little history):");
    expect(content.changes[0]).toEqual({ delta: "+73.3%", label: "GetListing p95", tone: "muted", isJudged: false });
    expect(content.changes.every((change) => !change.isJudged)).toBe(true);
    expect(content.footnote).toBeNull();
    expect(JSON.stringify(content)).not.toMatch(/no change|beyond the noise/i);
  });

  it("a judged comparison lists what changed, or says nothing did", () => {
    const base = Array.from({ length: 6 }, (_, index) => runOf(`b${index}`, { GetListing: 20 + (index % 3) * 0.2 }));
    const slower = comparisonImageContent(compareRuns(base, [runOf("h", { GetListing: 30 })]), [], []);
    expect(slower).toMatchObject({ verdict: "regressed", reason: null, changesHeading: null, footnote: null });
    expect(slower.changes[0]).toMatchObject({ label: "GetListing p95", tone: "bad", isJudged: true });
    const same = comparisonImageContent(compareRuns(base, [runOf("h", { GetListing: 20.1 })]), [], []);
    expect(same).toMatchObject({
      verdict: "unchanged",
      changes: [],
      footnote: "No endpoint changed beyond the noise.",
    });
  });

  it("cuts a long line at a word", () => {
    expect(clipText("short", 10)).toBe("short");
    expect(clipText("need 6 runs in all with at least 2 in the base", 20)).toBe("need 6 runs in all…");
  });
});
