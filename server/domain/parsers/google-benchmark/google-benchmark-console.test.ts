import { describe, expect, it } from "vitest";
import { errorOf } from "../fixtures/input-error-of";
import { lineEdits } from "../fixtures/line-edits";
import { readFixture } from "../fixtures/read-fixture";
import { isGoogleBenchmarkConsole, parseGoogleBenchmarkConsole, parseGoogleBenchmarkJson } from "./google-benchmark";
import { printedTimeStep } from "./google-benchmark-console";
import { parseUpload } from "..";

const FOLDER = "micro/google-benchmark/baseline";
const TEXT = readFixture(`${FOLDER}/gbench.txt`);
// gbench.json and gbench.txt are the same run (--benchmark_out and the console): fixtures README.
const JSON_RUN = parseGoogleBenchmarkJson(JSON.parse(readFixture(`${FOLDER}/gbench.json`)));
const NS_IN_MS = 1e-6;

interface JsonRow {
  run_name: string;
  run_type: string;
  real_time?: number;
  cpu_time?: number;
  [key: string]: unknown;
}
const JSON_ROWS = (JSON.parse(readFixture(`${FOLDER}/gbench.json`)) as { benchmarks: JsonRow[] }).benchmarks;

const parse = (text: string) => parseGoogleBenchmarkConsole(text, "gbench.txt");
const { lines, lineIndex, withLines } = lineEdits(TEXT);

describe("Google Benchmark console output (gbench.txt, the same run as gbench.json)", () => {
  const run = parse(TEXT);

  it("gives the JSON's benchmark names, testbed, build type, date and notes", () => {
    expect(run.format).toBe("google-benchmark-console");
    expect(run.tool).toBe("google-benchmark");
    expect(run.endpoints.map((endpoint) => endpoint.name)).toEqual(JSON_RUN.endpoints.map((endpoint) => endpoint.name));
    expect(run.environment.testbed).toBe(JSON_RUN.environment.testbed);
    expect(run.environment.testbed).toBe("2 × 2596 MHz CPUs · L1d 32 KiB, L1i 32 KiB, L2 1024 KiB, L3 32768 KiB");
    expect(run.environment.attributes).toEqual(JSON_RUN.environment.attributes);
    expect(run.startedAt).toBe(JSON_RUN.startedAt);
    // No "mean is not the mean of its repetitions" note: Google Benchmark's printed means agree with the printed rows.
    expect(run.notes).toEqual(JSON_RUN.notes);
  });

  it("reads each repetition as the JSON's real time to the printed precision, in order", () => {
    const iterationRows = JSON_ROWS.filter((row) => row.run_type === "iteration");
    for (const endpoint of run.endpoints) {
      const jsonNs = iterationRows
        .filter((row) => row.run_name === endpoint.name)
        .map((row) => row.real_time ?? Number.NaN);
      expect(endpoint.requests).toBe(jsonNs.length);
      const printedNs = consoleRowsOf(endpoint.name).map((row) => row.realNs);
      expect(printedNs).toHaveLength(5);
      for (const [index, ns] of printedNs.entries()) {
        expect(Math.abs(ns - (jsonNs[index] ?? Number.NaN)), `${endpoint.name} #${index}`).toBeLessThanOrEqual(
          printedTimeStep(ns) / 2 + 1e-9,
        );
      }
      const sortedMs = printedNs.map((ns) => ns * NS_IN_MS).sort((a, b) => a - b);
      expect(endpoint.latency.minMs).toBeCloseTo(sortedMs[0] ?? Number.NaN, 15);
      expect(endpoint.latency.percentiles["50"]).toBeCloseTo(sortedMs[2] ?? Number.NaN, 15);
      expect(endpoint.latency.maxMs).toBeCloseTo(sortedMs[4] ?? Number.NaN, 15);
    }
  });

  it("reads counters with their SI prefixes (powers of 1024 for bytes_per_second) to the JSON's values, 6 digits", () => {
    for (const endpoint of run.endpoints) {
      const json = JSON_RUN.endpoints.find((candidate) => candidate.name === endpoint.name);
      expect(Object.keys(endpoint.metrics).sort()).toEqual(Object.keys(json?.metrics ?? {}).sort());
      for (const [key, metric] of Object.entries(endpoint.metrics)) {
        const expected = json?.metrics[key];
        expect({ key, unit: metric.unit, better: metric.better }).toEqual({
          key,
          unit: expected?.unit,
          better: expected?.better,
        });
        // cpu_time is printed with 3 digits or whole ns, counters with 6 significant digits.
        const relative = Math.abs(metric.value - (expected?.value ?? 0)) / Math.abs(expected?.value ?? 1);
        expect(relative, `${endpoint.name} ${key}`).toBeLessThan(key === "cpu_time" ? 2e-3 : 1e-5);
      }
    }
    expect(run.endpoints.find((e) => e.name === "BM_Memcpy/1024")?.metrics.bytes_per_second?.value).toBeCloseTo(
      mean([99.8293, 99.9653, 99.9957, 99.9337, 99.4319]) * 2 ** 30,
      -2,
    );
  });

  it("keeps the Complexity() fit as the JSON does, to the printed precision", () => {
    expect(run.metrics.BM_Sort_BigO).toEqual({ value: 2.31 * NS_IN_MS, unit: "ms/NlgN", better: "lower" });
    expect(run.metrics["BM_Sort_BigO cpu_time"]?.value).toBeCloseTo(2.3 * NS_IN_MS, 15);
    expect(run.metrics.BM_Sort_RMS).toEqual({ value: 8, unit: "%", better: null });
    expect(JSON_RUN.metrics.BM_Sort_BigO?.value).toBeCloseTo(2.31 * NS_IN_MS, 8);
    expect(Math.round(JSON_RUN.metrics.BM_Sort_RMS?.value ?? 0)).toBe(8);
  });

  it("is detected by its context line or, stdout alone, by the table's header", () => {
    expect(isGoogleBenchmarkConsole(TEXT)).toBe(true);
    const stdoutOnly = lines.slice(lineIndex("-----")).join("\n");
    expect(isGoogleBenchmarkConsole(stdoutOnly)).toBe(true);
    expect(parseUpload({ files: [{ name: null, text: TEXT }] }).format).toBe("google-benchmark-console");
  });

  it("reads CRLF line endings alike", () => {
    expect(parse(TEXT.replaceAll("\n", "\r\n"))).toEqual(run);
  });
});

describe("Google Benchmark console variants made from the real output", () => {
  it("reads stdout alone (no context lines): the same benchmarks, no testbed, build type or date", () => {
    const run = parse(lines.slice(lineIndex("-----")).join("\n"));
    expect(run.endpoints.map((endpoint) => endpoint.name)).toEqual(JSON_RUN.endpoints.map((endpoint) => endpoint.name));
    expect(run.environment.testbed).toBeNull();
    expect(run.environment.attributes).toEqual({});
    expect(run.startedAt).toBeNull();
    expect(run.notes).toEqual([]);
  });

  it("calls a build without the DEBUG warning a release build", () => {
    const run = parse(withLines((all) => all.splice(lineIndex("***WARNING***"), 1)));
    expect(run.environment.attributes).toEqual({ library_build_type: "release" });
    expect(run.notes).toEqual([]);
  });

  it("reads the aggregates alone (--benchmark_display_aggregates_only) as the mean, median and stddev rows", () => {
    const aggregatesOnly = lines.filter(
      (line) => !/^BM_\S+ +\d/.test(line) || /_(mean|median|stddev|cv|BigO|RMS) /.test(line),
    );
    const run = parse(aggregatesOnly.join("\n"));
    expect(run.endpoints.map((endpoint) => endpoint.name)).toEqual(JSON_RUN.endpoints.map((endpoint) => endpoint.name));
    const fill = run.endpoints.find((endpoint) => endpoint.name === "BM_VectorFill/64");
    expect(fill?.requests).toBe(5);
    expect(fill?.latency.meanMs).toBeCloseTo(60.3 * NS_IN_MS, 15);
    expect(fill?.latency.percentiles).toEqual({ "50": 60.4 * NS_IN_MS });
    expect(fill?.latency.stdDevMs).toBeCloseTo(0.402 * NS_IN_MS, 15);
    expect(fill?.metrics.items_per_second?.value).toBeCloseTo(1061.7e6, 0);
  });

  it("counts an ERROR OCCURRED repetition as a failure, still one of the 5 its aggregates count", () => {
    const index = lineIndex("BM_StringJoin ");
    const run = parse(withLines((all) => (all[index] = "BM_StringJoin              ERROR OCCURRED: 'boom'")));
    const join = run.endpoints.find((endpoint) => endpoint.name === "BM_StringJoin");
    expect(join?.failures).toBe(1);
    expect(join?.requests).toBe(4);
    expect(join?.latency.minMs).toBeCloseTo(13142 * NS_IN_MS, 15);
    // Its aggregate rows are still read as aggregates (5 repetitions, one failed), not as benchmarks.
    expect(run.endpoints.map((endpoint) => endpoint.name)).toEqual(JSON_RUN.endpoints.map((endpoint) => endpoint.name));
  });

  it("does not take a benchmark whose name merely extends another's (BM_Sort/1000_fast) for an aggregate", () => {
    // Without repetitions: no aggregates, so `<name>_fast` after `<name>` is a benchmark of its own.
    const header = lines.slice(lineIndex("-----"), lineIndex("BM_"));
    const first = lines[lineIndex("BM_Sort/1000 ")] ?? "";
    const table = [...header, first, first.replace("BM_Sort/1000     ", "BM_Sort/1000_fast")].join("\n");
    expect(parse(table).endpoints.map((endpoint) => [endpoint.name, endpoint.requests])).toEqual([
      ["BM_Sort/1000", 1],
      ["BM_Sort/1000_fast", 1],
    ]);
  });

  it("reads tabular counters (--benchmark_counters_tabular) by their columns", () => {
    const row = lines[lineIndex("BM_MapLookup ")] ?? "";
    const [name, real, unit, cpu, cpuUnit, iterations] = row.split(/ +/);
    const header = `${"Benchmark".padEnd(26)} ${"Time".padStart(13)} ${"CPU".padStart(15)} ${"Iterations".padStart(12)}  hit_ratio items_per_second       keys    lookups`;
    const body = `${(name ?? "").padEnd(26)} ${real} ${unit} ${cpu} ${cpuUnit} ${iterations}        0.5       68.6572M/s      1000 68.6572M/s`;
    const run = parse([header, body].join("\n"));
    expect(run.endpoints[0]?.metrics).toMatchObject({
      hit_ratio: { value: 0.5 },
      items_per_second: { value: 68.6572e6, unit: "items/s" },
      keys: { value: 1000 },
      lookups: { value: 68.6572e6 },
    });
  });

  it("refuses a row cut short, naming its line", () => {
    const index = lineIndex("BM_Sort/10000 ");
    const error = errorOf(() => parse(withLines((all) => (all[index] = (all[index] ?? "").slice(0, 45)))));
    expect(error.code).toBe("malformed");
    expect(error.details).toEqual([
      { path: `gbench.txt: line ${index + 1}`, message: expect.stringContaining("cut short") as string },
    ]);
  });

  it("refuses a name wider than the header's column, a non-number time, and text with no table", () => {
    const index = lineIndex("BM_StringJoin ");
    const wide = withLines(
      (all) => (all[index] = `BM_StringJoin_with_a_much_longer_name ${(all[index] ?? "").slice(26)}`),
    );
    expect(errorOf(() => parse(wide)).details[0]).toEqual({
      path: `gbench.txt: line ${index + 1}`,
      message: expect.stringContaining("wider") as string,
    });
    const garbled = withLines((all) => (all[index] = (all[index] ?? "").replace("14004", "14O04")));
    expect(errorOf(() => parse(garbled)).details[0]?.path).toBe(`gbench.txt: line ${index + 1}`);
    const headerOnly = lines.slice(0, lineIndex("-----")).join("\n");
    expect(errorOf(() => parse(headerOnly)).message).toContain('no "Benchmark  Time  CPU  Iterations" table');
  });
});

/** The repetition rows of a benchmark as printed: `<name>  <time> ns  <cpu> ns  <iterations> …`. */
function consoleRowsOf(name: string): { realNs: number }[] {
  return lines
    .filter((line) => line.startsWith(`${name} `))
    .map((line) => line.slice(name.length).trim().split(/ +/))
    .filter(([, unit]) => unit === "ns")
    .map(([real]) => ({ realNs: Number(real) }));
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}
