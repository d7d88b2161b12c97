import { describe, expect, it } from "vitest";
import type { ParsedRun } from "../../run";
import { errorOf } from "../fixtures/input-error-of";
import { readFixture, readFixtureJson } from "../fixtures/read-fixture";
import { parseHyperfineCsv, parseHyperfineJson } from "./hyperfine";
import { parseHyperfineMarkdown, parseHyperfineText } from "./hyperfine-text";
import { parseUpload } from "..";

const FOLDER = "micro/hyperfine/baseline";
const RUNS = ["hyperfine", "hyperfine-scan"] as const;

interface JsonResult {
  command: string;
  mean: number;
  stddev: number;
  user: number;
  system: number;
  min: number;
  max: number;
  times: number[];
}

const resultsOf = (run: string) => (readFixtureJson(`${FOLDER}/${run}.json`) as { results: JsonResult[] }).results;
const names = (run: ParsedRun) => run.endpoints.map((endpoint) => endpoint.name);
/** Half of the last printed digit (0.1 ms), plus float noise: how far a printed value may be from the JSON's. */
const HALF_STEP_MS = 0.05 + 1e-9;

/** The test's own reading of a Markdown row: `| \`cmd\` | 138.9 ± 5.7 | 133.9 | 157.1 | … |`. */
function markdownRows(text: string) {
  return [...text.matchAll(/^\| `(.+)` \| ([\d.]+) ± ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|/gm)].map((m) => ({
    command: m[1],
    mean: Number(m[2]),
    sd: Number(m[3]),
    min: Number(m[4]),
    max: Number(m[5]),
  }));
}

/** The test's own reading of the console: each benchmark's Time and Range lines, in ms. */
function consoleBlocks(text: string) {
  const pattern =
    /^Benchmark \d+: (.+)\n {2}Time \(mean ± σ\): +([\d.]+) ms ± +([\d.]+) ms +\[User: ([\d.]+) ms, System: ([\d.]+) ms\]\n {2}Range \(min … max\): +([\d.]+) ms … +([\d.]+) ms +(\d+) runs/gm;
  return [...text.matchAll(pattern)].map((m) => ({
    command: m[1],
    mean: Number(m[2]),
    sd: Number(m[3]),
    user: Number(m[4]),
    system: Number(m[5]),
    min: Number(m[6]),
    max: Number(m[7]),
    runs: Number(m[8]),
  }));
}

describe.each(RUNS)("hyperfine --export-markdown %s.md", (name) => {
  const text = readFixture(`${FOLDER}/${name}.md`);
  const run = parseHyperfineMarkdown(text, `${name}.md`);
  const rows = markdownRows(text);
  const results = resultsOf(name);

  it("gives the same names as the JSON, CSV and console of the same invocation", () => {
    expect(rows.length).toBe(results.length);
    const json = names(parseHyperfineJson(readFixtureJson(`${FOLDER}/${name}.json`)));
    expect(names(run)).toEqual(json);
    expect(names(parseHyperfineCsv(readFixture(`${FOLDER}/${name}.csv`), "csv"))).toEqual(json);
    expect(names(parseHyperfineText(readFixture(`${FOLDER}/${name}.txt`), "txt"))).toEqual(json);
  });

  it("reads the table's numbers in its unit (ms), which are the JSON's rounded to 0.1 ms", () => {
    run.endpoints.forEach((endpoint, index) => {
      const row = rows[index]!;
      const result = results[index]!;
      expect(endpoint.latency).toEqual({
        meanMs: row.mean,
        stdDevMs: row.sd,
        minMs: row.min,
        maxMs: row.max,
        percentiles: {},
      });
      expect(Math.abs(row.mean - result.mean * 1000)).toBeLessThanOrEqual(HALF_STEP_MS);
      expect(Math.abs(row.sd - result.stddev * 1000)).toBeLessThanOrEqual(HALF_STEP_MS);
      expect(Math.abs(row.min - result.min * 1000)).toBeLessThanOrEqual(HALF_STEP_MS);
      expect(Math.abs(row.max - result.max * 1000)).toBeLessThanOrEqual(HALF_STEP_MS);
      // No run count, exit codes or CPU times in the table.
      expect([endpoint.requests, endpoint.failures, endpoint.metrics]).toEqual([null, null, {}]);
    });
  });
});

describe("hyperfine --export-markdown: units, escapes and bad tables", () => {
  const text = readFixture(`${FOLDER}/hyperfine.md`);
  const lines = text.split("\n");

  it("matches the values printed in hyperfine.md", () => {
    const gzip = parseHyperfineMarkdown(text, "hyperfine.md").endpoints[0]!;
    expect(gzip.name).toBe("gzip -c -6 data.txt");
    expect(gzip.latency).toMatchObject({ meanMs: 138.9, stdDevMs: 5.7, minMs: 133.9, maxMs: 157.1 });
  });

  it("reads each column's unit from the header (seconds, µs), a mean with no ± (one run), and \\| in a command", () => {
    const table = [
      "| Command | Mean [s] | Min [s] | Max [s] | Relative |",
      "|:---|---:|---:|---:|---:|",
      "| `cat a.txt \\| wc -l` | 1.250 ± 0.013 | 1.232 | 1.271 | 1.00 |",
      "| `sleep 2` | 2.004 | 2.004 | 2.004 | 1.60 ± 0.02 |",
    ].join("\n");
    const run = parseHyperfineMarkdown(table, "seconds.md");
    expect(names(run)).toEqual(["cat a.txt | wc -l", "sleep 2"]);
    expect(run.endpoints[0]?.latency).toMatchObject({ meanMs: 1250, stdDevMs: 13, minMs: 1232, maxMs: 1271 });
    expect(run.endpoints[1]?.latency).toMatchObject({ meanMs: 2004, stdDevMs: null });
    const micro = table.replaceAll("[s]", "[µs]");
    expect(parseHyperfineMarkdown(micro, "micro.md").endpoints[0]?.latency.meanMs).toBeCloseTo(0.00125, 12);
  });

  it("refuses an empty table, naming the line where rows should start", () => {
    const empty = lines.slice(0, 2).join("\n");
    const error = errorOf(() => parseUpload({ files: [{ name: "hyperfine.md", text: empty }] }));
    expect(error.code).toBe("malformed");
    expect(error.details).toEqual([
      { path: "hyperfine.md: line 3", message: expect.stringContaining("no rows") as string },
    ]);
  });

  it("refuses a row with a missing cell, a mean that is no number, a missing divider, an unknown unit", () => {
    const missing = text.replace("| 133.9 | 157.1 |", "| 133.9 |");
    expect(errorOf(() => parseHyperfineMarkdown(missing, "hyperfine.md")).details[0]?.path).toBe(
      "hyperfine.md: line 3",
    );
    const word = text.replace("39.5 ± 3.8", "fast");
    expect(errorOf(() => parseHyperfineMarkdown(word, "hyperfine.md")).details[0]?.path).toBe("hyperfine.md: line 4");
    const noDivider = [lines[0], ...lines.slice(2)].join("\n");
    expect(errorOf(() => parseHyperfineMarkdown(noDivider, "hyperfine.md")).details[0]?.path).toBe(
      "hyperfine.md: line 2",
    );
    const minutes = text.replace("Mean [ms]", "Mean [min]");
    expect(errorOf(() => parseHyperfineMarkdown(minutes, "hyperfine.md")).details[0]).toEqual({
      path: "hyperfine.md: line 1",
      message: 'column 2 is in "min": expected s, ms or µs',
    });
  });
});

describe.each(RUNS)("hyperfine console output %s.txt", (name) => {
  const text = readFixture(`${FOLDER}/${name}.txt`);
  const run = parseHyperfineText(text, `${name}.txt`);
  const blocks = consoleBlocks(text);
  const results = resultsOf(name);

  it("has one benchmark per Benchmark block, with no version or testbed (none printed)", () => {
    expect(run.format).toBe("hyperfine-text");
    expect(blocks.length).toBe(results.length);
    expect(names(run)).toEqual(blocks.map((block) => block.command));
    expect([run.toolVersion, run.environment.testbed]).toEqual([null, null]);
  });

  it("reads mean ± σ, min, max, the run count and CPU times, which are the JSON's to the printed 0.1 ms", () => {
    run.endpoints.forEach((endpoint, index) => {
      const block = blocks[index]!;
      const result = results[index]!;
      expect(endpoint.latency).toEqual({
        meanMs: block.mean,
        stdDevMs: block.sd,
        minMs: block.min,
        maxMs: block.max,
        percentiles: {},
      });
      expect(endpoint.requests).toBe(block.runs);
      expect(block.runs).toBe(result.times.length);
      expect(endpoint.failures).toBeNull();
      expect(endpoint.metrics).toEqual({
        user: { value: block.user, unit: "ms", better: "lower" },
        system: { value: block.system, unit: "ms", better: "lower" },
      });
      for (const [printed, exact] of [
        [block.mean, result.mean],
        [block.sd, result.stddev],
        [block.min, result.min],
        [block.max, result.max],
        [block.user, result.user],
        [block.system, result.system],
      ] as const) {
        expect(Math.abs(printed - exact * 1000)).toBeLessThanOrEqual(HALF_STEP_MS);
      }
    });
  });
});

describe("hyperfine console output: what else a CI log holds, and bad logs", () => {
  const text = readFixture(`${FOLDER}/hyperfine.txt`);
  const lines = text.split("\n");
  const expected = parseHyperfineText(text, "hyperfine.txt");
  const esc = String.fromCharCode(27);

  it("matches the values printed in hyperfine.txt", () => {
    expect(expected.endpoints[1]).toMatchObject({
      name: "sort data.txt",
      requests: 20,
      latency: { meanMs: 39.5, stdDevMs: 3.8, minMs: 33.7, maxMs: 47.7 },
      metrics: { user: { value: 43.8 }, system: { value: 8.1 } },
    });
  });

  it("skips warnings, the commands' own output and colours, and reads CRLF line ends", () => {
    const noisy = [
      lines[0],
      "data.txt: 71.2% -- replaced with stdout",
      ...lines.slice(1, 3),
      "  Warning: Statistical outliers were detected. Consider re-running this benchmark on a quiet system.",
      ...lines.slice(3),
    ].join("\n");
    expect(parseHyperfineText(noisy, "noisy.txt").endpoints).toEqual(expected.endpoints);
    const coloured = text
      .replace("Benchmark 1:", `${esc}[1mBenchmark 1${esc}[0m:`)
      .replace("138.9 ms", `${esc}[32m138.9 ms${esc}[0m`);
    expect(parseHyperfineText(coloured, "coloured.txt").endpoints).toEqual(expected.endpoints);
    expect(parseHyperfineText(text.replaceAll("\n", "\r\n"), "crlf.txt").endpoints).toEqual(expected.endpoints);
    expect(parseUpload({ files: [{ name: null, text: noisy }] }).format).toBe("hyperfine-text");
  });

  it("reads a single run (`Time (abs ≡)`, no Range line) as one sample whose min and max are that run", () => {
    const single = [
      "Benchmark 1: sleep 0.5",
      "  Time (abs ≡):        502.3 ms               [User: 0.9 ms, System: 1.1 ms]",
      " ",
    ].join("\n");
    expect(parseHyperfineText(single, "single.txt").endpoints[0]).toMatchObject({
      name: "sleep 0.5",
      requests: 1,
      latency: { meanMs: 502.3, stdDevMs: null, minMs: 502.3, maxMs: 502.3 },
    });
  });

  it("reads a benchmark printed in seconds", () => {
    const slow = text
      .replace(/138\.9 ms ± {3}5\.7 ms/, "1.389 s ±  0.057 s")
      .replace("133.9 ms … 157.1 ms", "1.339 s …  1.571 s");
    expect(parseHyperfineText(slow, "slow.txt").endpoints[0]?.latency).toMatchObject({
      meanMs: 1389,
      stdDevMs: 57,
      minMs: 1339,
      maxMs: 1571,
    });
  });

  it("refuses a log cut short after a Benchmark line, naming that line", () => {
    const cut = lines.slice(0, 9).join("\n");
    expect(errorOf(() => parseHyperfineText(cut, "hyperfine.txt")).details).toEqual([
      {
        path: "hyperfine.txt: line 9",
        message: expect.stringContaining("Benchmark 3 (python3 wordfreq.py data.txt) has no result") as string,
      },
    ]);
    const noRange = lines.slice(0, 10).join("\n");
    expect(errorOf(() => parseHyperfineText(noRange, "hyperfine.txt")).details[0]?.message).toContain(
      "no `Range (min … max)` line",
    );
  });

  it("says why a benchmark stopped when hyperfine printed an error", () => {
    const failed = [
      ...lines.slice(0, 9),
      "Error: Command terminated with non-zero exit code: 1. Use the '-i'/'--ignore-failure' option if you want to ignore this.",
    ].join("\n");
    expect(errorOf(() => parseHyperfineText(failed, "hyperfine.txt")).details[0]?.message).toContain(
      "hyperfine stopped: Command terminated with non-zero exit code: 1",
    );
  });

  it("refuses a mangled Time line and two runs' logs in one file, naming the line", () => {
    const mangled = text.replace("39.5 ms ±   3.8 ms", "39.5 ms ±   fast");
    expect(errorOf(() => parseHyperfineText(mangled, "hyperfine.txt")).details[0]?.path).toBe("hyperfine.txt: line 6");
    const twice = `${text}\n${text}`;
    const error = errorOf(() => parseHyperfineText(twice, "hyperfine.txt"));
    expect(error.details[0]).toEqual({
      path: `hyperfine.txt: line ${lines.length + 1}`,
      message: "Benchmark 1 where Benchmark 4 was expected: upload one hyperfine run at a time",
    });
  });

  it("refuses a text with no Benchmark line", () => {
    expect(errorOf(() => parseHyperfineText("Summary\n  'a' ran\n", "hyperfine.txt")).details[0]?.path).toBe(
      "hyperfine.txt: line 1",
    );
  });
});
