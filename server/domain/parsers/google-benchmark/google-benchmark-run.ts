/**
 * What Google Benchmark's JSON and console table have in common, read into one shape (`GbenchRow`,
 * `GbenchContext`) and built into one run here, so both formats of a run give the same benchmark names,
 * testbed, metrics and notes (google-benchmark.ts says what is kept and dropped).
 *
 * Rows (Google Benchmark's `Run`s, src/benchmark_runner.cc and src/statistics.cc):
 * - `iteration` rows are the samples: with --benchmark_repetitions=N a benchmark instance (`run_name`)
 *   has N of them, else one. Time per operation = the row's real time in its time unit.
 * - `aggregate` rows are statistics over those repetitions (mean, median, stddev, cv, and any a
 *   benchmark adds with ComputeStatistics): never samples. Where the repetitions are there, Google
 *   Benchmark's mean is only checked against them; where they are not
 *   (--benchmark_report_aggregates_only), the mean, median and stddev rows are what the run keeps.
 * - `BigO` and `RMS` rows are the fit of a Complexity() family (`BM_Sort_BigO`, `BM_Sort_RMS`), a
 *   statement about the family, not one benchmark. They are kept as RUN metrics under the row's own
 *   name: `BM_Sort_BigO` = the real-time coefficient in ms per complexity unit (lower is faster), and
 *   `BM_Sort_BigO cpu_time` the CPU-time one; `BM_Sort_RMS` = the fit's normalised RMS error in % of
 *   CPU time (what the JSON's `rms` holds), shown but never judged: it measures the fit, not speed.
 */
import { InputError } from "../../input-error";
import type { CustomMetric, EndpointResult, FormatId, ParsedRun } from "../../run";
import { benchmarkMetric, benchmarkResult, benchmarkRun, directionOfUnit, toMs, type TimeUnit } from "../benchmark";
import { benchmarkLimit } from "../validate";

export const GOOGLE_BENCHMARK_TOOL = "google-benchmark";

/** The statistics Google Benchmark computes over repetitions by default (src/statistics.cc). */
export const DEFAULT_AGGREGATES = ["mean", "median", "stddev", "cv"] as const;

export type GbenchRow =
  | {
      kind: "iteration";
      /** The benchmark instance: `BM_Sort/1000`, `BM_x/threads:2`… (the series' identity). */
      runName: string;
      /** Where the row is, for errors: `benchmarks[12]` or `gbench.txt: line 40`. */
      where: string;
      /** Real and CPU time per iteration, in `unit`; null for a row that failed or was skipped. */
      realTime: number | null;
      cpuTime: number | null;
      unit: TimeUnit | null;
      counters: Record<string, number>;
      /** SkipWithError: a failed repetition (not a sample). */
      failed: boolean;
    }
  | {
      kind: "aggregate";
      runName: string;
      where: string;
      /** "mean", "median", "stddev", "cv" or a statistic the benchmark added. */
      aggregate: string;
      realTime: number;
      cpuTime: number;
      unit: TimeUnit | null;
      /** How many repetitions the statistic is over (Google Benchmark writes it as the iterations). */
      repetitions: number | null;
      counters: Record<string, number>;
    }
  | {
      kind: "complexity";
      /** The row's name (`BM_Sort_BigO`, `BM_Sort_RMS`): the run metric's key. */
      name: string;
      where: string;
      /** BigO: the coefficients in `unit` per complexity unit (`NlgN`…); RMS: a fraction of CPU time. */
      bigO: { realCoefficient: number; cpuCoefficient: number; unit: TimeUnit; complexity: string } | null;
      rms: number | null;
    };

/** The context block (JSON `context`, the console's header lines). */
export interface GbenchContext {
  startedAt: string | null;
  numCpus: number | null;
  /** As written: the JSON rounds to whole MHz, the console prints 6 significant digits. */
  mhzPerCpu: number | null;
  caches: { level: number; type: string; sizeBytes: number }[];
  /** "debug" or "release"; null when the file does not say. */
  libraryBuildType: string | null;
  cpuScalingEnabled: boolean | null;
  libraryVersion: string | null;
}

/** Counters whose direction Google Benchmark states: SetItemsProcessed and SetBytesProcessed are rates. */
const RATE_COUNTERS: Readonly<Record<string, string>> = { items_per_second: "items/s", bytes_per_second: "B/s" };
/** The memory manager's figures (RegisterMemoryManager): per iteration, lower is better. */
const MEMORY_COUNTERS: Readonly<Record<string, string>> = { allocs_per_iter: "allocs/op", max_bytes_used: "B" };

/**
 * The testbed a Google Benchmark file states: CPU count and clock, and the cache sizes (which tell apart
 * two CPUs of one clock), e.g. "2 × 2596 MHz CPUs · L1d 32 KiB, L1i 32 KiB, L2 1024 KiB, L3 32768 KiB".
 * The clock is rounded to whole MHz as the JSON writes it, so the console's "2596.14" gives the same
 * string. Never the host name. Null when the file states neither CPUs nor clock.
 */
export function gbenchTestbedOf(context: GbenchContext): string | null {
  if (context.numCpus === null || context.mhzPerCpu === null) return null;
  const cpus = `${context.numCpus} × ${Math.round(context.mhzPerCpu)} MHz CPU${context.numCpus === 1 ? "" : "s"}`;
  if (context.caches.length === 0) return cpus;
  const caches = context.caches.map(
    (cache) => `L${cache.level}${cacheLetter(cache.type)} ${cache.sizeBytes / 1024} KiB`,
  );
  return `${cpus} · ${caches.join(", ")}`;
}

function cacheLetter(type: string): string {
  if (type === "Data") return "d";
  if (type === "Instruction") return "i";
  return "";
}

/** The run of one file's rows: benchmarks in their first row's order, complexity fits as run metrics. */
export function buildGbenchRun(
  format: Extract<FormatId, "google-benchmark-json" | "google-benchmark-console">,
  rows: readonly GbenchRow[],
  context: GbenchContext,
  /** How far Google Benchmark's mean may be from the mean of the repetitions as read (printed precision). */
  tolerance: MeanTolerance,
): ParsedRun {
  const notes: string[] = [];
  const byName = new Map<
    string,
    { iterations: Extract<GbenchRow, { kind: "iteration" }>[]; aggregates: Extract<GbenchRow, { kind: "aggregate" }>[] }
  >();
  const metrics: Record<string, CustomMetric> = {};
  for (const row of rows) {
    if (row.kind === "complexity") {
      addComplexityMetrics(metrics, row);
      continue;
    }
    let entry = byName.get(row.runName);
    if (!entry) {
      benchmarkLimit(byName.size + 1, row.where);
      entry = { iterations: [], aggregates: [] };
      byName.set(row.runName, entry);
    }
    if (row.kind === "iteration") entry.iterations.push(row);
    else entry.aggregates.push(row);
  }
  const results: EndpointResult[] = [];
  for (const [name, { iterations, aggregates }] of byName) {
    const result =
      iterations.length > 0
        ? resultOfRepetitions(name, iterations, aggregates, tolerance, notes)
        : resultOfAggregates(name, aggregates);
    if (result) results.push(result);
  }
  if (results.length === 0) {
    throw new InputError("malformed", "Google Benchmark: the file holds no benchmark results", [
      {
        path: rows[0]?.where ?? "benchmarks",
        message: "expected at least one benchmark row (run_type iteration or aggregate)",
      },
    ]);
  }
  const run = benchmarkRun(format, GOOGLE_BENCHMARK_TOOL, results);
  run.metrics = metrics;
  run.startedAt = context.startedAt;
  run.toolVersion = context.libraryVersion;
  run.environment.testbed = gbenchTestbedOf(context);
  if (context.libraryBuildType !== null) run.environment.attributes.library_build_type = context.libraryBuildType;
  if (context.libraryBuildType === "debug") {
    run.notes.push(
      "Google Benchmark reports its library as a debug build (library_build_type: debug), so timings may not be representative.",
    );
  }
  if (context.cpuScalingEnabled === true) {
    run.notes.push(
      "CPU frequency scaling was enabled: Google Benchmark warns that real-time measurements may be noisy, and the MHz in the testbed may differ between runs (pass testbed= to fix it).",
    );
  }
  run.notes.push(...notes);
  return run;
}

/** How far Google Benchmark's mean (in its unit) may be from the mean of the repetitions (same unit) as read. */
export type MeanTolerance = (mean: number, repetitions: readonly number[]) => number;

type IterationRow = Extract<GbenchRow, { kind: "iteration" }>;
type AggregateRow = Extract<GbenchRow, { kind: "aggregate" }>;

function resultOfRepetitions(
  name: string,
  iterations: readonly IterationRow[],
  aggregates: readonly AggregateRow[],
  tolerance: MeanTolerance,
  notes: string[],
): EndpointResult {
  const measured = iterations.filter((row) => !row.failed && row.realTime !== null && row.unit !== null);
  const failures = iterations.filter((row) => row.failed).length;
  const samplesMs = measured.map((row) => toMs(row.realTime ?? 0, row.unit ?? "ns"));
  const cpuMs = measured.map((row) => toMs(row.cpuTime ?? 0, row.unit ?? "ns"));
  const metrics =
    measured.length > 0 ? { cpu_time: benchmarkMetric(meanOf(cpuMs), "ms", "lower"), ...countersOf(measured) } : {};
  checkMean(name, iterations.length, measured, aggregates, tolerance, notes);
  return benchmarkResult({ name, samplesMs, failures, metrics });
}

/** A benchmark written as its aggregates only (--benchmark_report_aggregates_only). */
function resultOfAggregates(name: string, aggregates: readonly AggregateRow[]): EndpointResult | null {
  const of = (aggregate: string) => aggregates.find((row) => row.aggregate === aggregate);
  const mean = of("mean");
  if (!mean) return null;
  const inMs = (row: AggregateRow | undefined): number | null =>
    row && row.unit ? toMs(row.realTime, row.unit) : null;
  const median = inMs(of("median"));
  if (mean.unit === null) {
    throw new InputError("malformed", `Google Benchmark: "${name}_mean" has no time unit`, [
      { path: mean.where, message: "expected ns, us, ms or s" },
    ]);
  }
  return benchmarkResult({
    name,
    summary: {
      meanMs: toMs(mean.realTime, mean.unit),
      stdDevMs: inMs(of("stddev")),
      percentiles: median === null ? {} : { "50": median },
      samples: mean.repetitions,
    },
    metrics: { cpu_time: benchmarkMetric(toMs(mean.cpuTime, mean.unit), "ms", "lower"), ...countersOf([mean]) },
  });
}

/** Each counter's mean over the rows that have it, with the direction Google Benchmark states or its name says. */
function countersOf(rows: readonly { counters: Record<string, number> }[]): Record<string, CustomMetric> {
  const sums = new Map<string, { sum: number; count: number }>();
  for (const row of rows) {
    for (const [key, value] of Object.entries(row.counters)) {
      const entry = sums.get(key) ?? { sum: 0, count: 0 };
      entry.sum += value;
      entry.count += 1;
      sums.set(key, entry);
    }
  }
  const metrics: Record<string, CustomMetric> = {};
  for (const [key, { sum, count }] of sums) metrics[key] = counterMetric(key, sum / count);
  return metrics;
}

function counterMetric(key: string, value: number): CustomMetric {
  const rate = RATE_COUNTERS[key];
  if (rate !== undefined) return benchmarkMetric(value, rate, "higher");
  const memory = MEMORY_COUNTERS[key];
  if (memory !== undefined) return benchmarkMetric(value, memory, "lower");
  // A user counter: its unit is not in the file (the console's "/s" is not in the JSON), so none is kept.
  return { value, unit: null, better: directionOfUnit(key) };
}

/** Google Benchmark's own mean against the repetitions as read: a mismatch means rows are missing or altered. */
function checkMean(
  name: string,
  repetitions: number,
  measured: readonly IterationRow[],
  aggregates: readonly AggregateRow[],
  tolerance: MeanTolerance,
  notes: string[],
): void {
  const mean = aggregates.find((row) => row.aggregate === "mean");
  if (!mean || mean.unit === null || measured.length === 0) return;
  // Its "iterations" count every repetition, failed ones too (src/statistics.cc ComputeStats: reports.size()).
  if (mean.repetitions !== null && mean.repetitions !== repetitions) {
    notes.push(
      `${name}: Google Benchmark's statistics are of ${mean.repetitions} repetitions, but the file holds ${repetitions}; the ${repetitions} are kept.`,
    );
    return;
  }
  const inMeanUnit = measured.map((row) => toMs(row.realTime ?? 0, row.unit ?? "ns") / toMs(1, mean.unit ?? "ns"));
  const ours = meanOf(inMeanUnit);
  if (Math.abs(ours - mean.realTime) > tolerance(mean.realTime, inMeanUnit)) {
    notes.push(
      `${name}: Google Benchmark's mean (${mean.realTime} ${mean.unit}) is not the mean of its repetitions as written (${ours} ${mean.unit}); the repetitions are kept.`,
    );
  }
}

function addComplexityMetrics(
  metrics: Record<string, CustomMetric>,
  row: Extract<GbenchRow, { kind: "complexity" }>,
): void {
  if (row.bigO) {
    const { realCoefficient, cpuCoefficient, unit, complexity } = row.bigO;
    metrics[row.name] = benchmarkMetric(toMs(realCoefficient, unit), `ms/${complexity}`, "lower");
    metrics[`${row.name} cpu_time`] = benchmarkMetric(toMs(cpuCoefficient, unit), `ms/${complexity}`, "lower");
  }
  if (row.rms !== null) metrics[row.name] = { value: row.rms * 100, unit: "%", better: null };
}

/**
 * A `date` as Google Benchmark writes it (`2026-11-25T22:34:31+00:00`, 1.6 and later) in ISO form; an
 * older local time without its offset (`2019-05-10 14:32:11`) is not a point in time, so null.
 */
export function gbenchDateOf(date: string | undefined): string | null {
  if (date === undefined || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/.test(date)) return null;
  const time = Date.parse(date);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

function meanOf(values: readonly number[]): number {
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}
