import { describe, expect, it } from "vitest";
import { isBenchmarkDotNetJson, parseBenchmarkDotNetJson, parseBenchmarkDotNetSet } from "./benchmarkdotnet";
import { errorOf } from "../fixtures/input-error-of";
import { readFixture } from "../fixtures/read-fixture";
import { parseUpload } from "..";
import type { DetectedFile } from "../uploaded-file";

// The example files were written here in BenchmarkDotNet's documented layout (fixtures/documented/README.md).
const SORT = "documented/benchmarkdotnet/Acme.Benchmarks.SortBenchmarks-report-full.json";
const PARSE = "documented/benchmarkdotnet/Acme.Benchmarks.ParseBenchmarks-report-full.json";

type Json = Record<string, any>;
const fresh = (path = SORT): Json => JSON.parse(readFixture(path)) as Json;
const detected = (path: string, document: Json = fresh(path)): DetectedFile => ({
  name: path.split("/").at(-1) ?? path,
  text: JSON.stringify(document),
  format: "benchmarkdotnet-json",
  document,
});
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
/** The Workload/Result measurements' time per operation, ns: what Statistics is computed from. */
const resultNs = (benchmark: Json) =>
  (benchmark.Measurements as Json[])
    .filter((m) => m.IterationMode === "Workload" && m.IterationStage === "Result")
    .map((m) => m.Nanoseconds / m.Operations);

describe("BenchmarkDotNet full JSON (documented layout)", () => {
  const report = fresh();
  const run = parseBenchmarkDotNetJson(report);

  it("names each case by FullName and reads the host", () => {
    expect(run.format).toBe("benchmarkdotnet-json");
    expect(run.tool).toBe("benchmarkdotnet");
    expect(run.endpoints.map((endpoint) => endpoint.name)).toEqual(
      (report.Benchmarks as Json[]).map((b) => b.FullName),
    );
    expect(run.endpoints.map((endpoint) => endpoint.name)).toEqual([
      "Acme.Benchmarks.SortBenchmarks.ArraySort(N: 100)",
      "Acme.Benchmarks.SortBenchmarks.ArraySort(N: 1000)",
      "Acme.Benchmarks.SortBenchmarks.LinqOrderBy(N: 100)",
    ]);
    const host = report.HostEnvironmentInfo as Json;
    expect(run.toolVersion).toBe(host.BenchmarkDotNetVersion);
    expect(run.environment.testbed).toBe(
      `${host.ProcessorName}, ${host.PhysicalProcessorCount} CPU, ${host.LogicalCoreCount} logical and ${host.PhysicalCoreCount} physical cores`,
    );
    expect(run.environment.testbed).toBe("AMD EPYC 7763, 1 CPU, 4 logical and 2 physical cores");
    expect(run.environment.attributes).toEqual({ RuntimeVersion: host.RuntimeVersion, OsVersion: host.OsVersion });
    expect(run.environment.config).toEqual({});
  });

  it.each([0, 1, 2])(
    "case %i: the Workload/Result measurements are the samples, and agree with Statistics",
    (index) => {
      const benchmark = (report.Benchmarks as Json[])[index]!;
      const perOpNs = resultNs(benchmark);
      const result = run.endpoints[index]!;
      expect(perOpNs.length).toBeLessThan((benchmark.Measurements as Json[]).length);
      expect(result.requests).toBe(benchmark.Statistics.N);
      expect(result.requests).toBe(perOpNs.length);
      expect(result.latency.meanMs).toBeCloseTo(benchmark.Statistics.Mean / 1e6, 15);
      expect(result.latency.meanMs).toBeCloseTo(mean(perOpNs) / 1e6, 15);
      expect(result.latency.minMs).toBeCloseTo(benchmark.Statistics.Min / 1e6, 15);
      expect(result.latency.maxMs).toBeCloseTo(benchmark.Statistics.Max / 1e6, 15);
      // BenchmarkDotNet's median and our p50 interpolate the same way (Hyndman-Fan type 7).
      expect(result.latency.percentiles["50"]).toBeCloseTo(benchmark.Statistics.Median / 1e6, 15);
      expect(result.latency.stdDevMs).toBeCloseTo(benchmark.Statistics.StandardDeviation / 1e6, 15);
      expect(result.histogram?.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(perOpNs.length);
    },
  );

  it("keeps allocations as B/op and collections per 1000 operations", () => {
    const memory = (report.Benchmarks as Json[])[0]!.Memory as Json;
    expect(run.endpoints[0]!.metrics).toEqual({
      "B/op": { value: memory.BytesAllocatedPerOperation, unit: "B/op", better: "lower" },
      Gen0: {
        value: (memory.Gen0Collections / memory.TotalOperations) * 1000,
        unit: "collections/1k op",
        better: "lower",
      },
      Gen1: { value: 0, unit: "collections/1k op", better: "lower" },
      Gen2: { value: 0, unit: "collections/1k op", better: "lower" },
    });
    // MemoryDiagnoser's own metric says the same Gen0 figure.
    const gen0 = ((report.Benchmarks as Json[])[0]!.Metrics as Json[]).find((m) => m.Descriptor.Id === "Gen0Collects")!;
    expect(run.endpoints[0]!.metrics.Gen0?.value).toBeCloseTo(gen0.Value, 12);
  });

  it("keeps another diagnoser's metric with its unit and direction, and skips NaN", () => {
    const document = fresh();
    (document.Benchmarks[0].Metrics as Json[]).push(
      { Value: 3, Descriptor: { Id: "CompletedWorkItemCount", Unit: "Count", TheGreaterTheBetter: false } },
      { Value: "", Descriptor: { Id: "LockContentionCount", Unit: "Count", TheGreaterTheBetter: false } },
    );
    const metrics = parseBenchmarkDotNetJson(document).endpoints[0]!.metrics;
    expect(metrics.CompletedWorkItemCount).toEqual({ value: 3, unit: "Count", better: "lower" });
    expect(metrics.LockContentionCount).toBeUndefined();
  });

  it("without measurements (brief JSON) keeps Statistics: mean, extremes, deviation, percentiles, N", () => {
    const document = fresh();
    for (const benchmark of document.Benchmarks as Json[]) delete benchmark.Measurements;
    const statistics = document.Benchmarks[1].Statistics as Json;
    const result = parseBenchmarkDotNetJson(document).endpoints[1]!;
    expect(result.requests).toBe(statistics.N);
    expect(result.histogram).toBeNull();
    expect(result.latency.meanMs).toBeCloseTo(statistics.Mean / 1e6, 15);
    expect(result.latency.minMs).toBeCloseTo(statistics.Min / 1e6, 15);
    expect(result.latency.maxMs).toBeCloseTo(statistics.Max / 1e6, 15);
    expect(result.latency.stdDevMs).toBeCloseTo(statistics.StandardDeviation / 1e6, 15);
    expect(Object.keys(result.latency.percentiles)).toEqual(["25", "50", "67", "80", "85", "90", "95"]);
    for (const [p, ms] of Object.entries(result.latency.percentiles))
      expect(ms).toBeCloseTo(statistics.Percentiles[`P${p}`] / 1e6, 15);
  });

  it("leaves out a failed case (no statistics, no results) with a note, and tells jobs apart", () => {
    const document = fresh();
    document.Benchmarks[2].Statistics = null;
    document.Benchmarks[2].Measurements = (document.Benchmarks[2].Measurements as Json[]).filter(
      (m) => m.IterationStage !== "Result",
    );
    const failed = parseBenchmarkDotNetJson(document);
    expect(failed.endpoints).toHaveLength(2);
    expect(failed.notes).toEqual([
      "Acme.Benchmarks.SortBenchmarks.LinqOrderBy(N: 100) has no results (it failed to run): left out",
    ]);

    const jobs = fresh();
    const other = structuredClone(jobs.Benchmarks[0]) as Json;
    other.DisplayInfo = "SortBenchmarks.ArraySort: .NET 9.0(Runtime=.NET 9.0) [N=100]";
    jobs.Benchmarks.push(other);
    jobs.Benchmarks[0].DisplayInfo = "SortBenchmarks.ArraySort: .NET 8.0(Runtime=.NET 8.0) [N=100]";
    expect(
      parseBenchmarkDotNetJson(jobs)
        .endpoints.map((e) => e.name)
        .filter((n) => n.includes("N: 100) [")),
    ).toEqual([
      "Acme.Benchmarks.SortBenchmarks.ArraySort(N: 100) [.NET 8.0(Runtime=.NET 8.0)]",
      "Acme.Benchmarks.SortBenchmarks.ArraySort(N: 100) [.NET 9.0(Runtime=.NET 9.0)]",
    ]);
  });

  it("reads one run's reports (one per class) as one run, and uploads them as multipart", () => {
    const both = parseBenchmarkDotNetSet([detected(SORT), detected(PARSE)]);
    expect(both.endpoints.map((e) => e.name)).toEqual([
      ...run.endpoints.map((e) => e.name),
      "Acme.Benchmarks.ParseBenchmarks.ParseInt",
    ]);
    const uploaded = parseUpload({
      files: [SORT, PARSE].map((path) => ({ name: path.split("/").at(-1)!, text: readFixture(path) })),
    });
    expect(uploaded.format).toBe("benchmarkdotnet-json");
    expect(uploaded.run.endpoints).toEqual(both.endpoints);
  });

  it("is detected by its markers", () => {
    expect(isBenchmarkDotNetJson(fresh())).toBe(true);
    expect(isBenchmarkDotNetJson({ Benchmarks: [] })).toBe(false);
    expect(parseUpload({ files: [{ name: null, text: readFixture(SORT) }] }).format).toBe("benchmarkdotnet-json");
  });
});

describe("BenchmarkDotNet hostile input", () => {
  it("refuses a truncated file with the line and column", () => {
    const text = readFixture(SORT);
    const error = errorOf(() => parseUpload({ files: [{ name: null, text: text.slice(0, text.length - 200) }] }));
    expect(error.details[0]?.path).toMatch(/^line \d+, column \d+$/);
  });

  it("names the JSON path of a wrong type, an empty list of benchmarks and a zero operation count", () => {
    const wrongType = fresh();
    wrongType.Benchmarks[1].Statistics.N = "13";
    expect(errorOf(() => parseBenchmarkDotNetJson(wrongType)).details[0]?.path).toBe("Benchmarks[1].Statistics.N");
    const empty = fresh();
    empty.Benchmarks = [];
    expect(errorOf(() => parseBenchmarkDotNetJson(empty)).details[0]?.path).toBe("Benchmarks");
    const zero = fresh();
    zero.Benchmarks[0].Measurements[3].Operations = 0;
    expect(errorOf(() => parseBenchmarkDotNetJson(zero)).details[0]?.path).toBe(
      "Benchmarks[0].Measurements[3].Operations",
    );
  });

  it("refuses measurements that disagree with the report's own statistics", () => {
    const edited = fresh();
    const results = (edited.Benchmarks[0].Measurements as Json[]).filter((m) => m.IterationStage === "Result");
    results[0]!.Nanoseconds *= 2;
    const error = errorOf(() => parseBenchmarkDotNetJson(edited));
    expect(error.details[0]?.path).toBe("Benchmarks[0].Statistics");
    expect(error.message).toContain("disagree");
  });

  it("refuses reports of two machines in one upload, naming the file", () => {
    const other = fresh(PARSE);
    other.HostEnvironmentInfo.ProcessorName = "Apple M2";
    const error = errorOf(() => parseBenchmarkDotNetSet([detected(SORT), detected(PARSE, other)]));
    expect(error.details[0]?.path).toBe("Acme.Benchmarks.ParseBenchmarks-report-full.json: HostEnvironmentInfo");
    const wrong = fresh(PARSE);
    wrong.Benchmarks[0].Type = 3;
    expect(errorOf(() => parseBenchmarkDotNetSet([detected(SORT), detected(PARSE, wrong)])).details[0]?.path).toBe(
      "Acme.Benchmarks.ParseBenchmarks-report-full.json: Benchmarks[0].Type",
    );
  });
});
