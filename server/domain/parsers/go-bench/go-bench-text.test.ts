/**
 * go test -bench text beyond the real file: other runs read the same way (several packages, -cpu lists,
 * noise, failures, CRLF, a large file), and bad input refused with the line that broke it.
 */
import { describe, expect, it } from "vitest";
import { errorOf } from "../fixtures/input-error-of";
import { readFixture } from "../fixtures/read-fixture";
import { parseGoBenchText } from "./go-bench";
import { TEXT } from "./go-bench.fixture";

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
