import { describe, expect, it } from "vitest";
import { errorOf } from "../fixtures/input-error-of";
import { lineEdits } from "../fixtures/line-edits";
import { readFixture } from "../fixtures/read-fixture";
import { parseUpload } from "..";
import { isPytestBenchmarkText, parsePytestBenchmark, parsePytestBenchmarkText } from "./pytest-benchmark";

const FOLDER = "micro/pytest-benchmark/baseline";
const TEXT = readFixture(`${FOLDER}/pytest-benchmark.txt`);
// pytest-benchmark.json was written by the same pytest session (fixtures README).
const JSON_FILE = JSON.parse(readFixture(`${FOLDER}/pytest-benchmark.json`)) as {
  benchmarks: { group: string; name: string; stats: Record<string, number> }[];
};
const JSON_RUN = parsePytestBenchmark(JSON_FILE);
const US_IN_MS = 1e-3;

const parse = (text: string) => parsePytestBenchmarkText(text, "pytest-benchmark.txt");
const { lines, lineIndex, withLines } = lineEdits(TEXT);

describe("pytest's console with pytest-benchmark's tables (pytest-benchmark.txt)", () => {
  const run = parse(TEXT);

  it("gives the JSON's benchmark names, group > name", () => {
    expect(run.format).toBe("pytest-benchmark-text");
    expect(run.tool).toBe("pytest-benchmark");
    expect(run.endpoints.map((endpoint) => endpoint.name).sort()).toEqual(
      JSON_RUN.endpoints.map((endpoint) => endpoint.name).sort(),
    );
    // Each table lists its group sorted by min, as the file prints it.
    expect(run.endpoints.map((endpoint) => endpoint.name).slice(0, 3)).toEqual([
      "json > test_json_loads",
      "json > test_json_dumps",
      "lookup > test_dict_lookup",
    ]);
  });

  it("reads a row's columns as printed, in the table's unit (us) and OPS scale (Kops/s)", () => {
    // test_sort[10000]  855.8300 (448.11)  1,028.5860 (278.92)  875.6943 (451.25)  18.6995 (226.50)  867.4320 (451.57)  23.1650 (>1000.0)  1.1420 (0.00)  506
    expect(lines[lineIndex("test_sort[10000]")]).toContain("1,028.5860 (278.92)");
    const sort = run.endpoints.find((endpoint) => endpoint.name === "sort > test_sort[10000]");
    expect(sort?.requests).toBe(506);
    expect(sort?.latency.minMs).toBeCloseTo(855.83 * US_IN_MS, 12);
    expect(sort?.latency.maxMs).toBeCloseTo(1028.586 * US_IN_MS, 12);
    expect(sort?.latency.meanMs).toBeCloseTo(875.6943 * US_IN_MS, 12);
    expect(sort?.latency.stdDevMs).toBeCloseTo(18.6995 * US_IN_MS, 12);
    expect(sort?.latency.percentiles).toEqual({ "50": 867.432 * US_IN_MS });
    expect(sort?.throughput).toBeCloseTo(1142, 9);
    expect(sort?.histogram).toBeNull();
    // A table of one benchmark prints no ratios.
    const lookup = run.endpoints.find((endpoint) => endpoint.name === "lookup > test_dict_lookup");
    expect(lookup?.latency.meanMs).toBeCloseTo(27.4676 * US_IN_MS, 12);
    expect(lookup?.requests).toBe(2010);
    expect(lookup?.throughput).toBeCloseTo(36406.5, 9);
  });

  it("agrees with the JSON of the same session to the printed 4 decimals", () => {
    for (const endpoint of run.endpoints) {
      const stats = JSON_FILE.benchmarks.find((b) => `${b.group} > ${b.name}` === endpoint.name)?.stats ?? {};
      const printed = (ms: number | null | undefined, seconds: number | undefined) =>
        expect(Math.abs((ms ?? Number.NaN) - (seconds ?? Number.NaN) * 1000), endpoint.name).toBeLessThanOrEqual(
          0.00005 * US_IN_MS + 1e-15,
        );
      printed(endpoint.latency.minMs, stats.min);
      printed(endpoint.latency.maxMs, stats.max);
      printed(endpoint.latency.meanMs, stats.mean);
      printed(endpoint.latency.stdDevMs, stats.stddev);
      printed(endpoint.latency.percentiles["50"], stats.median);
      expect(endpoint.requests).toBe(stats.rounds);
      // OPS is printed in Kops/s with 4 decimals: within 0.05 ops/s.
      expect(Math.abs((endpoint.throughput ?? 0) - (stats.ops ?? 0))).toBeLessThanOrEqual(0.05 + 1e-9);
    }
  });

  it("reads pytest's header and last line: the plugin's and Python's versions, the session's duration; no testbed", () => {
    expect(run.toolVersion).toBe("3.2.2");
    expect(run.environment.attributes).toEqual({ python_version: "3.11.2" });
    expect(run.durationSeconds).toBe(5.17);
    expect(run.environment.testbed).toBeNull();
    expect(run.startedAt).toBeNull();
    expect(run.notes).toEqual([]);
  });

  it("is detected by the plugin's header line, or by a table's labels when pytest ran quiet", () => {
    expect(isPytestBenchmarkText(TEXT)).toBe(true);
    expect(isPytestBenchmarkText(lines.slice(lineIndex("test_micro.py")).join("\n"))).toBe(true);
    expect(parseUpload({ files: [{ name: null, text: TEXT }] }).format).toBe("pytest-benchmark-text");
  });

  it("reads CRLF line endings alike", () => {
    expect(parse(TEXT.replaceAll("\n", "\r\n"))).toEqual(run);
  });
});

describe("pytest-benchmark console variants made from the real output", () => {
  it("names a table without a group (benchmarks with none) by the test's name alone", () => {
    const index = lines.findIndex((line) => line.includes(" benchmark 'lookup': 1 tests "));
    const text = withLines(
      (all) => (all[index] = (all[index] ?? "").replace(" benchmark 'lookup': 1 tests ", "- benchmark: 1 tests -")),
    );
    expect(parse(text).endpoints.map((endpoint) => endpoint.name)).toContain("test_dict_lookup");
  });

  it("undoes Python's repr of a group name", () => {
    const index = lines.findIndex((line) => line.includes(" benchmark 'lookup': 1 tests "));
    const text = withLines((all) => (all[index] = (all[index] ?? "").replace("'lookup'", `"it's \\xe9"`)));
    expect(parse(text).endpoints.map((endpoint) => endpoint.name)).toContain("it's é > test_dict_lookup");
  });

  it("takes --benchmark-name=long's node ids to the JSON's names", () => {
    const text = TEXT.replace("\ntest_sort[100]  ", "\ntest_micro.py::test_sort[100]  ");
    const sort = parse(text).endpoints.find((endpoint) => endpoint.name === "sort > test_sort[100]");
    expect(sort?.fullName).toBe("test_micro.py::test_sort[100]");
  });

  it("reads the columns the run chose, in any order, with OPS in Mops/s and the Outliers and Iterations columns", () => {
    const text = [
      "---------------------------- benchmark 'sort': 2 tests ----------------------------",
      "Name (time in ns)        Mean            Outliers  OPS (Mops/s)          Iterations",
      "------------------------------------------------------------------------------------",
      "test_sort[10]     151.2345 (1.0)      331;257    6.6122 (1.0)             1000",
      "test sort [a b]   1,940.6037 (12.83)   12;4       0.5153 (0.08)             105",
      "------------------------------------------------------------------------------------",
    ].join("\n");
    const run = parse(text);
    expect(run.endpoints.map((endpoint) => [endpoint.name, endpoint.throughput, endpoint.requests])).toEqual([
      ["sort > test_sort[10]", 6.6122e6, null],
      ["sort > test sort [a b]", 0.5153e6, null],
    ]);
    expect(run.endpoints[0]?.latency.meanMs).toBeCloseTo(151.2345e-6, 15);
    expect(run.endpoints[1]?.latency.meanMs).toBeCloseTo(1940.6037e-6, 15);
    expect(run.endpoints[0]?.latency.minMs).toBeNull();
  });

  it("keeps only the current run's rows of a --benchmark-compare table", () => {
    const start = lineIndex("Name (time in us)         Min       Max");
    const row = lines[start + 2] ?? "";
    const text = [
      (lines[start - 1] ?? "").replace("1 tests", "2 tests"),
      lines[start],
      lines[start + 1],
      row.replace("test_dict_lookup ", "test_dict_lookup (0001_b410939) "),
      row.replace("test_dict_lookup ", "test_dict_lookup (NOW) "),
      lines[start + 3],
    ].join("\n");
    const run = parse(text);
    expect(run.endpoints.map((endpoint) => endpoint.name)).toEqual(["lookup > test_dict_lookup"]);
  });

  it("refuses a row cut short, naming its line", () => {
    const index = lineIndex("test_sort[1000]");
    const error = errorOf(() => parse(withLines((all) => (all[index] = (all[index] ?? "").slice(0, 60)))));
    expect(error.code).toBe("malformed");
    expect(error.details).toEqual([
      { path: `pytest-benchmark.txt: line ${index + 1}`, message: expect.stringContaining("cut short") as string },
    ]);
  });

  it("refuses a table cut off before its closing line, and one with fewer rows than its header says", () => {
    const cut = lines.slice(0, lineIndex("test_sort[1000]") + 1).join("\n");
    expect(errorOf(() => parse(cut)).details[0]?.message).toContain("ends before its closing dashed line");
    const fewer = withLines((all) => all.splice(lineIndex("test_sort[1000]"), 1));
    expect(errorOf(() => parse(fewer)).details[0]?.message).toContain("has 2 rows, but its header says 3 tests");
  });

  it("refuses a unit a scale hook made up, and output without any table", () => {
    const hooked = TEXT.replaceAll("Name (time in us)", "Name (time in millisecs)");
    expect(errorOf(() => parse(hooked)).details[0]?.path).toBe(
      `pytest-benchmark.txt: line ${lineIndex("Name (time in us)") + 1}`,
    );
    const noTable = lines.slice(0, lineIndex("test_micro.py")).join("\n");
    expect(errorOf(() => parse(noTable)).message).toContain("no benchmark table");
  });

  it("refuses two rows of one name in a group (short names cannot tell two modules' tests apart)", () => {
    const start = lineIndex("Name (time in us)         Min       Max");
    const row = lines[start + 2] ?? "";
    const text = [
      (lines[start - 1] ?? "").replace("1 tests", "2 tests"),
      lines[start],
      lines[start + 1],
      row,
      row,
      lines[start + 3],
    ].join("\n");
    expect(errorOf(() => parse(text)).details[0]?.message).toContain("--benchmark-name=long");
  });
});
