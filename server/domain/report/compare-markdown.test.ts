import { describe, expect, it } from "vitest";
import type { ComparableRun } from "../compare/compare-runs";
import { compareRuns, DEFAULT_COMPARE_OPTIONS } from "../compare/compare-runs";
import { compareDistributions } from "../compare/distributions";
import { createSeededRandom } from "../stats/random";
import { renderComparisonMarkdown } from "./compare-markdown";
import type { ComparisonResult } from "../compare/comparison-result";
import { comparableRun, p95Endpoints } from "../compare/comparable-run.fixture";

function runOf(id: string, p95s: Record<string, number>, hour: number): ComparableRun {
  return comparableRun(
    id,
    { tool: "k6", endpoints: p95Endpoints(p95s) },
    {
      label: null,
      startedAt: new Date(Date.UTC(2026, 10, 22, hour)).toISOString(),
      branch: id.startsWith("h") ? "feature/x" : "main",
    },
  );
}

function resultOf(base: ComparableRun[], head: ComparableRun[]): ComparisonResult {
  const side = (runs: ComparableRun[]) => ({
    selector: runs.map((run) => run.id).join(","),
    runs: runs.map((run) => ({
      id: run.id,
      label: run.label,
      round: run.round,
      startedAt: new Date(run.startedAt),
      branch: run.branch ?? null,
      commit: null,
    })),
  });
  const options = { ...DEFAULT_COMPARE_OPTIONS, test: "student" as const };
  return {
    base: side(base),
    head: side(head),
    comparison: compareRuns(base, head, options),
    distributions: compareDistributions(base, head),
    options: { minEffectPct: options.minEffectPct, alpha: options.alpha, test: options.test, gateMetric: "auto" },
  };
}

const PAGE = "http://bench.test/projects/p/compare?base=a&head=b";

describe("renderComparisonMarkdown", () => {
  it("says Inconclusive and why on top, and shows the largest changes seen as not judged, never as no change", () => {
    const markdown = renderComparisonMarkdown(
      resultOf(
        [runOf("b1", { Fast: 20, Slow: 40 }, 1), runOf("b2", { Fast: 20.5, Slow: 41 }, 2)],
        [runOf("h1", { Fast: 20.2, Slow: 70 }, 3)],
      ),
      PAGE,
    );
    const lines = markdown.split("\n");
    expect(lines[0]).toBe("### 🟡 **Inconclusive**: no endpoint could be judged");
    expect(lines[2]).toBe(
      "**Why:** too little history: need 6 runs in all with at least 2 in the base (have 2 base + 1 head): 3 more rounds of the head, or 3 more base runs, would decide.",
    );
    expect(markdown).toContain("Largest changes seen, **not judged** (too little history):");
    expect(markdown).toMatch(/^\| Slow \| p95 \(gate\) \| 40\.5 ms \| 70 ms \| \+72\.8% \| not judged \|$/m);
    expect(markdown).not.toMatch(/no change|unchanged|changed beyond the noise/i);
  });

  it("on a judged comparison names the endpoints it could not judge", () => {
    const random = createSeededRandom(5);
    const base = Array.from({ length: 8 }, (_, index) =>
      runOf(
        `b${index}`,
        { Fast: 20 * (1 + random.gaussian(0, 0.02)), Slow: 40 * (1 + random.gaussian(0, 0.02)) },
        index,
      ),
    );
    const head = runOf("h1", { Fast: 20.1, Slow: 40.2 }, 20);
    const withNew = { ...head, endpoints: [...head.endpoints, { ...head.endpoints[0]!, name: "New" }] };
    const markdown = renderComparisonMarkdown(resultOf(base, [withNew]), PAGE);
    expect(markdown.split("\n")[0]).toBe("### ⚪ **Unchanged**: no change beyond the noise");
    expect(markdown).toContain("Not judged: 1 endpoint of 3 not judged (New: measured on one side only).");
  });
});

describe("renderComparisonMarkdown of benchmarks", () => {
  /** Two rounds a side of two benchmarks, their mean time per operation in ns, 5 samples each. */
  function benchmarkRun(id: string, meansNs: Record<string, number>, hour: number): ComparableRun {
    return comparableRun(
      id,
      {
        tool: "go",
        summary: { protocol: "benchmark" },
        endpoints: Object.entries(meansNs).map(([name, mean]) => ({
          name,
          protocol: "benchmark",
          requests: 5,
          failures: 0,
          throughput: 1e9 / mean,
          latency: { unit: "ns", mean, stdDev: mean * 0.005 },
        })),
      },
      { label: null, startedAt: new Date(Date.UTC(2026, 10, 22, hour)).toISOString(), durationSeconds: null },
    );
  }

  it("names benchmarks and their mean time per operation, in ns or µs", () => {
    const base = [
      benchmarkRun("b1", { Encode: 23.4, Sort: 4761 }, 1),
      benchmarkRun("b2", { Encode: 23.5, Sort: 4770 }, 2),
      benchmarkRun("b3", { Encode: 23.6, Sort: 4766 }, 3),
    ];
    const head = [
      benchmarkRun("h1", { Encode: 30.4, Sort: 4765 }, 4),
      benchmarkRun("h2", { Encode: 30.6, Sort: 4768 }, 5),
      benchmarkRun("h3", { Encode: 30.5, Sort: 4763 }, 6),
    ];
    const markdown = renderComparisonMarkdown(resultOf(base, head), PAGE);
    expect(markdown).toContain("### 🔴 **Regressed**");
    expect(markdown).toContain("| Benchmark | Metric | Base | Head | Δ (95% CI) | p | Verdict |");
    // Means of the runs' means: 23.5 ns → 30.5 ns, +29.8%.
    expect(markdown).toMatch(/\| Encode \| mean time\/op \| 23\.5 ns \| 30\.5 ns \| \+29\.8% /);
    expect(markdown).not.toMatch(/\| Endpoint \|/);
    expect(markdown).not.toContain("All endpoints");
  });
});
