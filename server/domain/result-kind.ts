import { formatMetricValue, formatOpsRate, formatRate } from "./format";
import { CUSTOM_METRIC_PREFIX, metricDefinition } from "./metrics";
import { AGGREGATE_NAME, BENCHMARK_PROTOCOL } from "./run";

/**
 * What a result measures, in words: a load test's endpoint or a microbenchmark (docs/benchmarks.md). A
 * benchmark is stored as an endpoint of protocol "benchmark" whose latency is its time per operation,
 * whose requests are its samples and whose throughput is operations per second; this module is the one
 * place that turns that into the nouns, metric labels and units pages, Markdown and webhooks show, so
 * no page decides it with a ternary of its own. Pure: import it anywhere.
 */

/** A result's kind: "endpoint" (a load test's) or "benchmark". */
export type ResultKind = "endpoint" | "benchmark";
/** The kind of several results: one kind, or "mixed" when both are present. */
export type ResultKinds = ResultKind | "mixed";

export interface ResultWords {
  kind: ResultKinds;
  /** "endpoint", "benchmark". */
  noun: string;
  /** "endpoints", "benchmarks". */
  nouns: string;
  /** As a heading or a column: "Endpoint", "Benchmark". */
  nounTitle: string;
  /** As a section title: "Endpoints", "Benchmarks". */
  nounsTitle: string;
  /** The run aggregate's display name: "All endpoints", "All benchmarks". */
  aggregate: string;
  /** The trend page's subtitle: "Endpoint trends", "Benchmark trends". */
  trends: string;
  /** What `requests` counts: "requests", "samples". */
  count: string;
  /** Its column: "Count", "Samples". */
  countTitle: string;
  /** The throughput's unit: "req/s", "ops/s". */
  throughputUnit: "req/s" | "ops/s";
  /** Its short column name: "RPS", "Ops/s". */
  throughputTitle: string;
  /** What latency is called: "latency", "time/op". */
  latency: string;
  /** A chart or column title for it: "Latency", "Time per operation". */
  latencyTitle: string;
  /**
   * Whether it has what only a load test has: failures and an error rate, status codes, a load profile,
   * timelines, a capacity curve. A benchmark has none of these (hyperfine's non-zero exits aside).
   */
  hasLoad: boolean;
}

const ENDPOINT_WORDS: ResultWords = {
  kind: "endpoint",
  noun: "endpoint",
  nouns: "endpoints",
  nounTitle: "Endpoint",
  nounsTitle: "Endpoints",
  aggregate: "All endpoints",
  trends: "Endpoint trends",
  count: "requests",
  countTitle: "Count",
  throughputUnit: "req/s",
  throughputTitle: "RPS",
  latency: "latency",
  latencyTitle: "Latency",
  hasLoad: true,
};

const BENCHMARK_WORDS: ResultWords = {
  kind: "benchmark",
  noun: "benchmark",
  nouns: "benchmarks",
  nounTitle: "Benchmark",
  nounsTitle: "Benchmarks",
  aggregate: "All benchmarks",
  trends: "Benchmark trends",
  count: "samples",
  countTitle: "Samples",
  throughputUnit: "ops/s",
  throughputTitle: "Ops/s",
  latency: "time/op",
  latencyTitle: "Time per operation",
  hasLoad: false,
};

/** Both kinds in one set (a project or a run with load tests and benchmarks): each row still has its own words. */
const MIXED_WORDS: ResultWords = {
  kind: "mixed",
  noun: "endpoint or benchmark",
  nouns: "endpoints and benchmarks",
  nounTitle: "Endpoint or benchmark",
  nounsTitle: "Endpoints and benchmarks",
  aggregate: "All endpoints",
  trends: "Trends",
  count: "requests or samples",
  countTitle: "Count",
  throughputUnit: "req/s",
  throughputTitle: "Throughput",
  latency: "latency or time/op",
  latencyTitle: "Latency or time per operation",
  hasLoad: true,
};

export const RESULT_WORDS: Readonly<Record<ResultKinds, ResultWords>> = {
  endpoint: ENDPOINT_WORDS,
  benchmark: BENCHMARK_WORDS,
  mixed: MIXED_WORDS,
};

/** The kind of a result, an endpoint identity, a run (its aggregate's protocol) or a bare protocol. */
export function resultKindOf(subject: { protocol: string | null } | string | null): ResultKind {
  const protocol = typeof subject === "string" || subject === null ? subject : subject.protocol;
  return protocol === BENCHMARK_PROTOCOL ? "benchmark" : "endpoint";
}

/** The kind of several results: the one kind they share, "mixed", or "endpoint" when there are none. */
export function resultKindsOf(subjects: Iterable<{ protocol: string | null } | string | null>): ResultKinds {
  const kinds = new Set<ResultKind>();
  for (const subject of subjects) kinds.add(resultKindOf(subject));
  if (kinds.size > 1) return "mixed";
  return kinds.has("benchmark") ? "benchmark" : "endpoint";
}

/** The words for a kind, or for a result, run or protocol. */
export function wordsOf(subject: ResultKinds | { protocol: string | null } | null): ResultWords {
  if (subject === "endpoint" || subject === "benchmark" || subject === "mixed") return RESULT_WORDS[subject];
  return RESULT_WORDS[resultKindOf(subject)];
}

/** A count with its noun: "1 endpoint", "3 benchmarks", "2 endpoints and benchmarks". */
export function countNouns(count: number, kind: ResultKinds): string {
  const words = RESULT_WORDS[kind];
  return `${count} ${count === 1 ? words.noun : words.nouns}`;
}

/** A result's name as shown: its own, or the aggregate's for the kind ("All benchmarks"). */
export function resultDisplayName(name: string | null, kind: ResultKinds): string {
  return name === null || name === AGGREGATE_NAME ? RESULT_WORDS[kind].aggregate : name;
}

const BENCHMARK_STAT_NAMES: Readonly<Record<string, string>> = { mean: "mean", min: "min", max: "max" };

/**
 * A metric's short name in a table or a sentence ("EncodeJSON p95 +4.1%"), in people's words, never the
 * API's keys: an endpoint's "p95", "mean", "throughput", "error rate", and a custom metric by its key
 * ("cpu" for metrics.cpu, "allocs/op"); a benchmark's read as what they measure: "p95 time/op",
 * "mean time/op", "ops/s". The API, SLA targets and `?metric=` keep the keys.
 */
export function metricShortName(metric: string, kind: ResultKinds): string {
  if (metric === "errorRate") return "error rate";
  if (metric.startsWith(CUSTOM_METRIC_PREFIX)) return metric.slice(CUSTOM_METRIC_PREFIX.length);
  if (kind !== "benchmark") return metric;
  if (metric === "throughput") return "ops/s";
  const stat = BENCHMARK_STAT_NAMES[metric];
  if (stat !== undefined) return `${stat} time/op`;
  if (/^p\d/.test(metric)) return `${metric} time/op`;
  return metric;
}

/**
 * A metric's title (a chart's, a column's, a select option's): the registry's label for an endpoint
 * ("p95 latency", "Mean latency", "Throughput"), the time per operation for a benchmark ("p95 time/op",
 * "Mean time/op", "Throughput (ops/s)").
 */
export function metricTitle(metric: string, kind: ResultKinds): string {
  const definition = metricDefinition(metric);
  if (kind !== "benchmark") return definition?.label ?? metric;
  if (metric === "throughput") return "Throughput (ops/s)";
  const short = metricShortName(metric, kind);
  return short.charAt(0).toUpperCase() + short.slice(1);
}

/** A metric's unit for a kind: the registry's, except a benchmark's throughput, in ops/s. */
export function metricUnitOf(metric: string, unit: string | null, kind: ResultKinds): string | null {
  return metric === "throughput" && kind === "benchmark" ? "ops/s" : unit;
}

/** A metric's value in its unit, as the kind reads it ("4.76 µs", "210,000 ops/s", "2.87 req/s"). */
export function formatResultMetric(
  metric: string,
  unit: string | null,
  value: number | null | undefined,
  kind: ResultKinds,
): string {
  return formatMetricValue(metric, metricUnitOf(metric, unit, kind), value);
}

/** A throughput as the kind reads it: requests per second for an endpoint, operations per second for a benchmark. */
export function formatThroughput(value: number | null | undefined, kind: ResultKinds): string {
  return kind === "benchmark" ? formatOpsRate(value) : formatRate(value);
}
