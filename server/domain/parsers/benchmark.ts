/**
 * What every microbenchmark parser builds (docs/benchmarks.md): one benchmark as an endpoint result
 * whose latency is its time per operation (ms, as every latency is stored; pages show ns, µs or ms as
 * fits), whose throughput is operations per second, whose `requests` are its samples (repetitions,
 * rounds or timed runs) and whose memory and other figures are custom metrics with the direction the
 * tool's unit says. Samples give exact percentiles and a histogram; without samples only what the tool
 * wrote is kept, and nothing is invented.
 */
import { summarizeSamples } from "../stats/percentile";
import { latencyHistogramOf } from "../stats/latency-histogram";
import type { Better, CustomMetric, EndpointResult, FormatId, LatencySummary, ParsedRun } from "../run";
import { BENCHMARK_PROTOCOL, emptyEndpoint, emptyRun } from "../run";
import { InputError } from "../input-error";

/** The time units benchmark tools write, and one of each in milliseconds. */
export const TIME_UNIT_MS = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000 } as const;
export type TimeUnit = keyof typeof TIME_UNIT_MS;

export function isTimeUnit(unit: string): unit is TimeUnit {
  return Object.hasOwn(TIME_UNIT_MS, unit);
}

/** A value in `unit` as milliseconds. */
export function toMs(value: number, unit: TimeUnit): number {
  return value * TIME_UNIT_MS[unit];
}

/**
 * A benchmark's name as its series' identity: the group, then the name with its parameters, joined as
 * vitest joins them ("json > stringify 200 records", "sort > test_sort[100]"). Without a group, the name.
 */
export function benchmarkName(name: string, group: string | null | undefined): string {
  return group ? `${group} > ${name}` : name;
}

/** What a tool wrote about a benchmark's time per operation when it gives no samples (ms). */
export interface TimeSummary {
  meanMs: number | null;
  minMs?: number | null;
  maxMs?: number | null;
  stdDevMs?: number | null;
  /** Percentiles the tool wrote ("50", "75", "99"…), in ms. */
  percentiles?: Record<string, number>;
  /** How many samples the summary is of. */
  samples: number | null;
}

export interface BenchmarkInput {
  /** Identity: the name with its parameters, and the group (benchmarkName joins them). */
  name: string;
  group?: string | null;
  /** The tool's own full name when it differs (pytest's `fullname`, vitest's file > group > name). */
  fullName?: string | null;
  /** Time per operation of each sample (repetition, round, timed run), ms. Preferred over `summary`. */
  samplesMs?: readonly number[] | null;
  /** What the tool wrote, used when it keeps no samples (vitest 4, benchmark.js). */
  summary?: TimeSummary | null;
  /** Operations per second as the tool states it; else 1000 / mean time per operation. */
  opsPerSecond?: number | null;
  /** Samples that failed (hyperfine's non-zero exit codes); null when the tool does not say. */
  failures?: number | null;
  metrics?: Record<string, CustomMetric>;
}

/**
 * Which way a benchmark unit is better, from the unit alone (as benchstat reads them): time and memory
 * per operation ("ns/op", "ns/lookup", "B/op", "allocs/op") lower; rates ("MB/s", "items/s", "ops/s")
 * higher; anything else (a count such as "hits/op") unknown, so it is shown and never judged.
 */
export function directionOfUnit(unit: string): Better | null {
  if (/\/s(ec)?$/i.test(unit) || /per[_ ]second$/i.test(unit)) return "higher";
  const [numerator] = unit.split("/");
  if (numerator !== undefined && (isTimeUnit(numerator) || /^(sec|seconds?)$/.test(numerator))) return "lower";
  if (/^(B|bytes|KB|MB|allocs)\/op$/i.test(unit)) return "lower";
  return null;
}

export function benchmarkMetric(value: number, unit: string, better: Better | null = directionOfUnit(unit)): CustomMetric {
  return { value, unit, better };
}

/**
 * Units that count what one operation does rather than time it: allocations and bytes allocated per
 * operation (Go's -benchmem, Google Benchmark's memory counters), instructions. Counted, not timed, they
 * do not vary with the machine's load: when a run's repetitions all agree, the count is exact.
 */
export function isCountUnit(unit: string): boolean {
  return /^(B|bytes|allocs)\/op$/i.test(unit) || /^(instructions|Ir)(\/op)?$/i.test(unit);
}

/**
 * A benchmark metric measured in each repetition: valued at the mean, and exact when it is a count
 * (isCountUnit) with a direction, read in at least two repetitions that all agree. One repetition
 * cannot tell a constant count from one that varies, so it is not exact.
 */
export function benchmarkMetricOfRepetitions(values: readonly number[], unit: string): CustomMetric {
  const metric = benchmarkMetric(values.reduce((sum, value) => sum + value, 0) / values.length, unit);
  const isConstant = values.length >= 2 && values.every((value) => value === values[0]);
  return isConstant && metric.better !== null && isCountUnit(unit) ? { ...metric, exact: true } : metric;
}

/** A benchmark's result: time per operation from its samples (or the tool's summary), ops/s, metrics. */
export function benchmarkResult(input: BenchmarkInput): EndpointResult {
  const result = emptyEndpoint(benchmarkName(input.name, input.group));
  const fullName = input.fullName ?? null;
  result.fullName = fullName !== null && fullName !== result.name ? fullName : null;
  result.protocol = BENCHMARK_PROTOCOL;
  const samples = input.samplesMs ?? [];
  if (samples.some((sample) => !(Number.isFinite(sample) && sample >= 0))) {
    throw new InputError("malformed", `benchmark "${result.name}": a sample time is not a non-negative number`, [
      { path: result.name, message: "expected times ≥ 0" },
    ]);
  }
  if (samples.length > 0) {
    result.latency = summarizeSamples(samples);
    result.requests = samples.length;
    // Nanosecond ticks: a benchmark's time per operation can be a few ns (HDR buckets stay 1% wide).
    result.histogram = latencyHistogramOf(samples, NS_TICKS_PER_MS);
  } else if (input.summary) {
    result.latency = latencyFromSummary(input.summary);
    result.requests = input.summary.samples;
  }
  result.failures = input.failures ?? null;
  const meanMs = result.latency.meanMs;
  result.throughput = input.opsPerSecond ?? (meanMs !== null && meanMs > 0 ? 1000 / meanMs : null);
  result.metrics = { ...input.metrics };
  return result;
}

/** Histogram ticks of a time per operation: ns (a benchmark's can be a few ns; HDR buckets stay 1% wide). */
export const NS_TICKS_PER_MS = 1e6;

function latencyFromSummary(summary: TimeSummary): LatencySummary {
  return {
    minMs: summary.minMs ?? null,
    meanMs: summary.meanMs,
    maxMs: summary.maxMs ?? null,
    stdDevMs: summary.stdDevMs ?? null,
    percentiles: { ...summary.percentiles },
  };
}

/**
 * A run of benchmarks: its aggregate has no numbers (a mean over unrelated benchmarks means nothing),
 * only the count of samples; each benchmark is judged on its own.
 */
export function benchmarkRun(format: FormatId, tool: string, benchmarks: EndpointResult[]): ParsedRun {
  const run = emptyRun(format, tool);
  if (benchmarks.length === 0) {
    throw new InputError("malformed", `${tool}: the file holds no benchmark results`, [
      { path: "(file)", message: "expected at least one benchmark" },
    ]);
  }
  const seen = new Set<string>();
  for (const benchmark of benchmarks) {
    if (seen.has(benchmark.name)) {
      throw new InputError("malformed", `${tool}: benchmark "${benchmark.name}" appears twice`, [
        { path: benchmark.name, message: "benchmark names must be unique within a run" },
      ]);
    }
    seen.add(benchmark.name);
  }
  run.endpoints = benchmarks;
  run.aggregate.protocol = BENCHMARK_PROTOCOL;
  // The count of samples, when every benchmark states its own (a sum of unknowns is unknown).
  const counts = benchmarks.map((benchmark) => benchmark.requests);
  run.aggregate.requests = counts.every((count) => count !== null)
    ? counts.reduce((sum, count) => sum + (count ?? 0), 0)
    : null;
  return run;
}
