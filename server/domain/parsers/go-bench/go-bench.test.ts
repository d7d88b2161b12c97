import { describe, expect, it } from "vitest";
import { InputError } from "../../input-error";
import { createSeededRandom } from "../../stats/random";
import { errorOf } from "../fixtures/input-error-of";
import { mutate } from "../fixtures/text-mutations";
import { readFixture } from "../fixtures/read-fixture";
import { isGoBenchText, isGoTest2JsonLine, parseGoBenchJson, parseGoBenchText } from "./go-bench";
import { parseUpload } from "..";

const TEXT = "micro/go/baseline/gobench.txt";
const JSON_LINES = "micro/go/baseline/gobench.json";

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

describe("go test -json (test2json)", () => {
  const jsonLines = readFixture(JSON_LINES);

  it("rejoins the result lines test2json split across two output events", () => {
    const events = jsonLines
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { Output?: string });
    const split = events.filter((event) => event.Output?.startsWith("Benchmark") && !event.Output.endsWith("\n"));
    expect(split.length).toBeGreaterThan(0);
    const encode = parseGoBenchJson(jsonLines, "gobench.json").endpoints[0]!;
    expect(encode.name).toBe("example.com/microbench > BenchmarkEncodeJSON");
    // Lines 6-7 of the file: "BenchmarkEncodeJSON-2   \t" then "    7057\t     81438 ns/op…".
    expect(encode.requests).toBe(3);
    expect(encode.latency.minMs).toBeCloseTo(0.079163, 12);
    expect(encode.latency.maxMs).toBeCloseTo(0.081438, 12);
  });

  it("gives the same benchmark names as the text, and the first event's time as the start", () => {
    const fromJson = parseGoBenchJson(jsonLines, "gobench.json");
    const fromText = parseGoBenchText(readFixture(TEXT), "gobench.txt");
    expect(fromJson.endpoints.map((endpoint) => endpoint.name)).toEqual(
      fromText.endpoints.map((endpoint) => endpoint.name),
    );
    expect(fromJson.environment.testbed).toBe(fromText.environment.testbed);
    expect(fromJson.startedAt).toBe("2026-11-25T22:31:36.473Z");
    expect(fromText.startedAt).toBeNull();
  });

  it("reads each package's output apart when packages' events interleave", () => {
    const other = jsonLines
      .replaceAll('"Package":"example.com/microbench"', '"Package":"example.com/other"')
      .replaceAll("pkg: example.com/microbench", "pkg: example.com/other");
    const first = jsonLines.split("\n").filter((line) => line !== "");
    const second = other.split("\n").filter((line) => line !== "");
    const interleaved = first.flatMap((line, index) => [line, second[index]!]).join("\n");
    const run = parseGoBenchJson(interleaved, "both.json");
    expect(run.endpoints).toHaveLength(14);
    expect(run.endpoints.filter((endpoint) => endpoint.name.startsWith("example.com/other > "))).toHaveLength(7);
    expect(run.endpoints.every((endpoint) => endpoint.requests === 3)).toBe(true);
    expect(run.environment.attributes.pkg).toBeUndefined();
    expect(run.durationSeconds).toBeNull();
  });

  it("rejoins a long line cut into many events, in linear time", () => {
    const name = `BenchmarkLong/${"x".repeat(200_000)}`;
    const line = `${name}-2 \t 100\t 5000 ns/op\n`;
    const events: string[] = [];
    for (let start = 0; start < line.length; start += 20) {
      events.push(
        JSON.stringify({
          Time: "2026-11-25T22:31:36Z",
          Action: "output",
          Package: "p",
          Output: line.slice(start, start + 20),
        }),
      );
    }
    const started = performance.now();
    const run = parseGoBenchJson(events.join("\n"), "long.json");
    expect(performance.now() - started).toBeLessThan(2000);
    expect(run.endpoints[0]?.name).toBe(name);
    expect(run.endpoints[0]?.latency.meanMs).toBeCloseTo(0.005, 12);
  });

  it("refuses a line that is not a test2json event, naming it", () => {
    const lines = jsonLines.split("\n");
    const cut = [...lines.slice(0, 8), lines[8]!.slice(0, 40), ...lines.slice(9)].join("\n");
    const error = errorOf(() => parseGoBenchJson(cut, "gobench.json"));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe("gobench.json: line 9");
    const notObject = [...lines.slice(0, 3), "[1, 2]", ...lines.slice(3)].join("\n");
    expect(errorOf(() => parseGoBenchJson(notObject, "gobench.json")).details[0]?.path).toBe("gobench.json: line 4");
    const badOutput = lines
      .map((line, index) => (index === 10 ? line.replace(/"Output":"[^"]*"/, '"Output":42') : line))
      .join("\n");
    expect(badOutput).not.toBe(jsonLines);
    expect(errorOf(() => parseGoBenchJson(badOutput, "gobench.json")).details[0]?.path).toBe("gobench.json: line 11");
    const noAction = [...lines.slice(0, 2), '{"Time":"2026-11-25T22:31:36Z","Output":"x\\n"}', ...lines.slice(2)].join(
      "\n",
    );
    expect(errorOf(() => parseGoBenchJson(noAction, "gobench.json")).details[0]?.path).toBe("gobench.json: line 3");
  });

  it("refuses a result line broken inside the output, naming the event where it began", () => {
    const broken = jsonLines.replace('"    7057\\t     81438 ns/op', '"    7057\\t     81438');
    expect(broken).not.toBe(jsonLines);
    const error = errorOf(() => parseGoBenchJson(broken, "gobench.json"));
    expect(error.details[0]?.path).toBe("gobench.json: line 6");
  });

  it("refuses a stream with no benchmark results", () => {
    const header = jsonLines.split("\n").slice(0, 4).join("\n");
    expect(errorOf(() => parseGoBenchJson(header, "gobench.json")).message).toMatch(/no benchmark results/);
    expect(errorOf(() => parseGoBenchJson("", "gobench.json")).message).toMatch(/no benchmark results/);
  });
});

describe("go test -bench: other runs read the same way", () => {
  const base = readFixture(TEXT);
  const names = (text: string) => parseGoBenchText(text, "bench.txt").endpoints.map((endpoint) => endpoint.name);

  it("keeps the benchmarks of two packages apart, each under its package", () => {
    const second = base
      .replace("pkg: example.com/microbench", "pkg: example.com/other")
      .replace(/^ok\s.*$/m, "ok  \texample.com/other\t3.5s");
    const run = parseGoBenchText(`${base}${second}`, "bench.txt");
    expect(run.endpoints).toHaveLength(14);
    expect(run.endpoints[7]?.name).toBe("example.com/other > BenchmarkEncodeJSON");
    expect(run.endpoints[7]?.requests).toBe(5);
    expect(run.environment.attributes).toEqual({ goos: "linux", goarch: "amd64", gomaxprocs: "2" });
    expect(run.environment.testbed).toBe("linux/amd64 · AMD EPYC");
    expect(run.durationSeconds).toBeNull();
  });

  it("keeps the first testbed and notes the others when packages state different ones", () => {
    const second = base
      .replace("pkg: example.com/microbench", "pkg: example.com/other")
      .replace("cpu: AMD EPYC", "cpu: Intel Xeon");
    const run = parseGoBenchText(`${base}${second}`, "bench.txt");
    expect(run.environment.testbed).toBe("linux/amd64 · AMD EPYC");
    expect(run.notes).toEqual([
      "the file states several testbeds (linux/amd64 · AMD EPYC; linux/amd64 · Intel Xeon); the first is the run's",
    ]);
  });

  it("adds up a package's repetitions written in two blocks (benchstat reads them so)", () => {
    const run = parseGoBenchText(`${base}${base}`, "bench.txt");
    expect(run.endpoints).toHaveLength(7);
    expect(run.endpoints[0]?.requests).toBe(10);
  });

  it("keeps -cpu 1,2,4 runs of one benchmark apart, as Go prints their names, and strips a lone suffix", () => {
    const text = [
      "goos: linux",
      "pkg: example.com/p",
      "BenchmarkX      \t 1000\t 1200 ns/op",
      "BenchmarkX-2    \t 1000\t  700 ns/op",
      "BenchmarkX-4    \t 1000\t  400 ns/op",
      "BenchmarkX      \t 1000\t 1100 ns/op",
      "BenchmarkY-4    \t 1000\t   90.5 ns/op",
      "BenchmarkY-4    \t 1000\t   91.5 ns/op",
    ].join("\n");
    const run = parseGoBenchText(text, "bench.txt");
    expect(run.endpoints.map((endpoint) => [endpoint.name, endpoint.requests])).toEqual([
      ["example.com/p > BenchmarkX", 2],
      ["example.com/p > BenchmarkX-2", 1],
      ["example.com/p > BenchmarkX-4", 1],
      ["example.com/p > BenchmarkY", 2],
    ]);
    expect(run.endpoints[3]?.latency.meanMs).toBeCloseTo(91e-6, 15);
    expect(run.environment.attributes.gomaxprocs).toBeUndefined();
    expect(run.environment.testbed).toBe("linux");
  });

  it("ignores test logs, names printed alone and the code's own output", () => {
    const noisy = base
      .replace(
        "goos: linux\n",
        "=== RUN   TestNothing\n--- PASS: TestNothing (0.00s)\nhello from init()\nBenchmark results are great\ngoos: linux\n",
      )
      .replace(
        /^(BenchmarkSortInts\/n=100-2 .*)$/m,
        "BenchmarkSortInts\nBenchmarkSortInts/n=100\n$1\n--- BENCH: BenchmarkSortInts/n=100-2\n    micro_test.go:12: 179020 iterations\n# a comment\n",
      )
      .replace("PASS\n", "PASS\nwarning: something 5 ns/op\n");
    expect(noisy).not.toBe(base);
    const plain = parseGoBenchText(base, "bench.txt");
    expect(parseGoBenchText(noisy, "bench.txt")).toEqual(plain);
  });

  it("notes a result line broken by the code's own output, and a failed benchmark", () => {
    const text = base
      .replace(
        "BenchmarkJoinInts-2               \t   21088\t",
        "BenchmarkJoinInts-2               \tprinted by the code\n   21088\t",
      )
      .replace(
        "PASS\nok  \texample.com/microbench\t29.247s",
        "--- FAIL: BenchmarkBroken-2\n    micro_test.go:40: boom\nFAIL\nFAIL\texample.com/microbench\t29.247s",
      );
    const run = parseGoBenchText(text, "bench.txt");
    const join = run.endpoints.find((endpoint) => endpoint.name.endsWith("BenchmarkJoinInts"));
    expect(join?.requests).toBe(4);
    expect(run.notes).toEqual([
      "go test reported failures: BenchmarkBroken-2 (example.com/microbench), package example.com/microbench; the results printed before them are kept",
      "bench.txt: line 26 (and maybe others) holds benchmark numbers without a benchmark name: output of the code under test broke a result line, and that sample was skipped",
    ]);
    expect(run.durationSeconds).toBeNull();
  });

  it("reads a file without headers (no package, no testbed) and a line without ns/op", () => {
    const text = "BenchmarkA-8 \t 10\t 2.5e+03 ns/op\t 12 B/op\nBenchmarkA-8 \t 10\t 12 B/op\n";
    const run = parseGoBenchText(text, "bench.txt");
    expect(run.endpoints[0]?.name).toBe("BenchmarkA");
    expect(run.endpoints[0]?.requests).toBe(1);
    expect(run.endpoints[0]?.latency.meanMs).toBeCloseTo(0.0025, 12);
    expect(run.endpoints[0]?.metrics["B/op"]?.value).toBe(12);
    expect(run.environment.testbed).toBeNull();
    expect(run.environment.attributes).toEqual({ gomaxprocs: "8" });
  });

  it("reads CRLF line ends and a byte-order mark as the plain file", () => {
    expect(names(`\uFEFF${base.replaceAll("\n", "\r\n")}`)).toEqual(names(base));
  });

  it("reads a large file in reasonable time", () => {
    const lines = base.split("\n").filter((line) => line.startsWith("Benchmark"));
    const big = ["pkg: example.com/big", ...Array.from({ length: 60_000 }, (_, i) => lines[i % lines.length])].join(
      "\n",
    );
    const started = performance.now();
    const run = parseGoBenchText(big, "big.txt");
    expect(performance.now() - started).toBeLessThan(5000);
    expect(run.aggregate.requests).toBe(60_000);
  });
});

describe("go test -bench: bad input", () => {
  const base = readFixture(TEXT);
  const lineOf = (text: string, needle: string) => text.split("\n").findIndex((line) => line.includes(needle)) + 1;

  it.each([
    [
      "a line cut short mid-pair",
      "    2 allocs/op\nBenchmarkEncodeJSON-2   \t    6703",
      "    2 allocs/op\nBenchmarkEncodeJSON-2   \t    6703\t     74815",
    ],
    [
      "a line cut after its iterations",
      "BenchmarkJoinInts-2               \t   21248\t     31125 ns/op\t   22528 B/op\t       2 allocs/op",
      "BenchmarkJoinInts-2               \t   21248",
    ],
    ["a value that is not a number", "     84016 ns/op", "     84O16 ns/op"],
    ["a NaN value", "     11588 ns/op", "     NaN ns/op"],
    ["a value without its unit", "\t   16414 B/op\t       2 allocs/op", "\t   16414 B/op\t       2 3"],
    ["a unit twice", "     3240 ns/op\t      24 B/op", "     3240 ns/op\t      24 ns/op"],
  ])("names the line of %s", (_, from, to) => {
    const text = base.replace(from, to);
    expect(text).not.toBe(base);
    const error = errorOf(() => parseGoBenchText(text, "gobench.txt"));
    expect(error.code).toBe("malformed");
    const last = to.split("\n").at(-1)!;
    expect(error.details[0]?.path).toBe(`gobench.txt: line ${lineOf(text, last)}`);
  });

  it("refuses a negative time per operation, naming the benchmark", () => {
    const error = errorOf(() => parseGoBenchText(base.replace("     84016 ns/op", "    -84016 ns/op"), "gobench.txt"));
    expect(error.details[0]?.path).toBe("example.com/microbench > BenchmarkEncodeJSON");
  });

  it("refuses an empty file and a file with no benchmark lines", () => {
    expect(errorOf(() => parseGoBenchText("", "gobench.txt")).message).toMatch(/no benchmark results/);
    const headerOnly = base
      .split("\n")
      .filter((line) => !line.startsWith("Benchmark"))
      .join("\n");
    expect(headerOnly).toContain("pkg: example.com/microbench");
    const error = errorOf(() => parseGoBenchText(headerOnly, "gobench.txt"));
    expect(error.code).toBe("malformed");
    expect(error.message).toMatch(/no benchmark results/);
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
