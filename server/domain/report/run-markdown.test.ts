import { describe, expect, it } from "vitest";
import { benchmarkResult, benchmarkRun } from "../parsers/benchmark";
import { toBenchtrackDocument } from "../parsers";
import { emptyEndpoint, emptyRun } from "../run";
import type { GateResult } from "../gate/judge";
import { formatMs } from "../format";
import { markdownText } from "./markdown";
import { renderRunMarkdown } from "./run-markdown";

const samplesMs = [0.004761, 0.0047, 0.0048, 0.00475, 0.00472];

function benchmarksDocument() {
  const run = benchmarkRun("go-bench-text", "go", [
    benchmarkResult({ name: "BenchmarkSortInts/n=100", group: "example.com/sort", samplesMs }),
    benchmarkResult({ name: "BenchmarkEncode", group: "example.com/json", summary: { meanMs: 0.0000234, samples: 3 } }),
  ]);
  run.label = "main";
  return { ...toBenchtrackDocument(run), url: "http://bench.test/projects/p/runs/r", grade: null };
}

/** A failed gate with one benchmark regressed, as judgeGate answers it (only what the Markdown reads). */
function failedGate(): GateResult {
  const change = {
    endpoint: "example.com/sort > BenchmarkSortInts/n=100",
    metric: "mean",
    unit: "ms",
    base: 0.004761,
    head: 0.00622,
    deltaPct: 30.6,
    pValue: 0.0004,
    test: "welch" as const,
    reason: "regressed",
  };
  return {
    outcome: "fail",
    failOn: ["regression"],
    reasons: [
      "1 benchmark regressed against the baseline (the last 5 go runs): example.com/sort > BenchmarkSortInts/n=100 mean time/op +30.6%",
    ],
    summary: "1 benchmark regressed",
    notes: [],
    inconclusive: null,
    comparison: {
      baseline: { how: "the last 5 go runs", pinned: false, basis: "recent", openRegression: null, openIncident: null, runs: [] },
      headRuns: ["r"],
      verdict: "regressed",
      kind: "group-vs-run",
      regressions: [change],
      changes: [{ ...change, protocol: "benchmark", status: "regressed", why: "significant: p < 0.001, Holm-adjusted p = 0.0004" }],
      unjudged: [],
      improvements: 0,
      comparePath: null,
    },
    grade: null,
    thresholds: { evaluated: 0, failed: [] },
    ab: null,
  };
}

describe("renderRunMarkdown of a run of benchmarks", () => {
  it("has a table of benchmarks with samples, ops/s and time per operation in its unit, and no aggregate or error column", () => {
    const document = benchmarksDocument();
    const markdown = renderRunMarkdown(document);
    expect(markdown).toContain("| Benchmark | Samples | Ops/s | Mean | P50 | P95 | P99 |");
    const sort = markdownText("example.com/sort > BenchmarkSortInts/n=100");
    const row = markdown.split("\n").find((line) => line.startsWith(`| ${sort} |`));
    const meanMs = samplesMs.reduce((sum, value) => sum + value, 0) / samplesMs.length;
    const { p50, p95, p99 } = document.endpoints[0]!.latency;
    // 5 samples; ops/s = 1000 / mean ms; times in µs.
    expect(row).toBe(
      `| ${sort} | 5 | ${Math.round(1000 / meanMs).toLocaleString("en-US")} ops/s | 4.75 µs | ${formatMs(p50)} | ${formatMs(p95)} | ${formatMs(p99)} |`,
    );
    expect(formatMs(p95)).toMatch(/ µs$/);
    expect(markdown).toContain(
      `| ${markdownText("example.com/json > BenchmarkEncode")} | 3 | 42.7M ops/s | 23.4 ns | — | — | — |`,
    );
    expect(markdown).not.toContain("All endpoints");
    expect(markdown).not.toContain("All benchmarks");
    expect(markdown).not.toContain("Error %");
    expect(markdown).not.toContain("req/s");
  });

  it("names every changed benchmark, its time per operation and its status", () => {
    const markdown = renderRunMarkdown(benchmarksDocument(), failedGate());
    expect(markdown).toContain("### ❌ Benchtrack: **FAIL**: 1 benchmark regressed");
    expect(markdown).toContain("| Benchmark | Metric | Baseline | This run | Δ | Status |");
    const sort = markdownText("example.com/sort > BenchmarkSortInts/n=100");
    expect(markdown).toContain(`| ${sort} | mean time/op | 4.76 µs | 6.22 µs | +30.6% | ❌ significant: p ${markdownText("<")} 0.001, Holm-adjusted p = 0.0004 |`);
  });
});

describe("renderRunMarkdown of a load test", () => {
  it("keeps its endpoint table, aggregate row and req/s", () => {
    const run = emptyRun("benchtrack", "k6");
    const endpoint = emptyEndpoint("GET /items");
    endpoint.protocol = "http";
    endpoint.requests = 3000;
    endpoint.failures = 3;
    endpoint.throughput = 100;
    run.endpoints = [endpoint];
    run.aggregate = { ...emptyEndpoint("(all)"), requests: 3000, failures: 3, throughput: 100 };
    const markdown = renderRunMarkdown({ ...toBenchtrackDocument(run), url: "http://bench.test/r", grade: null });
    expect(markdown).toContain("| Endpoint | Count | RPS | P50 | P95 | P99 | Error % |");
    expect(markdown).toContain("| GET /items | 3,000 | 100 req/s | — | — | — | 0.10% |");
    expect(markdown).toContain("| **All endpoints** | 3,000 | 100 req/s | — | — | — | 0.10% |");
  });
});
