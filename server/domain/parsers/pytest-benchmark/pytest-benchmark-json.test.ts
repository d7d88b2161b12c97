import { describe, expect, it } from "vitest";
import { BENCHMARK_PROTOCOL } from "../../run";
import { errorOf } from "../fixtures/input-error-of";
import { readFixture } from "../fixtures/read-fixture";
import { parseUpload } from "..";
import { isPytestBenchmarkJson, parsePytestBenchmark } from "./pytest-benchmark";

interface PytestFile {
  machine_info: Record<string, unknown> & { node: string; system: string; machine: string; cpu: { brand: string } };
  commit_info: { id: string; branch: string; dirty: boolean };
  benchmarks: {
    group: string | null;
    name: string;
    fullname: string;
    extra_info: Record<string, unknown>;
    stats: {
      min: number;
      max: number;
      mean: number;
      stddev: number;
      median: number;
      ops: number;
      rounds: number;
      iterations: number;
      data?: number[];
    };
  }[];
  datetime: string;
  version: string;
}

const PATH = "micro/pytest-benchmark/baseline/pytest-benchmark.json";
const TEXT = readFixture(PATH);
const FILE = JSON.parse(TEXT) as PytestFile;
const copy = () => structuredClone(FILE);
const S_IN_MS = 1000;

const meanOf = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const sorted = (values: readonly number[]) => [...values].sort((a, b) => a - b);

describe("the fixture itself", () => {
  it("keeps in stats.data each round's time per iteration: their mean is stats.mean, though rounds ran many iterations", () => {
    for (const { name, stats } of FILE.benchmarks) {
      const data = stats.data ?? [];
      expect(data.length, name).toBe(stats.rounds);
      expect(Math.abs(meanOf(data) - stats.mean) / stats.mean, name).toBeLessThan(1e-12);
      expect(sorted(data)[0]).toBe(stats.min);
    }
    expect(FILE.benchmarks.find((benchmark) => benchmark.name === "test_sort[100]")?.stats.iterations).toBe(105);
  });
});

describe("pytest-benchmark --benchmark-json (pytest-benchmark.json)", () => {
  const run = parsePytestBenchmark(FILE);

  it("names each benchmark group > name with its parameters, and keeps pytest's node id", () => {
    expect(run.format).toBe("pytest-benchmark");
    expect(run.tool).toBe("pytest-benchmark");
    expect(run.endpoints.map((endpoint) => endpoint.name)).toEqual(
      FILE.benchmarks.map((b) => `${b.group} > ${b.name}`),
    );
    expect(run.endpoints.map((endpoint) => endpoint.name)).toContain("sort > test_sort[100]");
    expect(run.endpoints.map((endpoint) => endpoint.fullName)).toEqual(FILE.benchmarks.map((b) => b.fullname));
    expect(run.endpoints.every((endpoint) => endpoint.protocol === BENCHMARK_PROTOCOL)).toBe(true);
  });

  it("takes every round as a sample, agreeing with pytest-benchmark's own statistics", () => {
    for (const [index, endpoint] of run.endpoints.entries()) {
      const stats = FILE.benchmarks[index]?.stats;
      if (!stats) throw new Error("fixture changed");
      const close = (value: number | null | undefined, seconds: number) =>
        expect(Math.abs(((value ?? Number.NaN) - seconds * S_IN_MS) / (seconds * S_IN_MS)), endpoint.name).toBeLessThan(
          1e-9,
        );
      expect(endpoint.requests).toBe(stats.rounds);
      close(endpoint.latency.meanMs, stats.mean);
      close(endpoint.latency.minMs, stats.min);
      close(endpoint.latency.maxMs, stats.max);
      // pytest-benchmark's median and (sample) stddev are statistics.median and statistics.stdev of the same rounds.
      close(endpoint.latency.percentiles["50"], stats.median);
      close(endpoint.latency.stdDevMs, stats.stddev);
      expect(endpoint.latency.percentiles["99"]).toBeGreaterThan(endpoint.latency.percentiles["50"] ?? 0);
      expect(endpoint.throughput).toBe(stats.ops);
      expect(endpoint.histogram?.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(stats.rounds);
      expect(endpoint.failures).toBeNull();
      expect(endpoint.metrics).toEqual({});
    }
    expect(run.aggregate.requests).toBe(FILE.benchmarks.reduce((sum, b) => sum + b.stats.rounds, 0));
  });

  it("states the testbed from machine_info without the host name, Python as attributes, git from commit_info", () => {
    const { machine_info: machine, commit_info: commit } = FILE;
    expect(run.environment.testbed).toBe(`${machine.system} ${machine.machine} · ${machine.cpu.brand}`);
    expect(run.environment.testbed).toBe("Linux x86_64 · AMD EPYC");
    expect(run.environment.testbed).not.toContain(machine.node);
    expect(run.environment.host.name).toBeNull();
    expect(run.environment.attributes).toEqual({
      python_implementation: machine.python_implementation,
      python_version: machine.python_version,
      git_dirty: String(commit.dirty),
    });
    expect(run.environment.git).toMatchObject({ commit: commit.id, branch: commit.branch });
    expect(run.environment.config).toEqual({});
    expect(run.toolVersion).toBe(FILE.version);
    expect(run.startedAt).toBe(new Date(`${FILE.datetime.slice(0, 23)}Z`).toISOString());
    expect(run.notes).toEqual([]);
  });

  it("lets the upload's metadata override the file's git facts and testbed", () => {
    const upload = parseUpload({ files: [{ name: null, text: TEXT }] });
    expect(upload.format).toBe("pytest-benchmark");
    const withQuery = parseUpload({
      files: [
        {
          name: null,
          text: JSON.stringify({
            metadata: { commit: "abc1234", branch: "feature", testbed: "ci-4core" },
            result: FILE,
          }),
        },
      ],
    }).run;
    expect(withQuery.environment.git).toMatchObject({ commit: "abc1234", branch: "feature" });
    expect(withQuery.environment.testbed).toBe("ci-4core");
  });

  it("is detected by its own keys", () => {
    expect(isPytestBenchmarkJson(FILE as unknown as Record<string, unknown>)).toBe(true);
    expect(isPytestBenchmarkJson({ benchmarks: [], context: {} })).toBe(false);
  });
});

describe("pytest-benchmark JSON variants made from the real file", () => {
  it("keeps numeric extra_info as metrics of unknown direction, and leaves other values out", () => {
    const variant = copy();
    const first = variant.benchmarks[0];
    if (!first) throw new Error("fixture changed");
    first.extra_info = { items: 1000, ratio: 0.25, label: "warm", flag: true };
    expect(parsePytestBenchmark(variant).endpoints[0]?.metrics).toEqual({
      items: { value: 1000, unit: null, better: null },
      ratio: { value: 0.25, unit: null, better: null },
    });
  });

  it("reads a saved file without stats.data from pytest-benchmark's own statistics, and says so", () => {
    const variant = copy();
    for (const benchmark of variant.benchmarks) delete benchmark.stats.data;
    const run = parsePytestBenchmark(variant);
    const sort = run.endpoints.find((endpoint) => endpoint.name === "sort > test_sort[1000]");
    const stats = FILE.benchmarks.find((benchmark) => benchmark.name === "test_sort[1000]")?.stats;
    expect(sort?.requests).toBe(stats?.rounds);
    expect(sort?.latency).toEqual({
      minMs: (stats?.min ?? 0) * S_IN_MS,
      meanMs: (stats?.mean ?? 0) * S_IN_MS,
      maxMs: (stats?.max ?? 0) * S_IN_MS,
      stdDevMs: (stats?.stddev ?? 0) * S_IN_MS,
      percentiles: { "50": (stats?.median ?? 0) * S_IN_MS },
    });
    expect(sort?.histogram).toBeNull();
    expect(run.notes).toHaveLength(1);
  });

  it("names two tests of one name and group (two modules) by their node ids", () => {
    const variant = copy();
    const join = variant.benchmarks.find((benchmark) => benchmark.name === "test_join");
    if (!join) throw new Error("fixture changed");
    variant.benchmarks.push({ ...structuredClone(join), fullname: "test_other.py::test_join" });
    const names = parsePytestBenchmark(variant).endpoints.map((endpoint) => endpoint.name);
    expect(names).toContain("strings > test_micro.py::test_join");
    expect(names).toContain("strings > test_other.py::test_join");
    expect(names).not.toContain("strings > test_join");
  });

  it("refuses rounds kept as totals (their mean is not stats.mean), naming the path", () => {
    const variant = copy();
    const sort = variant.benchmarks[4];
    if (!sort?.stats.data) throw new Error("fixture changed");
    sort.stats.data = sort.stats.data.map((value) => value * sort.stats.iterations);
    const error = errorOf(() => parsePytestBenchmark(variant));
    expect(error.code).toBe("malformed");
    expect(error.details).toEqual([
      { path: "benchmarks[4].stats.data", message: expect.stringContaining("stats.mean") as string },
    ]);
  });

  it("refuses data of fewer rounds than stats.rounds", () => {
    const variant = copy();
    variant.benchmarks[2]?.stats.data?.pop();
    expect(errorOf(() => parsePytestBenchmark(variant)).details[0]?.path).toBe("benchmarks[2].stats.data");
  });

  it("refuses a truncated file with the line and column, a string where a number belongs, and no benchmarks", () => {
    const truncated = errorOf(() =>
      parseUpload({ files: [{ name: "pytest-benchmark.json", text: TEXT.slice(0, 300_000) }] }),
    );
    expect(truncated.code).toBe("malformed");
    expect(truncated.details[0]?.path).toMatch(/^pytest-benchmark\.json: line \d+, column \d+$/);

    const wrongType = copy() as unknown as { benchmarks: { stats: Record<string, unknown> }[] };
    const stats = wrongType.benchmarks[1]?.stats;
    if (stats) stats.mean = "0.0001";
    expect(errorOf(() => parsePytestBenchmark(wrongType)).details[0]?.path).toBe("benchmarks[1].stats.mean");

    const wrongSample = copy() as unknown as { benchmarks: { stats: { data: unknown[] } }[] };
    wrongSample.benchmarks[3]?.stats.data.splice(10, 1, null);
    expect(errorOf(() => parsePytestBenchmark(wrongSample)).details[0]?.path).toBe("benchmarks[3].stats.data[10]");

    const empty = copy();
    empty.benchmarks = [];
    expect(errorOf(() => parsePytestBenchmark(empty)).details).toEqual([
      { path: "benchmarks", message: expect.stringContaining("at least one benchmark") as string },
    ]);
  });
});
