import { describe, expect, it } from "vitest";
import { BENCHMARK_PROTOCOL, errorRateOf } from "../../run";
import { detectedFormats } from "../fixtures/detected-formats";
import { allFixtureFiles, expectedFormatOf } from "../fixtures/fixture-uploads";
import { errorOf } from "../fixtures/input-error-of";
import { readFixture, readFixtureJson } from "../fixtures/read-fixture";
import { hyperfineNames, parseHyperfineCsv, parseHyperfineJson } from "./hyperfine";
import { parseUpload } from "..";

const FOLDER = "micro/hyperfine/baseline";
/** The two invocations of the fixtures README: three commands, and a parameter scan of one. */
const RUNS = ["hyperfine", "hyperfine-scan"] as const;

interface JsonResult {
  command: string;
  mean: number;
  stddev: number;
  median: number;
  user: number;
  system: number;
  min: number;
  max: number;
  times: number[];
  exit_codes: number[];
  parameters?: Record<string, string>;
}

const jsonOf = (run: string) => readFixtureJson(`${FOLDER}/${run}.json`) as { results: JsonResult[] };
const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

describe.each(RUNS)("hyperfine --export-json %s.json", (name) => {
  const { results } = jsonOf(name);
  const run = parseHyperfineJson(jsonOf(name));

  it("is a benchmark run with no testbed, version or load config (the file states none)", () => {
    expect(run.format).toBe("hyperfine-json");
    expect(run.tool).toBe("hyperfine");
    expect(run.toolVersion).toBeNull();
    expect(run.environment.testbed).toBeNull();
    expect(run.environment.config).toEqual({});
    expect(run.aggregate.protocol).toBe(BENCHMARK_PROTOCOL);
    expect(run.endpoints.map((endpoint) => endpoint.protocol)).toEqual(results.map(() => BENCHMARK_PROTOCOL));
  });

  it("names each benchmark by its command as run, with no group", () => {
    expect(run.endpoints.map((endpoint) => endpoint.name)).toEqual(results.map((result) => result.command));
  });

  it("takes every timed run as a sample: the samples' mean, median, min, max and sd are the file's", () => {
    results.forEach((result, index) => {
      const endpoint = run.endpoints[index]!;
      // The file's own consistency first: its mean is the mean of its times.
      expect(mean(result.times)).toBeCloseTo(result.mean, 12);
      expect(endpoint.requests).toBe(result.times.length);
      expect(endpoint.latency.meanMs).toBeCloseTo(result.mean * 1000, 9);
      expect(endpoint.latency.percentiles["50"]).toBeCloseTo(result.median * 1000, 9);
      expect(endpoint.latency.minMs).toBeCloseTo(result.min * 1000, 9);
      expect(endpoint.latency.maxMs).toBeCloseTo(result.max * 1000, 9);
      expect(endpoint.latency.stdDevMs).toBeCloseTo(result.stddev * 1000, 9);
      expect(endpoint.histogram?.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(result.times.length);
      expect(endpoint.throughput).toBeCloseTo(1000 / (result.mean * 1000), 9);
    });
  });

  it("counts non-zero exit codes as failures and keeps user and system CPU time in ms, lower is better", () => {
    results.forEach((result, index) => {
      const endpoint = run.endpoints[index]!;
      expect(endpoint.failures).toBe(result.exit_codes.filter((code) => code !== 0).length);
      expect(endpoint.metrics).toEqual({
        user: { value: expect.closeTo(result.user * 1000, 9) as number, unit: "ms", better: "lower" },
        system: { value: expect.closeTo(result.system * 1000, 9) as number, unit: "ms", better: "lower" },
      });
    });
  });
});

describe("hyperfine --export-json: the parameter scan and the file's own values", () => {
  it("keeps the parameters in the full name (the name stays the command as run)", () => {
    const run = parseHyperfineJson(jsonOf("hyperfine-scan"));
    expect(run.endpoints.map((endpoint) => [endpoint.name, endpoint.fullName])).toEqual([
      ["gzip -c -1 data.txt", "gzip -c -1 data.txt [level = 1]"],
      ["gzip -c -5 data.txt", "gzip -c -5 data.txt [level = 5]"],
      ["gzip -c -9 data.txt", "gzip -c -9 data.txt [level = 9]"],
    ]);
    expect(parseHyperfineJson(jsonOf("hyperfine")).endpoints.map((endpoint) => endpoint.fullName)).toEqual([
      null,
      null,
      null,
    ]);
  });

  it("matches numbers quoted from hyperfine.json", () => {
    const gzip = parseHyperfineJson(jsonOf("hyperfine")).endpoints[0]!;
    expect(gzip.name).toBe("gzip -c -6 data.txt");
    expect(gzip.latency.minMs).toBeCloseTo(133.911425, 9);
    expect(gzip.latency.maxMs).toBeCloseTo(157.09342, 9);
    expect(gzip.metrics.user?.value).toBeCloseTo(137.1763, 9);
  });

  it("counts a run ended by a signal (exit code null) and a non-zero exit as failures", () => {
    const document = jsonOf("hyperfine");
    document.results[1]!.exit_codes[3] = 1;
    (document.results[1]!.exit_codes as (number | null)[])[7] = null;
    const sort = parseHyperfineJson(document).endpoints[1]!;
    expect(sort.failures).toBe(2);
    expect(errorRateOf(sort)).toBeCloseTo(2 / 20, 12);
  });

  it("falls back to the summary when a result has no times, with the run count from its exit codes", () => {
    const document = jsonOf("hyperfine") as { results: Partial<JsonResult>[] };
    const [first] = document.results;
    delete first!.times;
    const gzip = parseHyperfineJson(document).endpoints[0]!;
    const result = jsonOf("hyperfine").results[0]!;
    expect(gzip.requests).toBe(result.exit_codes.length);
    expect(gzip.histogram).toBeNull();
    expect(gzip.latency).toEqual({
      meanMs: result.mean * 1000,
      minMs: result.min * 1000,
      maxMs: result.max * 1000,
      stdDevMs: result.stddev * 1000,
      percentiles: { "50": result.median * 1000 },
    });
  });
});

describe("hyperfine --export-json: bad files", () => {
  const text = readFixture(`${FOLDER}/hyperfine.json`);
  const upload = (body: string) => parseUpload({ files: [{ name: "hyperfine.json", text: body }] });

  it("refuses a truncated file with the line and column where it stops", () => {
    const error = errorOf(() => upload(text.slice(0, 1500)));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toMatch(/^hyperfine\.json: line \d+, column \d+$/);
  });

  it("names the JSON path of a string where a number belongs, and of a negative time", () => {
    const document = jsonOf("hyperfine") as unknown as { results: Record<string, unknown>[] };
    document.results[2]!.mean = "fast";
    expect(errorOf(() => upload(JSON.stringify(document))).details[0]?.path).toBe("results[2].mean");
    const negative = jsonOf("hyperfine");
    negative.results[0]!.times[4] = -0.1;
    expect(errorOf(() => upload(JSON.stringify(negative))).details[0]?.path).toBe("results[0].times[4]");
  });

  it("refuses exit codes that do not match the times one for one", () => {
    const document = jsonOf("hyperfine");
    document.results[1]!.exit_codes.pop();
    const error = errorOf(() => upload(JSON.stringify(document)));
    expect(error.details).toEqual([
      { path: "results[1].exit_codes", message: expect.stringContaining("19 exit codes for 20 times") as string },
    ]);
  });

  it("refuses a file with no results, and one command twice", () => {
    expect(errorOf(() => parseHyperfineJson({ results: [] })).message).toContain("no benchmark results");
    const document = jsonOf("hyperfine");
    document.results[2]!.command = document.results[0]!.command;
    expect(errorOf(() => upload(JSON.stringify(document))).message).toContain('"gzip -c -6 data.txt" appears twice');
  });
});

describe.each(RUNS)("hyperfine --export-csv %s.csv", (name) => {
  const text = readFixture(`${FOLDER}/${name}.csv`);
  const run = parseHyperfineCsv(text, `${name}.csv`);
  const { results } = jsonOf(name);
  const rows = text
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => line.split(","));

  it("names the benchmarks as the JSON of the same invocation does, full names included", () => {
    const json = parseHyperfineJson(jsonOf(name));
    expect(run.endpoints.map((endpoint) => [endpoint.name, endpoint.fullName])).toEqual(
      json.endpoints.map((endpoint) => [endpoint.name, endpoint.fullName]),
    );
  });

  it("keeps the file's summary (the JSON's numbers) with no samples, run count or failures", () => {
    run.endpoints.forEach((endpoint, index) => {
      const [, csvMean, stddev, median, user, system, min, max] = rows[index]!.map(Number);
      const result = results[index]!;
      expect(csvMean).toBe(result.mean);
      expect(endpoint.latency.meanMs).toBeCloseTo(result.mean * 1000, 9);
      expect(endpoint.latency.stdDevMs).toBeCloseTo(stddev! * 1000, 9);
      expect(endpoint.latency.percentiles).toEqual({ "50": expect.closeTo(median! * 1000, 9) as number });
      expect(endpoint.latency.minMs).toBeCloseTo(min! * 1000, 9);
      expect(endpoint.latency.maxMs).toBeCloseTo(max! * 1000, 9);
      expect(endpoint.metrics.user?.value).toBeCloseTo(user! * 1000, 9);
      expect(endpoint.metrics.system?.value).toBeCloseTo(system! * 1000, 9);
      expect([endpoint.requests, endpoint.failures, endpoint.histogram]).toEqual([null, null, null]);
    });
  });
});

describe("hyperfine --export-csv: quirks and bad files", () => {
  const text = readFixture(`${FOLDER}/hyperfine.csv`);
  const lines = text.split("\n");

  it("reads a single run's stddev of 0 (hyperfine's unwrap_or(0.0)) as no spread known", () => {
    const single = [lines[0], "sleep 0.1,0.102,0,0.102,0.001,0.001,0.102,0.102"].join("\n");
    expect(parseHyperfineCsv(single, "single.csv").endpoints[0]?.latency.stdDevMs).toBeNull();
  });

  it("refuses a row with a missing column, naming its line", () => {
    const broken = [...lines.slice(0, 2), lines[2]!.split(",").slice(0, -1).join(","), ...lines.slice(3)].join("\n");
    const error = errorOf(() => parseHyperfineCsv(broken, "hyperfine.csv"));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toBe("hyperfine.csv: line 3");
  });

  it("refuses a cell that is not seconds, naming its line and column", () => {
    const broken = text.replace("0.03951599735", "fast");
    expect(errorOf(() => parseHyperfineCsv(broken, "hyperfine.csv")).details[0]?.path).toBe(
      "hyperfine.csv: line 3: mean",
    );
  });

  it("refuses a header with no rows, and a header without hyperfine's columns", () => {
    expect(errorOf(() => parseHyperfineCsv(`${lines[0]}\n`, "hyperfine.csv")).details[0]?.path).toBe(
      "hyperfine.csv: line 2",
    );
    const renamed = text.replace("median", "p50");
    expect(errorOf(() => parseHyperfineCsv(renamed, "hyperfine.csv")).details[0]).toEqual({
      path: "hyperfine.csv: line 1",
      message: 'missing column "median"',
    });
  });
});

describe("hyperfineNames: the name hyperfine prints, from the command and its parameters", () => {
  const named = (results: [string, Record<string, string>][]) =>
    hyperfineNames(results.map(([command, parameters]) => ({ command, parameters: Object.entries(parameters) })));

  it("adds the parameters a command did not use, as `-L n 1,2 'sleep 0.1'` prints them", () => {
    expect(
      named([
        ["sleep 0.1", { n: "1" }],
        ["sleep 0.1", { n: "2" }],
      ]),
    ).toEqual(["sleep 0.1 (n = 1)", "sleep 0.1 (n = 2)"]);
  });

  it("tells used from unused per command when several commands share the parameters", () => {
    // hyperfine -L n 1,2 'sleep 0.{n}' 'echo hi' -L v a,b
    expect(
      named([
        ["sleep 0.1", { n: "1", v: "a" }],
        ["sleep 0.2", { n: "2", v: "a" }],
        ["sleep 0.1", { n: "1", v: "b" }],
        ["sleep 0.2", { n: "2", v: "b" }],
        ["echo hi", { n: "1", v: "a" }],
        ["echo hi", { n: "2", v: "a" }],
        ["echo hi", { n: "1", v: "b" }],
        ["echo hi", { n: "2", v: "b" }],
      ]),
    ).toEqual([
      "sleep 0.1 (v = a)",
      "sleep 0.2 (v = a)",
      "sleep 0.1 (v = b)",
      "sleep 0.2 (v = b)",
      "echo hi (n = 1, v = a)",
      "echo hi (n = 2, v = a)",
      "echo hi (n = 1, v = b)",
      "echo hi (n = 2, v = b)",
    ]);
  });

  it("with a single value, takes a value missing from the command as unused, and one in it as used", () => {
    expect(named([["sleep 0.5", { n: "3" }]])).toEqual(["sleep 0.5 (n = 3)"]);
    // The documented limit: `-L n 1 'sleep 0.1'` prints "sleep 0.1 (n = 1)", but "1" is in the command.
    expect(named([["sleep 0.1", { n: "1" }]])).toEqual(["sleep 0.1"]);
  });

  it("leaves the fixture's scan as its commands (the level is in each)", () => {
    const { results } = jsonOf("hyperfine-scan");
    expect(named(results.map((result) => [result.command, result.parameters ?? {}]))).toEqual(
      results.map((result) => result.command),
    );
  });
});

describe("hyperfine detection", () => {
  it("claims exactly the hyperfine fixtures, each as its own format, and no other tool's file", () => {
    const hyperfineFormats = ["hyperfine-json", "hyperfine-csv", "hyperfine-markdown", "hyperfine-text"];
    for (const path of allFixtureFiles()) {
      const formats = detectedFormats(path, [FOLDER]).filter((format) => hyperfineFormats.includes(format));
      const expected = path.startsWith(`${FOLDER}/`) ? [expectedFormatOf(path)] : [];
      expect({ path, formats }).toEqual({ path, formats: expected });
    }
  });
});
