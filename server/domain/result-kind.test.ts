import { describe, expect, it } from "vitest";
import { MISSING } from "./format";
import { AGGREGATE_NAME, BENCHMARK_PROTOCOL } from "./run";
import {
  RESULT_WORDS,
  countNouns,
  formatResultMetric,
  formatThroughput,
  metricShortName,
  metricTitle,
  metricUnitOf,
  resultDisplayName,
  resultKindOf,
  resultKindsOf,
  wordsOf,
} from "./result-kind";

const benchmark = { protocol: BENCHMARK_PROTOCOL };
const http = { protocol: "http" };

describe("resultKindOf", () => {
  it("reads the benchmark protocol, on a result, a run or a bare protocol", () => {
    expect(resultKindOf(benchmark)).toBe("benchmark");
    expect(resultKindOf("benchmark")).toBe("benchmark");
    expect(resultKindOf(http)).toBe("endpoint");
    expect(resultKindOf({ protocol: null })).toBe("endpoint");
    expect(resultKindOf(null)).toBe("endpoint");
    // Only the exact protocol: a gRPC method named "benchmark" is still an endpoint.
    expect(resultKindOf("Benchmark")).toBe("endpoint");
  });

  it("calls a set of both kinds mixed, and an empty set endpoints", () => {
    expect(resultKindsOf([benchmark, benchmark])).toBe("benchmark");
    expect(resultKindsOf([http, { protocol: null }])).toBe("endpoint");
    expect(resultKindsOf([http, benchmark])).toBe("mixed");
    expect(resultKindsOf([])).toBe("endpoint");
  });
});

describe("words", () => {
  it("names a benchmark's parts as a benchmark tool does", () => {
    const words = wordsOf(benchmark);
    expect(words).toMatchObject({
      noun: "benchmark",
      nouns: "benchmarks",
      nounsTitle: "Benchmarks",
      aggregate: "All benchmarks",
      trends: "Benchmark trends",
      count: "samples",
      countTitle: "Samples",
      throughputUnit: "ops/s",
      latency: "time/op",
      hasLoad: false,
    });
  });

  it("keeps a load test's words", () => {
    expect(wordsOf(http)).toMatchObject({
      noun: "endpoint",
      aggregate: "All endpoints",
      count: "requests",
      throughputUnit: "req/s",
      hasLoad: true,
    });
    expect(wordsOf(null)).toBe(RESULT_WORDS.endpoint);
    expect(wordsOf("mixed").nounsTitle).toBe("Endpoints and benchmarks");
  });

  it("counts with the right noun", () => {
    expect(countNouns(1, "benchmark")).toBe("1 benchmark");
    expect(countNouns(3, "benchmark")).toBe("3 benchmarks");
    expect(countNouns(0, "endpoint")).toBe("0 endpoints");
    expect(countNouns(2, "mixed")).toBe("2 endpoints and benchmarks");
  });

  it("names the aggregate by kind, and any other result by its name", () => {
    expect(resultDisplayName(AGGREGATE_NAME, "benchmark")).toBe("All benchmarks");
    expect(resultDisplayName(null, "endpoint")).toBe("All endpoints");
    expect(resultDisplayName("sort > BenchmarkSortInts/n=100", "benchmark")).toBe("sort > BenchmarkSortInts/n=100");
  });
});

describe("metric names", () => {
  it.each([
    ["mean", "mean time/op", "Mean time/op"],
    ["p50", "p50 time/op", "P50 time/op"],
    ["p99.9", "p99.9 time/op", "P99.9 time/op"],
    ["min", "min time/op", "Min time/op"],
    ["throughput", "ops/s", "Throughput (ops/s)"],
    ["metrics.B/op", "B/op", "B/op"],
    ["metrics.allocs/op", "allocs/op", "Allocs/op"],
  ])("a benchmark's %s reads %s (title %s)", (metric, short, title) => {
    expect(metricShortName(metric, "benchmark")).toBe(short);
    expect(metricTitle(metric, "benchmark")).toBe(title);
  });

  it.each([
    ["p95", "p95", "p95 latency"],
    ["mean", "mean", "Mean latency"],
    ["throughput", "throughput", "Throughput"],
    ["errorRate", "error rate", "Error rate"],
    ["metrics.cpu", "cpu", "cpu"],
    ["metrics.iterations", "iterations", "iterations"],
  ])("an endpoint's %s reads %s, never the API's key, and has the registry's title %s", (metric, short, title) => {
    expect(metricShortName(metric, "endpoint")).toBe(short);
    expect(metricTitle(metric, "endpoint")).toBe(title);
  });
});

describe("units and values", () => {
  it("gives a benchmark's throughput in ops/s, and leaves other units alone", () => {
    expect(metricUnitOf("throughput", "req/s", "benchmark")).toBe("ops/s");
    expect(metricUnitOf("throughput", "req/s", "endpoint")).toBe("req/s");
    expect(metricUnitOf("mean", "ms", "benchmark")).toBe("ms");
  });

  it("formats a benchmark's time per operation and throughput in its units", () => {
    expect(formatResultMetric("mean", "ms", 0.004761, "benchmark")).toBe("4.76 µs");
    expect(formatResultMetric("p50", "ms", 0.0000234, "benchmark")).toBe("23.4 ns");
    expect(formatResultMetric("throughput", "req/s", 210_000, "benchmark")).toBe("210,000 ops/s");
    expect(formatResultMetric("throughput", "req/s", 2.871, "endpoint")).toBe("2.87 req/s");
    expect(formatResultMetric("metrics.B/op", "B/op", 896, "benchmark")).toBe("896 B/op");
    expect(formatThroughput(1231.4, "benchmark")).toBe("1,231 ops/s");
    expect(formatThroughput(1231.4, "endpoint")).toBe("1,231 req/s");
    expect(formatThroughput(null, "benchmark")).toBe(MISSING);
  });
});
