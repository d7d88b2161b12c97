import { describe, expect, it } from "vitest";
import { BENCHMARK_PROTOCOL } from "../../run";
import { errorOf } from "../fixtures/input-error-of";
import { readFixture } from "../fixtures/read-fixture";
import { isGoogleBenchmarkJson, parseGoogleBenchmarkJson } from "./google-benchmark";
import { parseUpload } from "..";

interface GbenchRow {
  name: string;
  run_name: string;
  run_type: "iteration" | "aggregate";
  aggregate_name?: string;
  repetition_index?: number;
  iterations?: number;
  real_time?: number;
  cpu_time?: number;
  time_unit?: string;
  real_coefficient?: number;
  cpu_coefficient?: number;
  big_o?: string;
  rms?: number;
  error_occurred?: boolean;
  [counter: string]: unknown;
}
interface GbenchFile {
  context: Record<string, unknown> & { num_cpus: number; mhz_per_cpu: number; host_name: string; date: string };
  benchmarks: GbenchRow[];
}

const FOLDER = "micro/google-benchmark/baseline";
const fileOf = (name: string) => JSON.parse(readFixture(`${FOLDER}/${name}`)) as GbenchFile;
const NS_IN_MS = 1e-6;

/** The rows of one benchmark instance, as the file groups them. */
function rowsOf(file: GbenchFile, runName: string) {
  const rows = file.benchmarks.filter((row) => row.run_name === runName);
  const aggregate = (name: string) => rows.find((row) => row.run_type === "aggregate" && row.aggregate_name === name);
  return { iterations: rows.filter((row) => row.run_type === "iteration"), aggregate };
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

describe("Google Benchmark JSON with 5 repetitions (gbench.json)", () => {
  const file = fileOf("gbench.json");
  const run = parseGoogleBenchmarkJson(file);
  const instances = [
    ...new Set(file.benchmarks.filter((row) => row.run_type === "iteration").map((row) => row.run_name)),
  ];

  it("makes one benchmark per instance, named as Google Benchmark names it, in the file's order", () => {
    expect(run.format).toBe("google-benchmark-json");
    expect(run.tool).toBe("google-benchmark");
    expect(instances).toHaveLength(12);
    expect(run.endpoints.map((endpoint) => endpoint.name)).toEqual(instances);
    expect(run.endpoints.every((endpoint) => endpoint.protocol === BENCHMARK_PROTOCOL)).toBe(true);
  });

  it("takes each repetition as a sample, and agrees with Google Benchmark's own mean, median and stddev rows", () => {
    for (const endpoint of run.endpoints) {
      const { iterations, aggregate } = rowsOf(file, endpoint.name);
      expect(iterations).toHaveLength(5);
      expect(iterations.every((row) => row.time_unit === "ns")).toBe(true);
      expect(endpoint.requests, endpoint.name).toBe(5);
      expect(endpoint.failures).toBe(0);
      const realMs = iterations.map((row) => (row.real_time ?? Number.NaN) * NS_IN_MS);
      expect(endpoint.latency.minMs).toBe(Math.min(...realMs));
      expect(endpoint.latency.maxMs).toBe(Math.max(...realMs));
      // The aggregate rows are the file's own statistics of these same 5 rows: not counted again, only agreeing.
      const relative = (value: number | null | undefined, expected: number) =>
        Math.abs(((value ?? Number.NaN) - expected) / expected);
      expect(relative(endpoint.latency.meanMs, (aggregate("mean")?.real_time ?? 0) * NS_IN_MS)).toBeLessThan(1e-12);
      expect(
        relative(endpoint.latency.percentiles["50"], (aggregate("median")?.real_time ?? 0) * NS_IN_MS),
      ).toBeLessThan(1e-12);
      expect(relative(endpoint.latency.stdDevMs, (aggregate("stddev")?.real_time ?? 0) * NS_IN_MS)).toBeLessThan(1e-9);
      expect(endpoint.histogram?.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(5);
      expect(endpoint.throughput).toBeCloseTo(1000 / (endpoint.latency.meanMs ?? Number.NaN), 6);
    }
    expect(run.aggregate.requests).toBe(60);
    expect(run.notes.filter((note) => note.includes("mean"))).toEqual([]);
  });

  it("keeps CPU time and the counters as their mean over the repetitions, with the direction Google Benchmark states", () => {
    const lookup = run.endpoints.find((endpoint) => endpoint.name === "BM_MapLookup");
    const { aggregate } = rowsOf(file, "BM_MapLookup");
    const meanRow = aggregate("mean") ?? ({} as GbenchRow);
    expect(lookup?.metrics.cpu_time?.value).toBeCloseTo((meanRow.cpu_time ?? 0) * NS_IN_MS, 15);
    expect(lookup?.metrics.cpu_time).toMatchObject({ unit: "ms", better: "lower" });
    expect(lookup?.metrics.items_per_second).toMatchObject({ unit: "items/s", better: "higher" });
    expect(lookup?.metrics.items_per_second?.value).toBeCloseTo(meanRow.items_per_second as number, 3);
    // User counters: the file says nothing of their direction or unit.
    for (const counter of ["hit_ratio", "keys", "lookups"]) {
      expect(lookup?.metrics[counter]?.value).toBeCloseTo(meanRow[counter] as number, 3);
      expect(lookup?.metrics[counter]).toMatchObject({ unit: null, better: null });
    }
    const memcpy = run.endpoints.find((endpoint) => endpoint.name === "BM_Memcpy/1024");
    expect(memcpy?.metrics.bytes_per_second).toMatchObject({ unit: "B/s", better: "higher" });
    expect(memcpy?.metrics.bytes_per_second?.value).toBeCloseTo(
      rowsOf(file, "BM_Memcpy/1024").aggregate("mean")?.bytes_per_second as number,
      2,
    );
  });

  it("keeps the Complexity() fit of BM_Sort as run metrics, not as a benchmark", () => {
    const bigO = file.benchmarks.find((row) => row.name === "BM_Sort_BigO");
    const rms = file.benchmarks.find((row) => row.name === "BM_Sort_RMS");
    expect(run.endpoints.map((endpoint) => endpoint.name)).not.toContain("BM_Sort");
    expect(run.metrics.BM_Sort_BigO).toEqual({
      value: (bigO?.real_coefficient ?? 0) * NS_IN_MS,
      unit: "ms/NlgN",
      better: "lower",
    });
    expect(run.metrics["BM_Sort_BigO cpu_time"]?.value).toBe((bigO?.cpu_coefficient ?? 0) * NS_IN_MS);
    expect(run.metrics.BM_Sort_RMS).toEqual({ value: (rms?.rms ?? 0) * 100, unit: "%", better: null });
  });

  it("states the testbed from the CPUs, clock and caches (never the host name), the build type and the date", () => {
    const { context } = file;
    expect(run.environment.testbed).toBe(
      `${context.num_cpus} × ${context.mhz_per_cpu} MHz CPUs · L1d 32 KiB, L1i 32 KiB, L2 1024 KiB, L3 32768 KiB`,
    );
    expect(run.environment.testbed).not.toContain(context.host_name);
    expect(run.environment.host.name).toBeNull();
    expect(run.environment.attributes).toEqual({ library_build_type: "debug" });
    expect(run.notes).toEqual([
      "Google Benchmark reports its library as a debug build (library_build_type: debug), so timings may not be representative.",
    ]);
    expect(run.startedAt).toBe(new Date(context.date).toISOString());
    expect(run.environment.config).toEqual({});
    expect(run.toolVersion).toBeNull();
  });

  it("is detected by its context, and the whole upload path reads it", () => {
    expect(isGoogleBenchmarkJson(file as unknown as Record<string, unknown>)).toBe(true);
    expect(isGoogleBenchmarkJson({ benchmarks: [] })).toBe(false);
    const upload = parseUpload({ files: [{ name: null, text: readFixture(`${FOLDER}/gbench.json`) }] });
    expect(upload.format).toBe("google-benchmark-json");
  });
});

describe("Google Benchmark JSON without repetitions (gbench-single.json)", () => {
  const file = fileOf("gbench-single.json");
  const run = parseGoogleBenchmarkJson(file);

  it("gives one sample per benchmark, its real time", () => {
    const iterations = file.benchmarks.filter((row) => row.run_type === "iteration");
    expect(run.endpoints.map((endpoint) => endpoint.name)).toEqual(iterations.map((row) => row.name));
    for (const [index, endpoint] of run.endpoints.entries()) {
      const row = iterations[index];
      expect(endpoint.requests).toBe(1);
      expect(endpoint.latency.meanMs).toBe((row?.real_time ?? 0) * NS_IN_MS);
      expect(endpoint.latency.stdDevMs).toBeNull();
      expect(endpoint.metrics.cpu_time?.value).toBe((row?.cpu_time ?? 0) * NS_IN_MS);
    }
    expect(run.metrics.BM_Sort_BigO?.value).toBe(
      (file.benchmarks.find((row) => row.aggregate_name === "BigO")?.real_coefficient ?? 0) * NS_IN_MS,
    );
  });
});

describe("Google Benchmark JSON variants made from the real file", () => {
  const file = () => structuredClone(fileOf("gbench.json"));

  it("reads a file of aggregates only (--benchmark_report_aggregates_only) from its mean, median and stddev rows", () => {
    const original = fileOf("gbench.json");
    const aggregatesOnly = file();
    aggregatesOnly.benchmarks = aggregatesOnly.benchmarks.filter((row) => row.run_type === "aggregate");
    const run = parseGoogleBenchmarkJson(aggregatesOnly);
    expect(run.endpoints.map((endpoint) => endpoint.name)).toEqual(
      parseGoogleBenchmarkJson(original).endpoints.map((e) => e.name),
    );
    const sort = run.endpoints.find((endpoint) => endpoint.name === "BM_Sort/10000");
    const { aggregate } = rowsOf(original, "BM_Sort/10000");
    expect(sort?.requests).toBe(aggregate("mean")?.iterations);
    expect(sort?.latency.meanMs).toBe((aggregate("mean")?.real_time ?? 0) * NS_IN_MS);
    expect(sort?.latency.percentiles).toEqual({ "50": (aggregate("median")?.real_time ?? 0) * NS_IN_MS });
    expect(sort?.latency.stdDevMs).toBe((aggregate("stddev")?.real_time ?? 0) * NS_IN_MS);
    expect(sort?.latency.minMs).toBeNull();
    expect(sort?.histogram).toBeNull();
    expect(sort?.metrics.cpu_time?.value).toBe((aggregate("mean")?.cpu_time ?? 0) * NS_IN_MS);
  });

  it("counts a repetition that failed (SkipWithError) as a failure, not a sample", () => {
    const variant = file();
    const failed = variant.benchmarks.find((row) => row.run_name === "BM_StringJoin" && row.repetition_index === 2);
    if (!failed) throw new Error("fixture changed");
    Object.assign(failed, { error_occurred: true, error_message: "boom" });
    const join = parseGoogleBenchmarkJson(variant).endpoints.find((endpoint) => endpoint.name === "BM_StringJoin");
    expect(join?.requests).toBe(4);
    expect(join?.failures).toBe(1);
    const kept = fileOf("gbench.json").benchmarks.filter(
      (row) => row.run_name === "BM_StringJoin" && row.run_type === "iteration" && row.repetition_index !== 2,
    );
    expect(join?.latency.meanMs).toBeCloseTo(mean(kept.map((row) => (row.real_time ?? 0) * NS_IN_MS)), 15);
  });

  it("notes a repetition missing from the file (Google Benchmark's statistics count 5)", () => {
    const variant = file();
    variant.benchmarks = variant.benchmarks.filter(
      (row) => !(row.run_name === "BM_StringJoin" && row.repetition_index === 2),
    );
    const run = parseGoogleBenchmarkJson(variant);
    expect(run.endpoints.find((endpoint) => endpoint.name === "BM_StringJoin")?.requests).toBe(4);
    expect(run.notes).toContain(
      "BM_StringJoin: Google Benchmark's statistics are of 5 repetitions, but the file holds 4; the 4 are kept.",
    );
  });

  it("notes where Google Benchmark's mean is not the mean of the repetitions (an altered row)", () => {
    const variant = file();
    const row = variant.benchmarks.find(
      (candidate) => candidate.run_name === "BM_Sort/1000" && candidate.run_type === "iteration",
    );
    if (!row) throw new Error("fixture changed");
    row.real_time = (row.real_time ?? 0) * 2;
    const notes = parseGoogleBenchmarkJson(variant).notes;
    expect(
      notes.some((note) =>
        note.startsWith("BM_Sort/1000: Google Benchmark's mean (7151.332441865847 ns) is not the mean"),
      ),
    ).toBe(true);
  });

  it("notes CPU scaling, and keeps a release build without the debug note", () => {
    const variant = file();
    Object.assign(variant.context, {
      cpu_scaling_enabled: true,
      library_build_type: "release",
      library_version: "v1.8.3",
    });
    const run = parseGoogleBenchmarkJson(variant);
    expect(run.environment.attributes).toEqual({ library_build_type: "release" });
    expect(run.toolVersion).toBe("v1.8.3");
    expect(run.notes).toHaveLength(1);
    expect(run.notes[0]).toContain("CPU frequency scaling was enabled");
  });

  it("refuses a truncated file with the line and column", () => {
    const text = readFixture(`${FOLDER}/gbench.json`);
    const error = errorOf(() =>
      parseUpload({ files: [{ name: "gbench.json", text: text.slice(0, text.length / 2) }] }),
    );
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toMatch(/^gbench\.json: line \d+, column \d+$/);
  });

  it("refuses a string where a time belongs, naming the row", () => {
    const variant = file();
    (variant.benchmarks[3] as Record<string, unknown>).real_time = "60.4";
    const error = errorOf(() => parseGoogleBenchmarkJson(variant));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe("benchmarks[3].real_time");
  });

  it("refuses an unknown time unit and an empty benchmarks list", () => {
    const variant = file();
    const row = variant.benchmarks[7];
    if (row) row.time_unit = "fortnights";
    expect(errorOf(() => parseGoogleBenchmarkJson(variant)).details[0]?.path).toBe("benchmarks[7].time_unit");
    const empty = file();
    empty.benchmarks = [];
    const error = errorOf(() => parseGoogleBenchmarkJson(empty));
    expect(error.details).toEqual([{ path: "benchmarks", message: "expected at least one benchmark row" }]);
  });

  it("refuses a BigO row without its coefficients", () => {
    const variant = file();
    const index = variant.benchmarks.findIndex((row) => row.aggregate_name === "BigO");
    delete variant.benchmarks[index]?.real_coefficient;
    expect(errorOf(() => parseGoogleBenchmarkJson(variant)).details[0]?.path).toBe(`benchmarks[${index}]`);
  });
});
