/**
 * BenchmarkDotNet's full JSON report (`--exporters fulljson` → `<Title>-report-full.json`, JsonExporter.Full;
 * `--exporters json` writes the same unindented as `-report-full-compressed.json`). Built from
 * BenchmarkDotNet's source, as no .NET run can be made here: dotnet/BenchmarkDotNet
 * src/BenchmarkDotNet/Exporters/Json/JsonExporterBase.cs (`GetDataToSerialize`): `{Title,
 * HostEnvironmentInfo {BenchmarkDotNetVersion, OsVersion, ProcessorName, PhysicalProcessorCount,
 * PhysicalCoreCount, LogicalCoreCount, RuntimeVersion, Architecture, …}, Benchmarks: [{DisplayInfo,
 * Namespace, Type, Method, MethodTitle, Parameters, FullName, HardwareIntrinsics, Statistics, Memory
 * {Gen0Collections, Gen1Collections, Gen2Collections, TotalOperations, BytesAllocatedPerOperation} (with
 * MemoryDiagnoser), Measurements [{IterationMode, IterationStage, LaunchIndex, IterationIndex,
 * Operations, Nanoseconds}], Metrics [{Value, Descriptor {Id, Unit, TheGreaterTheBetter, …}}]}]}`.
 * Statistics (Mathematics/Statistics.cs) is ResultStatistics (Reports/BenchmarkReport.cs): the
 * Workload/Result measurements' Nanoseconds / Operations; null when the benchmark failed. SimpleJson.cs
 * writes NaN and infinities as "" (an empty string).
 *
 * Kept, per benchmark (name = FullName, `Namespace.Type.Method(Param: value)`; a benchmark run by
 * several jobs gets its job from DisplayInfo appended):
 * - samples: every Workload/Result measurement's Nanoseconds / Operations (ms), checked against
 *   Statistics (the same count and mean, or the file is refused); without Measurements (brief JSON),
 *   Statistics' mean, min, max, standard deviation, percentiles (P25 … P95) and N.
 * - Memory: BytesAllocatedPerOperation as "B/op"; Gen0/1/2 collections per 1000 operations as "Gen0",
 *   "Gen1", "Gen2" (BenchmarkDotNet's columns; lower is better, as its descriptors say).
 * - Metrics of other diagnosers, keyed by their Id, with their unit and TheGreaterTheBetter as direction
 *   (MemoryDiagnoser's own, Gen0Collects… and Allocated Memory, are the Memory figures above).
 * Run: BenchmarkDotNetVersion → toolVersion; the testbed as BenchmarkDotNet prints it ("AMD EPYC 7763,
 * 1 CPU, 4 logical and 2 physical cores"); RuntimeVersion and OsVersion → attributes.
 * Dropped: the pilot, warmup and overhead measurements, BenchmarkDotNet's outliers, quartiles and
 * confidence interval (recomputed from the samples), HardwareIntrinsics, the .NET SDK version.
 */
import { z } from "zod";
import { InputError } from "../../input-error";
import type { CustomMetric, EndpointResult, ParsedRun } from "../../run";
import { benchmarkMetric, benchmarkResult, benchmarkRun, toMs, type TimeSummary } from "../benchmark";
import { sourceOf, type DetectedFile } from "../uploaded-file";
import { parseWire } from "../wire";
import { MAX_BENCHMARKS, benchmarkLimit } from "../validate";

/** A double as SimpleJson writes it: a number, or "" for NaN and infinities. */
const bdnNumber = z.union([z.number(), z.literal("")]);
type BdnNumber = z.infer<typeof bdnNumber>;
const count = z.number().int().nonnegative();

const hostSchema = z.object({
  BenchmarkDotNetCaption: z.string().optional(),
  BenchmarkDotNetVersion: z.string().nullable().optional(),
  OsVersion: z.string().nullable().optional(),
  // 0.9 wrote a Lazy<string> as {IsValueCreated, Value}; later versions the string.
  ProcessorName: z
    .union([z.string(), z.object({ Value: z.string().nullable() })])
    .nullable()
    .optional(),
  PhysicalProcessorCount: count.nullable().optional(),
  PhysicalCoreCount: count.nullable().optional(),
  LogicalCoreCount: count.nullable().optional(),
  RuntimeVersion: z.string().nullable().optional(),
  Architecture: z.string().nullable().optional(),
});

const statisticsSchema = z.object({
  N: count,
  Min: bdnNumber.optional(),
  Mean: bdnNumber,
  Max: bdnNumber.optional(),
  StandardDeviation: bdnNumber.optional(),
  Percentiles: z.record(z.string(), bdnNumber).optional(),
});
type Statistics = z.infer<typeof statisticsSchema>;

const measurementSchema = z.object({
  IterationMode: z.string(),
  // Before 0.11, one field said it all ("Result"); since, the mode (Workload, Overhead) and the stage.
  IterationStage: z.string().optional(),
  LaunchIndex: count.optional(),
  IterationIndex: count.optional(),
  Operations: z.number().int().positive(),
  Nanoseconds: z.number(),
});

const benchmarkSchema = z.object({
  DisplayInfo: z.string().optional(),
  Namespace: z.string().nullable().optional(),
  Type: z.string().min(1),
  Method: z.string().min(1),
  Parameters: z.string().optional(),
  FullName: z.string().min(1).optional(),
  Statistics: statisticsSchema.nullable().optional(),
  Memory: z
    .object({
      Gen0Collections: count,
      Gen1Collections: count,
      Gen2Collections: count,
      TotalOperations: count,
      BytesAllocatedPerOperation: z.number().nonnegative().nullable().optional(),
    })
    .nullable()
    .optional(),
  Measurements: z.array(measurementSchema).optional(),
  Metrics: z
    .array(
      z.object({
        Value: bdnNumber,
        Descriptor: z.object({
          Id: z.string().min(1),
          Unit: z.string().nullable().optional(),
          TheGreaterTheBetter: z.boolean().optional(),
        }),
      }),
    )
    .optional(),
});
type Benchmark = z.infer<typeof benchmarkSchema>;

const documentSchema = z.object({
  Title: z.string().optional(),
  HostEnvironmentInfo: hostSchema.optional(),
  Benchmarks: z.array(benchmarkSchema).min(1, "the report holds no benchmarks"),
});
type Report = z.infer<typeof documentSchema>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `{Title, HostEnvironmentInfo: {…}, Benchmarks: […]}`. */
export function isBenchmarkDotNetJson(value: Record<string, unknown>): boolean {
  return isRecord(value.HostEnvironmentInfo) && Array.isArray(value.Benchmarks);
}

export function parseBenchmarkDotNetJson(document: unknown): ParsedRun {
  return readReports([{ report: parseWire(documentSchema, document, "BenchmarkDotNet JSON report"), prefix: "" }]);
}

/**
 * BenchmarkDotNet writes one report per benchmark class: the reports of one run, sent together, are
 * one run, if they state the same machine.
 */
export function parseBenchmarkDotNetSet(files: readonly DetectedFile[]): ParsedRun {
  const reports = files.map((file, index) => {
    const prefix = `${sourceOf(file, index)}: `;
    return { report: parseWire(documentSchema, file.document, "BenchmarkDotNet JSON report", prefix), prefix };
  });
  return readReports(reports);
}

function readReports(reports: readonly { report: Report; prefix: string }[]): ParsedRun {
  const testbeds = new Map(reports.map(({ report, prefix }) => [testbedOf(report), prefix]));
  if (testbeds.size > 1) {
    const [[first, firstPrefix], [second, secondPrefix]] = [...testbeds] as [
      [string | null, string],
      [string | null, string],
    ];
    const why = `"${first ?? "no processor"}" in ${firstPrefix.slice(0, -2)}, "${second ?? "no processor"}" in ${secondPrefix.slice(0, -2)}`;
    throw new InputError("malformed", `These BenchmarkDotNet reports are of different machines (${why})`, [
      { path: `${secondPrefix}HostEnvironmentInfo`, message: why },
    ]);
  }
  const notes: string[] = [];
  const entries = reports.flatMap(({ report, prefix }) =>
    report.Benchmarks.map((benchmark, index) => ({ benchmark, path: `${prefix}Benchmarks[${index}]` })),
  );
  benchmarkLimit(entries.length, entries[MAX_BENCHMARKS]?.path ?? "Benchmarks");
  const names = entries.map(({ benchmark }) => fullNameOf(benchmark));
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  const repeated = new Set(names.filter((name) => (counts.get(name) ?? 0) > 1));
  const results = entries.flatMap(({ benchmark, path }, index): EndpointResult[] => {
    const fullName = names[index] ?? fullNameOf(benchmark);
    const name = repeated.has(fullName) ? `${fullName} [${jobOf(benchmark)}]` : fullName;
    const result = resultOf(benchmark, name, path);
    if (result === null) notes.push(`${name} has no results (it failed to run): left out`);
    return result === null ? [] : [result];
  });
  const run = benchmarkRun("benchmarkdotnet-json", "benchmarkdotnet", results);
  const host = reports[0]?.report.HostEnvironmentInfo;
  run.toolVersion = host?.BenchmarkDotNetVersion ?? null;
  run.environment.testbed = reports[0] ? testbedOf(reports[0].report) : null;
  if (host?.RuntimeVersion) run.environment.attributes.RuntimeVersion = host.RuntimeVersion;
  if (host?.OsVersion) run.environment.attributes.OsVersion = host.OsVersion;
  run.notes.push(...notes);
  return run;
}

/** The hardware as BenchmarkDotNet's summary prints it (CpuInfoFormatter): "AMD EPYC 7763, 1 CPU, 4 logical and 2 physical cores". */
function testbedOf(report: Report): string | null {
  const host = report.HostEnvironmentInfo;
  const processor = typeof host?.ProcessorName === "object" ? host.ProcessorName?.Value : host?.ProcessorName;
  if (!processor) return null;
  const parts = [processor];
  if (typeof host?.PhysicalProcessorCount === "number") parts.push(`${host.PhysicalProcessorCount} CPU`);
  const logical = host?.LogicalCoreCount;
  const physical = host?.PhysicalCoreCount;
  if (typeof logical === "number" && typeof physical === "number")
    parts.push(`${logical} logical and ${physical} physical cores`);
  else if (typeof logical === "number") parts.push(`${logical} logical cores`);
  else if (typeof physical === "number") parts.push(`${physical} physical cores`);
  return parts.join(", ");
}

/** FullName (`Namespace.Type.Method(N: 100)`), or the same built from its parts by older versions. */
function fullNameOf(benchmark: Benchmark): string {
  if (benchmark.FullName) return benchmark.FullName;
  const prefix = benchmark.Namespace ? `${benchmark.Namespace}.` : "";
  return `${prefix}${benchmark.Type}.${benchmark.Method}${benchmark.Parameters ? `(${benchmark.Parameters})` : ""}`;
}

/** The job of `Type.Method: Job-ABC [N=100]`. */
function jobOf(benchmark: Benchmark): string {
  const display = benchmark.DisplayInfo ?? "";
  const colon = display.indexOf(": ");
  const job = colon === -1 ? display : display.slice(colon + 2);
  const bracket = benchmark.Parameters ? job.lastIndexOf(" [") : -1;
  return (bracket === -1 ? job : job.slice(0, bracket)) || "unnamed job";
}

function finite(value: BdnNumber | undefined | null): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function isResult(measurement: z.infer<typeof measurementSchema>): boolean {
  return measurement.IterationStage === undefined
    ? measurement.IterationMode === "Result"
    : measurement.IterationMode === "Workload" && measurement.IterationStage === "Result";
}

function resultOf(benchmark: Benchmark, name: string, path: string): EndpointResult | null {
  const metrics = metricsOf(benchmark);
  const perOpNs = (benchmark.Measurements ?? []).filter(isResult).map((m) => m.Nanoseconds / m.Operations);
  const statistics = benchmark.Statistics ?? null;
  if (perOpNs.length > 0) {
    if (statistics) checkAgainstStatistics(perOpNs, statistics, `${path}.Statistics`);
    return benchmarkResult({ name, samplesMs: perOpNs.map((ns) => toMs(ns, "ns")), metrics });
  }
  if (!statistics || finite(statistics.Mean) === null) return null;
  return benchmarkResult({ name, summary: summaryOf(statistics), metrics });
}

/** Statistics is computed from the same measurements (BenchmarkReport.ResultStatistics): same count, same mean. */
function checkAgainstStatistics(perOpNs: readonly number[], statistics: Statistics, path: string): void {
  const stated = finite(statistics.Mean);
  const computed = perOpNs.reduce((sum, ns) => sum + ns, 0) / perOpNs.length;
  const sameMean =
    stated === null || Math.abs(computed - stated) <= 1e-9 * Math.max(Math.abs(stated), Math.abs(computed));
  if (statistics.N === perOpNs.length && sameMean) return;
  const why = `Statistics states N = ${statistics.N}, mean ${stated} ns; the Workload/Result measurements are ${perOpNs.length}, mean ${computed} ns`;
  throw new InputError("malformed", `BenchmarkDotNet report: the statistics and the measurements disagree (${why})`, [
    { path, message: why },
  ]);
}

function summaryOf(statistics: Statistics): TimeSummary {
  const ms = (value: BdnNumber | undefined) => {
    const ns = finite(value);
    return ns === null ? null : toMs(ns, "ns");
  };
  const percentiles: Record<string, number> = {};
  for (const [key, value] of Object.entries(statistics.Percentiles ?? {})) {
    const rank = /^P(\d+)$/.exec(key)?.[1];
    const converted = ms(value);
    if (rank !== undefined && converted !== null && rank !== "0" && rank !== "100") percentiles[rank] = converted;
  }
  return {
    meanMs: ms(statistics.Mean),
    minMs: ms(statistics.Min),
    maxMs: ms(statistics.Max),
    stdDevMs: ms(statistics.StandardDeviation),
    percentiles,
    samples: statistics.N,
  };
}

/** MemoryDiagnoser's metric ids (Diagnosers/MemoryDiagnoser.cs) and the keys of the same figures here. */
const MEMORY_METRIC_IDS: Readonly<Record<string, string>> = {
  Gen0Collects: "Gen0",
  Gen1Collects: "Gen1",
  Gen2Collects: "Gen2",
  "Allocated Memory": "B/op",
};
const PER_1K_OPS = "collections/1k op";

function metricsOf(benchmark: Benchmark): Record<string, CustomMetric> {
  const metrics: Record<string, CustomMetric> = {};
  for (const metric of benchmark.Metrics ?? []) {
    const value = finite(metric.Value);
    if (value === null) continue;
    const { Id: id, Unit: unit, TheGreaterTheBetter: greater } = metric.Descriptor;
    const memoryKey = MEMORY_METRIC_IDS[id];
    if (memoryKey === "B/op") metrics[memoryKey] = benchmarkMetric(value, "B/op");
    else if (memoryKey) metrics[memoryKey] = benchmarkMetric(value, PER_1K_OPS, "lower");
    else
      metrics[id] = { value, unit: unit ?? null, better: greater === undefined ? null : greater ? "higher" : "lower" };
  }
  // The Memory figures are what MemoryDiagnoser's metrics are computed from: they win.
  const memory = benchmark.Memory;
  if (memory) {
    const allocated = memory.BytesAllocatedPerOperation;
    if (typeof allocated === "number") metrics["B/op"] = benchmarkMetric(allocated, "B/op");
    if (memory.TotalOperations > 0) {
      const perThousand = (collections: number) => (collections / memory.TotalOperations) * 1000;
      metrics.Gen0 = benchmarkMetric(perThousand(memory.Gen0Collections), PER_1K_OPS, "lower");
      metrics.Gen1 = benchmarkMetric(perThousand(memory.Gen1Collections), PER_1K_OPS, "lower");
      metrics.Gen2 = benchmarkMetric(perThousand(memory.Gen2Collections), PER_1K_OPS, "lower");
    }
  }
  return metrics;
}
