/**
 * go test -bench, both formats on the real files: what each reads of them (checked against the test's own
 * reading of the text), the text's values quoted, seeded mutations of either, and detection.
 */
import { describe, expect, it } from "vitest";
import { InputError } from "../../input-error";
import { createSeededRandom } from "../../stats/random";
import { mutate } from "../fixtures/text-mutations";
import { readFixture } from "../fixtures/read-fixture";
import { isGoBenchText, isGoTest2JsonLine, parseGoBenchJson, parseGoBenchText } from "./go-bench";
import { JSON_LINES, TEXT } from "./go-bench.fixture";
import { parseUpload } from "..";

/** The test's own reading of go test -bench text: per benchmark (suffix dropped), its ns/op and other units. */
function readBack(text: string) {
  const pkg = /^pkg: (\S+)$/m.exec(text)?.[1] ?? "";
  const benchmarks = new Map<string, { ns: number[]; units: Map<string, number[]> }>();
  for (const [, name = "", rest = ""] of text.matchAll(/^(Benchmark\S+)-\d+\s+\d+\s+(.+)$/gm)) {
    const fields = rest.trim().split(/\s+/);
    const benchmark = benchmarks.get(name) ?? { ns: [], units: new Map<string, number[]>() };
    for (let i = 0; i < fields.length; i += 2) {
      const [value, unit] = [Number(fields[i]), fields[i + 1] ?? ""];
      if (unit === "ns/op") benchmark.ns.push(value);
      else benchmark.units.set(unit, [...(benchmark.units.get(unit) ?? []), value]);
    }
    benchmarks.set(name, benchmark);
  }
  return { pkg, benchmarks };
}

/** test2json's output events joined in order: the text go test printed. */
function outputOf(jsonLines: string): string {
  return jsonLines
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as { Action: string; Output?: string })
    .filter((event) => event.Action === "output")
    .map((event) => event.Output)
    .join("");
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = (sorted.length - 1) / 2;
  return (sorted[Math.floor(middle)]! + sorted[Math.ceil(middle)]!) / 2;
};

describe.each([
  { path: TEXT, format: "go-bench-text", text: readFixture(TEXT), parse: parseGoBenchText },
  { path: JSON_LINES, format: "go-bench-json", text: outputOf(readFixture(JSON_LINES)), parse: parseGoBenchJson },
])("go test -bench $path", ({ path, format, text, parse }) => {
  const expected = readBack(text);
  const run = parse(readFixture(path), path.split("/").at(-1)!);

  it("has one benchmark per name, grouped by package, without the -2 GOMAXPROCS suffix", () => {
    expect(expected.benchmarks.size).toBe(7);
    expect(run.format).toBe(format);
    expect(run.tool).toBe("go");
    expect(run.toolVersion).toBeNull();
    expect(run.endpoints.map((endpoint) => endpoint.name)).toEqual(
      [...expected.benchmarks.keys()].map((name) => `${expected.pkg} > ${name}`),
    );
    expect(run.endpoints.map((endpoint) => endpoint.protocol)).toEqual(run.endpoints.map(() => "benchmark"));
    expect(run.endpoints.every((endpoint) => endpoint.fullName === null)).toBe(true);
  });

  it("states the testbed and the package, and no load configuration", () => {
    expect(run.environment.testbed).toBe("linux/amd64 · AMD EPYC");
    expect(run.environment.attributes).toEqual({
      goos: "linux",
      goarch: "amd64",
      pkg: "example.com/microbench",
      gomaxprocs: "2",
    });
    expect(run.environment.config).toEqual({});
    expect(run.notes).toEqual([]);
    expect(run.durationSeconds).toBe(Number(/^ok\s+\S+\s+([\d.]+)s$/m.exec(text)?.[1]));
  });

  it("keeps every repetition's ns/op as a sample", () => {
    for (const [name, { ns }] of expected.benchmarks) {
      const endpoint = run.endpoints.find((candidate) => candidate.name === `${expected.pkg} > ${name}`)!;
      const ms = ns.map((value) => value / 1e6);
      expect(endpoint.requests, name).toBe(ns.length);
      expect(endpoint.failures).toBeNull();
      expect(endpoint.latency.minMs).toBeCloseTo(Math.min(...ms), 12);
      expect(endpoint.latency.maxMs).toBeCloseTo(Math.max(...ms), 12);
      expect(endpoint.latency.meanMs).toBeCloseTo(mean(ms), 12);
      expect(endpoint.latency.percentiles["50"]).toBeCloseTo(median(ms), 12);
      expect(endpoint.throughput).toBeCloseTo(1000 / mean(ms), 6);
      expect(endpoint.histogram?.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(ns.length);
    }
    expect(run.aggregate.requests).toBe([...expected.benchmarks.values()].reduce((sum, b) => sum + b.ns.length, 0));
  });

  it("keeps every other unit as a metric: the mean over the repetitions, in Go's unit, with its direction; B/op and allocs/op the same in every repetition are exact", () => {
    const direction: Record<string, string | null> = {
      "B/op": "lower",
      "allocs/op": "lower",
      "MB/s": "higher",
      "ns/lookup": "lower",
      "hits/op": null,
    };
    for (const [name, { units }] of expected.benchmarks) {
      const endpoint = run.endpoints.find((candidate) => candidate.name === `${expected.pkg} > ${name}`)!;
      expect(Object.keys(endpoint.metrics)).toEqual([...units.keys()]);
      for (const [unit, values] of units) {
        const isExact = (unit === "B/op" || unit === "allocs/op") && values.length >= 2 && values.every((value) => value === values[0]);
        expect(endpoint.metrics[unit], `${name} ${unit}`).toEqual({
          value: expect.closeTo(mean(values), 9) as number,
          unit,
          better: direction[unit],
          ...(isExact ? { exact: true } : {}),
        });
      }
    }
  });
});

describe("go test -bench: the file's own values, quoted", () => {
  const run = parseGoBenchText(readFixture(TEXT), "gobench.txt");
  const named = (name: string) =>
    run.endpoints.find((endpoint) => endpoint.name === `example.com/microbench > ${name}`)!;

  it("reads BenchmarkEncodeJSON's five lines (84016, 74815, 70640, 71023, 76812 ns/op)", () => {
    const encode = named("BenchmarkEncodeJSON");
    expect(encode.requests).toBe(5);
    expect(encode.latency.percentiles["50"]).toBeCloseTo(0.074815, 12);
    expect(encode.latency.minMs).toBeCloseTo(0.07064, 12);
    expect(encode.latency.maxMs).toBeCloseTo(0.084016, 12);
    expect(encode.latency.meanMs).toBeCloseTo((84016 + 74815 + 70640 + 71023 + 76812) / 5 / 1e6, 12);
    expect(encode.metrics["B/op"]?.value).toBeCloseTo((16414 + 16409 + 16409 + 16412 + 16409) / 5, 9);
    expect(encode.metrics["MB/s"]?.value).toBeCloseTo((176.92 + 198.68 + 210.42 + 209.29 + 193.51) / 5, 9);
    expect(encode.metrics["allocs/op"]?.value).toBe(2);
  });

  it("reads sub-benchmarks and b.ReportMetric units", () => {
    expect(named("BenchmarkSortInts/n=10000").latency.minMs).toBeCloseTo(1.042496, 12);
    expect(named("BenchmarkMapLookup").metrics["ns/lookup"]?.value).toBeCloseTo(
      (18.38 + 18.22 + 17.31 + 18.7 + 19.51) / 5,
      9,
    );
    expect(named("BenchmarkMapLookup").metrics["hits/op"]).toEqual({ value: 500, unit: "hits/op", better: null });
  });
});

describe("go test -bench under seeded mutations", () => {
  it.each([
    ["text", TEXT, "go-bench-text"],
    ["test2json", JSON_LINES, "go-bench-json"],
  ])("reads a mutated %s file or refuses it with an InputError, never another error", (_, path, format) => {
    const random = createSeededRandom(20261125);
    const original = readFixture(path);
    const outcomes = { read: 0, refused: 0 };
    for (let index = 0; index < 300; index++) {
      let text = original;
      for (let mutations = 1 + random.integer(3); mutations > 0; mutations--) text = mutate(random, text);
      try {
        parseUpload({ files: [{ name: null, text }], format });
        outcomes.read += 1;
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        outcomes.refused += 1;
      }
    }
    expect(outcomes.read).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
  });
});

describe("go test -bench detection", () => {
  it("knows the text by its header or a result line", () => {
    expect(isGoBenchText(readFixture(TEXT))).toBe(true);
    expect(isGoBenchText("PASS\nBenchmarkA-8 \t 10\t 2500 ns/op\n")).toBe(true);
    expect(isGoBenchText("pkg: example.com/x\n")).toBe(true);
    expect(isGoBenchText("Benchmark 1: gzip -c data.txt\n  Time (mean ± σ): 10 ms\n")).toBe(false);
    expect(isGoBenchText("BenchmarkA is fast\n")).toBe(false);
  });

  it("knows a test2json event line, and nothing else", () => {
    const [first = ""] = readFixture(JSON_LINES).split("\n");
    expect(isGoTest2JsonLine(first)).toBe(true);
    expect(isGoTest2JsonLine('{"Action":"start","Package":"example.com/x"}')).toBe(true);
    expect(isGoTest2JsonLine('{"ImportPath":"example.com/x","Action":"build-output","Output":"# x\\n"}')).toBe(true);
    expect(isGoTest2JsonLine('{"Action":"output"}')).toBe(false);
    expect(isGoTest2JsonLine('{"Action":1,"Package":"x"}')).toBe(false);
    expect(isGoTest2JsonLine('{"Action":"output","Output":3}')).toBe(false);
    expect(isGoTest2JsonLine('{"type":"Point","metric":"http_reqs","data":{"time":"x","value":1}}')).toBe(false);
    expect(isGoTest2JsonLine('{"Action":"output","Time":')).toBe(false);
  });
});
