import { describe, expect, it } from "vitest";
import { InputError } from "../../input-error";
import { createSeededRandom } from "../../stats/random";
import { benchmarkjsCriticalValue, isBenchmarkjsText, parseBenchmarkjsText } from "./benchmarkjs";
import { errorOf } from "../fixtures/input-error-of";
import { mutate } from "../fixtures/text-mutations";
import { readFixture } from "../fixtures/read-fixture";
import { parseUpload } from "..";

const FIXTURE = "micro/benchmarkjs/baseline/benchmarkjs.txt";

/** benchmark.js 2.1.4's tTable (two-sided 95% t, df 1…30; 1.96 past 30), copied from its source. */
const BENCHMARKJS_T_TABLE: Record<number, number> = {
  1: 12.706,
  2: 4.303,
  3: 3.182,
  4: 2.776,
  5: 2.571,
  6: 2.447,
  7: 2.365,
  8: 2.306,
  9: 2.262,
  10: 2.228,
  11: 2.201,
  12: 2.179,
  13: 2.16,
  14: 2.145,
  15: 2.131,
  16: 2.12,
  17: 2.11,
  18: 2.101,
  19: 2.093,
  20: 2.086,
  21: 2.08,
  22: 2.074,
  23: 2.069,
  24: 2.064,
  25: 2.06,
  26: 2.056,
  27: 2.052,
  28: 2.048,
  29: 2.045,
  30: 2.042,
};
const tOf = (runs: number) => BENCHMARKJS_T_TABLE[Math.max(1, runs - 1)] ?? 1.96;

/** The test's own reading of the lines: name, hz, rme and runs as printed. */
function readBack(text: string) {
  return [...text.matchAll(/^(.+) x ([\d,.]+) ops\/sec ±([\d.]+)% \((\d+) runs? sampled\)$/gm)].map((m) => ({
    name: m[1] ?? "",
    hz: Number((m[2] ?? "").replaceAll(",", "")),
    rme: Number(m[3]),
    runs: Number(m[4]),
  }));
}

/** benchmark.js's `formatNumber`: thousands separated by commas. */
function formatNumber(number: string): string {
  const [whole = "", fraction] = number.split(".");
  return whole.replace(/(?=(?:\d{3})+$)(?!\b)/g, ",") + (fraction === undefined ? "" : `.${fraction}`);
}

/** What benchmark.js 2.1.4 prints for a sample of periods (seconds): its stats, then `toStringBench`. */
function benchmarkjsLine(name: string, periods: readonly number[]): string {
  const n = periods.length;
  const mean = periods.reduce((sum, x) => sum + x, 0) / n;
  const variance = periods.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (n - 1) || 0;
  const sem = Math.sqrt(variance) / Math.sqrt(n);
  const rme = ((sem * tOf(n)) / mean) * 100 || 0;
  const hz = 1 / mean;
  return `${name} x ${formatNumber(hz.toFixed(hz < 100 ? 2 : 0))} ops/sec ±${rme.toFixed(2)}% (${n} run${n === 1 ? "" : "s"} sampled)`;
}

describe("benchmark.js String(bench) lines", () => {
  const text = readFixture(FIXTURE);
  const expected = readBack(text);
  const run = parseBenchmarkjsText(text, "benchmarkjs.txt");

  it("has one benchmark per line, named as printed, with no group, testbed or notes", () => {
    expect(expected).toHaveLength(6);
    expect(run.format).toBe("benchmarkjs-text");
    expect(run.tool).toBe("benchmarkjs");
    expect(run.toolVersion).toBeNull();
    expect(run.endpoints.map((endpoint) => endpoint.name)).toEqual(expected.map((line) => line.name));
    expect(run.endpoints.every((endpoint) => endpoint.protocol === "benchmark")).toBe(true);
    expect(run.environment.testbed).toBeNull();
    expect(run.environment.config).toEqual({});
    expect(run.environment.attributes).toEqual({});
    expect(run.notes).toEqual([]);
  });

  it("keeps ops/s as printed, the mean time per operation, the runs sampled and the sd rme implies", () => {
    for (const { name, hz, rme, runs } of expected) {
      const endpoint = run.endpoints.find((candidate) => candidate.name === name)!;
      const meanMs = 1000 / hz;
      expect(endpoint.throughput).toBe(hz);
      expect(endpoint.requests).toBe(runs);
      expect(endpoint.failures).toBeNull();
      expect(endpoint.latency.meanMs).toBeCloseTo(meanMs, 15);
      // rme = 100 · t · (sd / √n) / mean, so sd = rme/100 · mean · √n / t (t = 1.96 for these 35–40 df).
      expect(runs - 1).toBeGreaterThan(30);
      expect(endpoint.latency.stdDevMs).toBeCloseTo(((rme / 100) * meanMs * Math.sqrt(runs)) / 1.96, 15);
      expect(endpoint.latency).toMatchObject({ minMs: null, maxMs: null, percentiles: {} });
      expect(endpoint.histogram).toBeNull();
    }
    expect(run.aggregate.requests).toBe(expected.reduce((sum, line) => sum + line.runs, 0));
  });

  it("reads `sort#1000 x 38,523 ops/sec ±1.36% (41 runs sampled)` as the file writes it", () => {
    const sort = run.endpoints.find((endpoint) => endpoint.name === "sort#1000")!;
    expect(sort.throughput).toBe(38_523);
    expect(sort.requests).toBe(41);
    expect(sort.latency.meanMs).toBeCloseTo(1000 / 38_523, 15);
    expect(sort.latency.stdDevMs).toBeCloseTo((0.0136 * (1000 / 38_523) * Math.sqrt(41)) / 1.96, 15);
  });
});

describe("benchmark.js: the t values and the sd", () => {
  it("uses @stdlib's t quantiles, which benchmark.js's table rounds to 3 decimals, and 1.96 past 30 df", () => {
    for (let df = 1; df <= 30; df++) {
      expect(Number(benchmarkjsCriticalValue(df + 1).toFixed(3)), `df ${df}`).toBe(BENCHMARKJS_T_TABLE[df]);
    }
    expect(benchmarkjsCriticalValue(1)).toBeCloseTo(12.706, 3); // one run: benchmark.js's `|| 1`
    expect(benchmarkjsCriticalValue(32)).toBe(1.96);
    expect(benchmarkjsCriticalValue(500)).toBe(1.96);
  });

  it.each([
    ["few runs (t from the table's body)", 12, 2e-5],
    ["many runs (t = 1.96)", 45, 3e-4],
    ["slow, under 100 ops/s", 8, 0.0125],
  ])("gets back the sample's sd from a line benchmark.js would print: %s", (_, runs, meanSeconds) => {
    // A spread of ±8% around the mean, in a fixed pattern.
    const periods = Array.from({ length: runs }, (_, i) => meanSeconds * (1 + 0.08 * Math.sin(i * 2.1)));
    const mean = periods.reduce((sum, x) => sum + x, 0) / runs;
    const sd = Math.sqrt(periods.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (runs - 1));
    const line = benchmarkjsLine("case", periods);
    const [endpoint] = parseBenchmarkjsText(`${line}\nFastest is case\n`, "bench.txt").endpoints;
    expect(endpoint?.requests).toBe(runs);
    // Printed rounding only: rme to 0.01 % points, hz to a whole ops/s (or 0.01 below 100).
    expect(Math.abs(endpoint!.latency.meanMs! / (mean * 1000) - 1)).toBeLessThan(1e-3);
    expect(Math.abs(endpoint!.latency.stdDevMs! / (sd * 1000) - 1)).toBeLessThan(3e-3);
  });

  it("has no sd for a single run", () => {
    const [endpoint] = parseBenchmarkjsText("once x 12.34 ops/sec ±0.00% (1 run sampled)", "bench.txt").endpoints;
    expect(endpoint?.requests).toBe(1);
    expect(endpoint?.throughput).toBe(12.34);
    expect(endpoint?.latency.stdDevMs).toBeNull();
  });
});

describe("benchmark.js: other lines", () => {
  it("ignores the script's own output, `Fastest is` and errored benchmarks", () => {
    const base = readFixture(FIXTURE);
    const noisy = `Running the suite…\n\n${base.replace("Array#join x", "broken: TypeError: x is not a function\nArray#join x")}Slowest is sort#10000\n`;
    expect(parseBenchmarkjsText(noisy, "bench.txt")).toEqual(parseBenchmarkjsText(base, "bench.txt"));
  });

  it("reads names holding ` x `, `+/-` of older releases, decimals under 100 ops/s and CRLF", () => {
    const text =
      "matrix 3 x 3 x 1,234,567 ops/sec +/-0.50% (90 runs sampled)\r\nslow x 7.25 ops/sec ±12.00% (5 runs sampled)\r\n";
    const run = parseBenchmarkjsText(text, "bench.txt");
    expect(run.endpoints.map((endpoint) => [endpoint.name, endpoint.throughput, endpoint.requests])).toEqual([
      ["matrix 3 x 3", 1_234_567, 90],
      ["slow", 7.25, 5],
    ]);
    // With 4 df the exact t (2.7764…) stands for the table's 2.776: the same sd within 0.02%.
    const tableSd = (0.12 * (1000 / 7.25) * Math.sqrt(5)) / BENCHMARKJS_T_TABLE[4]!;
    expect(Math.abs(run.endpoints[1]!.latency.stdDevMs! / tableSd - 1)).toBeLessThan(2e-4);
  });
});

describe("benchmark.js: bad input", () => {
  const base = readFixture(FIXTURE);
  const lineOf = (text: string, needle: string) => text.split("\n").findIndex((line) => line.includes(needle)) + 1;

  it.each([
    [
      "a line cut short",
      "sort#10000 x 1,475 ops/sec ±0.38% (40 runs sampled)",
      "sort#10000 x 1,475 ops/sec ±0.38% (40 runs",
    ],
    ["a rate that is not a number", "JSON#stringify x 14,073 ops/sec", "JSON#stringify x 14,O73 ops/sec"],
    ["a margin that is not a number", "±1.32% (40 runs", "±1.3x% (40 runs"],
    ["a rate of zero", "Map#has x 52,888 ops/sec", "Map#has x 0 ops/sec"],
  ])("names the line of %s", (_, from, to) => {
    const text = base.replace(from, to);
    expect(text).not.toBe(base);
    const error = errorOf(() => parseBenchmarkjsText(text, "benchmarkjs.txt"));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe(`benchmarkjs.txt: line ${lineOf(text, to)}`);
  });

  it("refuses an empty file, a file with no result line and a name twice", () => {
    expect(errorOf(() => parseBenchmarkjsText("", "bench.txt")).message).toMatch(/no benchmark results/);
    expect(errorOf(() => parseBenchmarkjsText("Fastest is Map#has\n", "bench.txt")).message).toMatch(
      /no benchmark results/,
    );
    const twice = `${base}${base.split("\n")[0]}\n`;
    expect(errorOf(() => parseBenchmarkjsText(twice, "bench.txt")).message).toMatch(/"JSON#stringify" appears twice/);
  });
});

describe("benchmark.js under seeded mutations", () => {
  it("reads a mutated file or refuses it with an InputError, never another error", () => {
    const random = createSeededRandom(20261125);
    const original = readFixture(FIXTURE);
    const outcomes = { read: 0, refused: 0 };
    for (let index = 0; index < 300; index++) {
      let text = original;
      for (let mutations = 1 + random.integer(3); mutations > 0; mutations--) text = mutate(random, text);
      try {
        parseUpload({ files: [{ name: null, text }], format: "benchmarkjs-text" });
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

describe("benchmark.js detection", () => {
  it("knows the lines, after other output too, and nothing that merely says ops/sec", () => {
    expect(isBenchmarkjsText(readFixture(FIXTURE))).toBe(true);
    expect(isBenchmarkjsText("warming up\nfoo x 1,000 ops/sec ±1.00% (50 runs sampled)\n")).toBe(true);
    expect(isBenchmarkjsText("foo x 1,000 ops/sec\n")).toBe(false);
    expect(isBenchmarkjsText("Fastest is foo\n")).toBe(false);
  });
});
