/**
 * JMH's JSON result (`-rf json`, ResultFormatType.JSON). Built from JMH's source, as no JMH run can be
 * made here: the layout is read in openjdk/jmh
 * jmh-core/src/main/java/org/openjdk/jmh/results/format/JSONResultFormat.java (`writeOut`,
 * `getRawData`, `emit`): a top-level array of one object per benchmark run (a method × its `params` ×
 * its mode) with `jmhVersion`, `benchmark`, `mode` (Mode.shortLabel: thrpt, avgt, sample, ss),
 * `threads`, `forks`, `jvm`, `jdkVersion`, `vmName`, `vmVersion`, the warmup/measurement settings,
 * `params` (strings), `primaryMetric` {score, scoreError, scoreConfidence, scorePercentiles (0 … 100),
 * scoreUnit, and `rawData` (one list of iteration scores per fork) or, in sample mode,
 * `rawDataHistogram` (per fork, per iteration, [value, count] pairs)} and `secondaryMetrics` (the
 * profilers', same shape). `emit` writes NaN and infinities as the strings "NaN", "+INF", "-INF".
 *
 * Kept, per benchmark (name = benchmark with its params: `com.acme.Bench.sort:size=1000`):
 * - avgt and ss (time per operation): each rawData iteration score is a sample, converted to ms.
 * - thrpt (operations per time unit): each iteration's throughput t becomes a time per operation of
 *   1/t time units (the reciprocal), converted to ms; ops/s is the file's score (the mean throughput)
 *   in ops/s. So the mean time per op is the mean of the reciprocals, not 1/score. With several threads
 *   JMH sums their throughput, so 1/t is the time between operations of all threads together (a note).
 * - sample: JMH times single operations and keeps them in a histogram (util/SampleBuffer.java: whole ns
 *   with 10 significant bits); rawDataHistogram is that histogram, so the sample count is its total,
 *   the histogram is rebuilt from it exactly, min/max/percentiles are JMH's scorePercentiles, the mean
 *   is JMH's score and the standard deviation is computed from the pairs.
 * - Without rawData (`-Djmh.json.rawData=false`): JMH's score, min and max (scorePercentiles 0 and 100)
 *   and, for time modes, its percentiles; no sample count.
 * - Secondary metrics: gc.alloc.rate.norm as "B/op" (lower is better, as Go and BenchmarkDotNet write
 *   it), every other one under its own name (a leading "·" of older JMH removed) with its unit; per-op
 *   and time units get their direction, rates (MB/sec follows the throughput) and counts none.
 * Run: jmhVersion → toolVersion; jdkVersion, vmName, vmVersion → attributes. The file states no
 * hardware, so the testbed is null.
 * Dropped: JMH's 99.9% scoreError/scoreConfidence (recomputed from the samples when needed), warmup
 * settings, jvm path and arguments.
 */
import { z } from "zod";
import { InputError } from "../../input-error";
import { MAX_INT32 } from "../validate";
import { latencyHistogramOfCounts } from "../../stats/latency-histogram";
import type { CustomMetric, EndpointResult, ParsedRun } from "../../run";
import {
  benchmarkMetric,
  benchmarkResult,
  benchmarkRun,
  directionOfUnit,
  isTimeUnit,
  NS_TICKS_PER_MS,
  TIME_UNIT_MS,
  type TimeSummary,
} from "../benchmark";
import { parseWire } from "../wire";
import { MAX_BENCHMARKS, benchmarkLimit } from "../validate";

/** A number as JSONResultFormat.emit writes it: a JSON number, or "NaN", "+INF", "-INF". */
const jmhNumber = z.union([z.number(), z.enum(["NaN", "+INF", "-INF"])]);
type JmhNumber = z.infer<typeof jmhNumber>;

const histogramPair = z.tuple([z.number().nonnegative(), z.number().int().nonnegative()]);

const metricSchema = z.object({
  score: jmhNumber,
  scoreError: jmhNumber.optional(),
  scoreConfidence: z.array(jmhNumber).optional(),
  scorePercentiles: z.record(z.string(), jmhNumber).optional(),
  scoreUnit: z.string().min(1),
  rawData: z.array(z.array(jmhNumber)).optional(),
  rawDataHistogram: z.array(z.array(z.array(histogramPair))).optional(),
});
type JmhMetric = z.infer<typeof metricSchema>;

const resultSchema = z.object({
  jmhVersion: z.string().optional(),
  benchmark: z.string().min(1),
  mode: z.enum(["thrpt", "avgt", "sample", "ss"]),
  threads: z.number().int().positive().optional(),
  forks: z.number().int().nonnegative().optional(),
  jdkVersion: z.string().optional(),
  vmName: z.string().optional(),
  vmVersion: z.string().optional(),
  params: z.record(z.string(), z.string()).optional(),
  primaryMetric: metricSchema,
  secondaryMetrics: z.record(z.string(), z.object({ score: jmhNumber, scoreUnit: z.string() })).optional(),
});
type JmhResult = z.infer<typeof resultSchema>;

const documentSchema = z.array(resultSchema);

/** JMH's time units (TimeValue.tuToString: ns, us, ms, s, min, hr, day), in ms. */
const JMH_TIME_UNIT_MS: Readonly<Record<string, number>> = {
  ns: TIME_UNIT_MS.ns,
  us: TIME_UNIT_MS.us,
  ms: TIME_UNIT_MS.ms,
  s: TIME_UNIT_MS.s,
  min: 60_000,
  hr: 3_600_000,
  day: 86_400_000,
};


/** A JMH score unit: time per operation ("us/op") or operations per time ("ops/ms"), with the time unit in ms. */
type ScoreUnit = { kind: "time per op" | "ops per time"; unitMs: number };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** JMH writes a top-level array of `{benchmark, mode, primaryMetric, …}`. */
export function isJmhJson(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (entry) =>
        isRecord(entry) &&
        typeof entry.benchmark === "string" &&
        typeof entry.mode === "string" &&
        isRecord(entry.primaryMetric),
    )
  );
}

export function parseJmhJson(document: unknown): ParsedRun {
  if (Array.isArray(document) && document.length === 0) {
    return refuse("(file)", "the file holds no results (an empty array)", "expected one object per benchmark");
  }
  const results = parseWire(documentSchema, document, "JMH JSON result");
  benchmarkLimit(results.length, `[${MAX_BENCHMARKS}]`);
  const names = results.map(nameOf);
  const seen = new Map<string, number>();
  for (const name of names) seen.set(name, (seen.get(name) ?? 0) + 1);
  // One method run in several modes (-bm all) is one benchmark per mode.
  const benchmarks = results.map((result, index) => {
    const name = names[index] ?? result.benchmark;
    return benchmarkOf(result, `[${index}]`, (seen.get(name) ?? 0) > 1 ? `${name} (${result.mode})` : name);
  });
  const run = benchmarkRun("jmh-json", "jmh", benchmarks);
  const first = results[0];
  run.toolVersion = results.find((result) => result.jmhVersion)?.jmhVersion ?? null;
  const attributes = run.environment.attributes;
  if (first?.jdkVersion) attributes.jdkVersion = first.jdkVersion;
  if (first?.vmName) attributes.vmName = first.vmName;
  if (first?.vmVersion) attributes.vmVersion = first.vmVersion;
  const shared = results.filter((result) => result.mode === "thrpt" && (result.threads ?? 1) > 1);
  if (shared.length > 0) {
    run.notes.push(
      `${shared.length} throughput benchmark(s) ran several threads (${nameOf(shared[0]!)}: ${shared[0]!.threads}); JMH adds up their throughput, so the time per operation shown (1 / throughput) is the time between operations of all threads together, not one operation's latency`,
    );
  }
  return run;
}

/** The benchmark with its parameters, in JMH's declaration order: `com.acme.Bench.sort:size=1000,kind=quick`. */
function nameOf(result: JmhResult): string {
  const params = Object.entries(result.params ?? {});
  return params.length === 0
    ? result.benchmark
    : `${result.benchmark}:${params.map(([k, v]) => `${k}=${v}`).join(",")}`;
}

function refuse(path: string, message: string, detail: string): never {
  throw new InputError("malformed", `JMH JSON result: ${message}`, [{ path, message: detail }]);
}

function scoreUnitOf(unit: string, path: string): ScoreUnit {
  const [numerator, denominator, ...rest] = unit.split("/");
  if (rest.length === 0 && denominator === "op" && numerator !== undefined) {
    const unitMs = JMH_TIME_UNIT_MS[numerator];
    if (unitMs !== undefined) return { kind: "time per op", unitMs };
  }
  if (rest.length === 0 && numerator === "ops" && denominator !== undefined) {
    const unitMs = JMH_TIME_UNIT_MS[denominator];
    if (unitMs !== undefined) return { kind: "ops per time", unitMs };
  }
  return refuse(
    path,
    `the score unit "${unit}" is neither a time per operation nor operations per time`,
    'expected "<ns|us|ms|s|min|hr|day>/op" or "ops/<unit>"',
  );
}

function finiteOrNull(value: JmhNumber | undefined): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** One score as a time per operation in ms: a time as it is, a throughput by its reciprocal. */
function timePerOpMs(score: number, unit: ScoreUnit, path: string): number {
  if (unit.kind === "time per op") {
    if (!(score >= 0)) return refuse(path, "a time per operation below 0", "expected a time ≥ 0");
    return score * unit.unitMs;
  }
  if (!(score > 0))
    return refuse(path, "a throughput of 0 or less has no time per operation", "expected a throughput > 0");
  return unit.unitMs / score;
}

function benchmarkOf(result: JmhResult, path: string, name: string): EndpointResult {
  const primary = result.primaryMetric;
  const unit = scoreUnitOf(primary.scoreUnit, `${path}.primaryMetric.scoreUnit`);
  const score = finiteOrNull(primary.score);
  const opsPerSecond = unit.kind === "ops per time" && score !== null ? (score * 1000) / unit.unitMs : null;
  const metrics = secondaryMetricsOf(result);
  const rawData = primary.rawData ?? [];
  if (rawData.some((fork) => fork.length > 0)) {
    const samplesMs = rawData.flatMap((fork, forkIndex) =>
      fork.map((value, iteration) => {
        const at = `${path}.primaryMetric.rawData[${forkIndex}][${iteration}]`;
        if (typeof value !== "number") return refuse(at, `an iteration score is ${value}`, "expected a number");
        return timePerOpMs(value, unit, at);
      }),
    );
    return benchmarkResult({ name, samplesMs, opsPerSecond, metrics });
  }
  const histogram = primary.rawDataHistogram ?? [];
  if (histogram.some((fork) => fork.some((iteration) => iteration.length > 0))) {
    if (unit.kind !== "time per op") {
      return refuse(
        `${path}.primaryMetric.rawDataHistogram`,
        "a sample-mode histogram must be of times",
        "expected a time per operation unit",
      );
    }
    return sampledBenchmarkOf(primary, unit, path, name, metrics);
  }
  if (score === null) {
    return refuse(
      `${path}.primaryMetric.score`,
      `benchmark "${name}" has no score and no raw data`,
      "expected a number",
    );
  }
  return benchmarkResult({ name, summary: summaryOf(primary, unit, score, path), opsPerSecond, metrics });
}

/** Sample mode: JMH's histogram of single-operation times (see the header). */
function sampledBenchmarkOf(
  primary: JmhMetric,
  unit: ScoreUnit,
  path: string,
  name: string,
  metrics: Record<string, CustomMetric>,
): EndpointResult {
  const pairs = (primary.rawDataHistogram ?? []).flat(2).map(([value, count]) => [value * unit.unitMs, count] as const);
  const samples = pairs.reduce((sum, [, count]) => sum + count, 0);
  if (samples > MAX_INT32) {
    return refuse(
      `${path}.primaryMetric.rawDataHistogram`,
      `${samples} samples are more than a run can hold`,
      `at most ${MAX_INT32} samples`,
    );
  }
  const meanMs = samples > 0 ? pairs.reduce((sum, [value, count]) => sum + value * count, 0) / samples : null;
  const score = finiteOrNull(primary.score);
  const stdDevMs =
    meanMs !== null && samples > 1
      ? Math.sqrt(pairs.reduce((sum, [value, count]) => sum + (value - meanMs) ** 2 * count, 0) / (samples - 1))
      : null;
  const summary = summaryOf(primary, unit, score, path);
  const benchmark = benchmarkResult({
    name,
    summary: { ...summary, meanMs: summary.meanMs ?? meanMs, stdDevMs, samples },
    metrics,
  });
  benchmark.histogram = latencyHistogramOfCounts(pairs, NS_TICKS_PER_MS);
  return benchmark;
}

/** What the file states without raw data: the score, min and max, and a time mode's percentiles. */
function summaryOf(primary: JmhMetric, unit: ScoreUnit, score: number | null, path: string): TimeSummary {
  const percentiles: Record<string, number> = {};
  let minMs: number | null = null;
  let maxMs: number | null = null;
  for (const [key, raw] of Object.entries(primary.scorePercentiles ?? {})) {
    const value = finiteOrNull(raw);
    const rank = Number(key);
    if (value === null || !(rank >= 0 && rank <= 100)) continue;
    const ms = timePerOpMs(value, unit, `${path}.primaryMetric.scorePercentiles.${key}`);
    // 1/x reverses the order: a throughput's smallest is the longest time per operation, and its p90
    // is no time's p90 (only the extremes carry over).
    const isTime = unit.kind === "time per op";
    if (rank === 0) {
      if (isTime) minMs = ms;
      else maxMs = ms;
    } else if (rank === 100) {
      if (isTime) maxMs = ms;
      else minMs = ms;
    } else if (isTime) percentiles[String(rank)] = ms;
  }
  const meanMs = score === null ? null : timePerOpMs(score, unit, `${path}.primaryMetric.score`);
  return { meanMs, minMs, maxMs, percentiles, samples: null };
}

function secondaryMetricsOf(result: JmhResult): Record<string, CustomMetric> {
  const metrics: Record<string, CustomMetric> = {};
  for (const [key, metric] of Object.entries(result.secondaryMetrics ?? {})) {
    const value = finiteOrNull(metric.score);
    if (value === null) continue;
    const name = key.replace(/^·/, "");
    if (name === "gc.alloc.rate.norm" && metric.scoreUnit === "B/op") {
      metrics["B/op"] = benchmarkMetric(value, "B/op");
      continue;
    }
    const unit = metric.scoreUnit;
    const judged = unit.endsWith("/op") || isTimeUnit(unit);
    metrics[name] = benchmarkMetric(value, unit, judged ? directionOfUnit(unit) : null);
  }
  return metrics;
}
