import { describe, expect, it } from "vitest";
import { errorOf } from "../fixtures/input-error-of";
import { readFixture } from "../fixtures/read-fixture";
import { parseUpload } from "..";
import { isJmhJson, parseJmhJson } from "./jmh";

// The example file was written here in JMH's documented layout (fixtures/documented/README.md).
const PATH = "documented/jmh/jmh-result.json";
const TEXT = readFixture(PATH);

type Json = Record<string, any>;
const fresh = (): Json[] => JSON.parse(TEXT) as Json[];
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const byName = (run: ReturnType<typeof parseJmhJson>, name: string) => {
  const found = run.endpoints.find((endpoint) => endpoint.name === name);
  if (!found) throw new Error(`no benchmark ${name} in ${run.endpoints.map((e) => e.name).join(", ")}`);
  return found;
};

describe("JMH -rf json (documented layout)", () => {
  const results = fresh();
  const run = parseJmhJson(results);

  it("names each benchmark by its method and params, and reads the run's JVM", () => {
    expect(run.format).toBe("jmh-json");
    expect(run.tool).toBe("jmh");
    expect(run.endpoints.map((endpoint) => endpoint.name)).toEqual([
      "com.acme.bench.SortBench.sort:size=1000",
      "com.acme.bench.SortBench.sort:size=10000",
      "com.acme.bench.ParseBench.parse",
      "com.acme.bench.ParseBench.parseLatency",
      "com.acme.bench.StartupBench.coldStart",
    ]);
    expect(run.endpoints.every((endpoint) => endpoint.protocol === "benchmark")).toBe(true);
    expect(run.toolVersion).toBe(results[0]!.jmhVersion);
    expect(run.environment.attributes).toEqual({
      jdkVersion: results[0]!.jdkVersion,
      vmName: results[0]!.vmName,
      vmVersion: results[0]!.vmVersion,
    });
    expect(run.environment.testbed).toBeNull();
    expect(run.environment.config).toEqual({});
    expect(run.aggregate.requests).toBe(run.endpoints.reduce((sum, endpoint) => sum + (endpoint.requests ?? 0), 0));
  });

  it("avgt: every iteration of every fork is a sample, us/op converted to ms", () => {
    const file = results[0]!;
    const rawUs = (file.primaryMetric.rawData as number[][]).flat();
    const sort = byName(run, "com.acme.bench.SortBench.sort:size=1000");
    expect(sort.requests).toBe(10);
    expect(sort.latency.meanMs).toBeCloseTo(mean(rawUs) / 1000, 15);
    // JMH's score is the mean of the same iterations.
    expect(sort.latency.meanMs).toBeCloseTo(file.primaryMetric.score / 1000, 12);
    expect(sort.latency.minMs).toBeCloseTo(Math.min(...rawUs) / 1000, 15);
    expect(sort.latency.maxMs).toBeCloseTo(file.primaryMetric.scorePercentiles["100.0"] / 1000, 15);
    expect(sort.throughput).toBeCloseTo(1000 / sort.latency.meanMs!, 6);
    expect(sort.histogram?.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(10);
  });

  it("keeps the GC profiler's figures: gc.alloc.rate.norm as B/op, the rest under their names", () => {
    const secondary = results[0]!.secondaryMetrics as Json;
    const sort = byName(run, "com.acme.bench.SortBench.sort:size=1000");
    expect(sort.metrics).toEqual({
      "B/op": { value: secondary["gc.alloc.rate.norm"].score, unit: "B/op", better: "lower" },
      "gc.alloc.rate": { value: secondary["gc.alloc.rate"].score, unit: "MB/sec", better: null },
      "gc.count": { value: secondary["gc.count"].score, unit: "counts", better: null },
      "gc.time": { value: secondary["gc.time"].score, unit: "ms", better: "lower" },
    });
  });

  it("thrpt: ops/s is the score; each iteration's time per op is the reciprocal of its throughput", () => {
    const file = results[2]!;
    expect(file.mode).toBe("thrpt");
    const opsPerMs = (file.primaryMetric.rawData as number[][]).flat();
    const parse = byName(run, "com.acme.bench.ParseBench.parse");
    expect(parse.requests).toBe(opsPerMs.length);
    // ops/ms → 1/t ms per operation.
    expect(parse.latency.meanMs).toBeCloseTo(mean(opsPerMs.map((t) => 1 / t)), 15);
    expect(parse.latency.minMs).toBeCloseTo(1 / Math.max(...opsPerMs), 15);
    expect(parse.latency.maxMs).toBeCloseTo(1 / Math.min(...opsPerMs), 15);
    expect(parse.throughput).toBeCloseTo(file.primaryMetric.score * 1000, 6);
    expect(run.notes).toEqual([]);
  });

  it("sample: JMH's histogram of single operations gives the count, the histogram and the deviation; its percentiles are kept", () => {
    const file = results[3]!;
    expect(file.mode).toBe("sample");
    const pairs = (file.primaryMetric.rawDataHistogram as [number, number][][][]).flat(2);
    const samples = pairs.reduce((sum, [, count]) => sum + count, 0);
    const sampled = byName(run, "com.acme.bench.ParseBench.parseLatency");
    const percentiles = file.primaryMetric.scorePercentiles as Record<string, number>;
    expect(sampled.requests).toBe(samples);
    expect(sampled.latency.meanMs).toBeCloseTo(file.primaryMetric.score / 1000, 15);
    expect(sampled.latency.minMs).toBeCloseTo(percentiles["0.0"]! / 1000, 15);
    expect(sampled.latency.maxMs).toBeCloseTo(percentiles["100.0"]! / 1000, 15);
    expect(sampled.latency.percentiles["50"]).toBeCloseTo(percentiles["50.0"]! / 1000, 15);
    expect(sampled.latency.percentiles["99.9"]).toBeCloseTo(percentiles["99.9"]! / 1000, 15);
    expect(Object.keys(sampled.latency.percentiles)).toEqual([
      "50",
      "90",
      "95",
      "99",
      "99.9",
      "99.99",
      "99.999",
      "99.9999",
    ]);
    const meanUs = pairs.reduce((sum, [value, count]) => sum + value * count, 0) / samples;
    const sdUs = Math.sqrt(
      pairs.reduce((sum, [value, count]) => sum + (value - meanUs) ** 2 * count, 0) / (samples - 1),
    );
    expect(sampled.latency.stdDevMs).toBeCloseTo(sdUs / 1000, 15);
    expect(sampled.histogram?.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(samples);
  });

  it("ss: one single-shot time per fork", () => {
    const file = results[4]!;
    const shotsMs = (file.primaryMetric.rawData as number[][]).flat();
    const startup = byName(run, "com.acme.bench.StartupBench.coldStart");
    expect(startup.requests).toBe(file.forks);
    expect(startup.latency.meanMs).toBeCloseTo(mean(shotsMs), 12);
  });

  it("converts every JMH time unit once, and a throughput of any unit by its reciprocal", () => {
    const rawUs = (results[0]!.primaryMetric.rawData as number[][]).flat();
    for (const [unit, ms] of [
      ["ns", 1e-6],
      ["us", 1e-3],
      ["ms", 1],
      ["s", 1000],
      ["min", 60_000],
    ] as const) {
      const document = fresh().slice(0, 1);
      document[0]!.primaryMetric.scoreUnit = `${unit}/op`;
      expect(parseJmhJson(document).endpoints[0]!.latency.meanMs).toBeCloseTo(mean(rawUs) * ms, 9);
      const throughput = fresh().slice(2, 3);
      throughput[0]!.primaryMetric.scoreUnit = `ops/${unit}`;
      const opsPerUnit = (throughput[0]!.primaryMetric.rawData as number[][]).flat();
      const parsed = parseJmhJson(throughput).endpoints[0]!;
      expect(parsed.latency.meanMs).toBeCloseTo(mean(opsPerUnit.map((t) => ms / t)), 9);
      expect(parsed.throughput).toBeCloseTo((throughput[0]!.primaryMetric.score * 1000) / ms, 3);
    }
  });

  it("without raw data (-Djmh.json.rawData=false) keeps the score, the extremes and a time's percentiles, and no count", () => {
    const document = fresh();
    for (const result of document) {
      result.primaryMetric.rawData = [];
      delete result.primaryMetric.rawDataHistogram;
    }
    const summarized = parseJmhJson(document);
    const sort = summarized.endpoints[0]!;
    const percentiles = document[0]!.primaryMetric.scorePercentiles as Record<string, number>;
    expect(sort.requests).toBeNull();
    expect(sort.histogram).toBeNull();
    expect(sort.latency.meanMs).toBeCloseTo(document[0]!.primaryMetric.score / 1000, 15);
    expect(sort.latency.percentiles["90"]).toBeCloseTo(percentiles["90.0"]! / 1000, 15);
    const parse = summarized.endpoints[2]!;
    const throughputPercentiles = document[2]!.primaryMetric.scorePercentiles as Record<string, number>;
    expect(parse.latency.meanMs).toBeCloseTo(1 / document[2]!.primaryMetric.score, 15);
    expect(parse.latency.minMs).toBeCloseTo(1 / throughputPercentiles["100.0"]!, 15);
    expect(parse.latency.maxMs).toBeCloseTo(1 / throughputPercentiles["0.0"]!, 15);
    expect(parse.latency.percentiles).toEqual({});
    expect(summarized.aggregate.requests).toBeNull();
  });

  it("names one method run in several modes (-bm all) by its mode, and notes a multi-threaded throughput", () => {
    const document = fresh().slice(0, 1);
    const asThroughput = fresh().slice(2, 3)[0]!;
    document.push({ ...document[0], mode: "thrpt", threads: 4, primaryMetric: asThroughput.primaryMetric });
    const both = parseJmhJson(document);
    expect(both.endpoints.map((endpoint) => endpoint.name)).toEqual([
      "com.acme.bench.SortBench.sort:size=1000 (avgt)",
      "com.acme.bench.SortBench.sort:size=1000 (thrpt)",
    ]);
    expect(both.notes[0]).toContain("4");
    expect(both.notes[0]).toContain("all threads together");
  });

  it("is detected by its markers, and uploads as jmh-json", () => {
    expect(isJmhJson(fresh())).toBe(true);
    expect(isJmhJson([])).toBe(false);
    expect(isJmhJson([{ benchmark: "x", mode: "avgt" }])).toBe(false);
    expect(parseUpload({ files: [{ name: null, text: TEXT }] }).format).toBe("jmh-json");
  });
});

describe("JMH hostile input", () => {
  it("refuses a truncated file with the line and column", () => {
    const error = errorOf(() => parseUpload({ files: [{ name: null, text: TEXT.slice(0, TEXT.length / 2) }] }));
    expect(error.code).toBe("malformed");
    expect(error.details[0]?.path).toMatch(/^line \d+, column \d+$/);
  });

  it("names the JSON path of a wrong type, an unknown mode or unit, and an impossible value", () => {
    const wrongType = fresh();
    wrongType[1]!.primaryMetric.score = { value: 3 };
    expect(errorOf(() => parseJmhJson(wrongType)).details[0]?.path).toBe("[1].primaryMetric.score");

    const mode = fresh();
    mode[0]!.mode = "all";
    expect(errorOf(() => parseJmhJson(mode)).details[0]?.path).toBe("[0].mode");

    const unit = fresh();
    unit[0]!.primaryMetric.scoreUnit = "B/entity";
    const unitError = errorOf(() => parseJmhJson(unit));
    expect(unitError.details[0]?.path).toBe("[0].primaryMetric.scoreUnit");
    expect(unitError.message).toContain("B/entity");

    const zero = fresh();
    zero[2]!.primaryMetric.rawData[1][3] = 0;
    expect(errorOf(() => parseJmhJson(zero)).details[0]?.path).toBe("[2].primaryMetric.rawData[1][3]");

    const negative = fresh();
    negative[1]!.primaryMetric.rawData[0][2] = -4.5;
    expect(errorOf(() => parseJmhJson(negative)).details[0]?.path).toBe("[1].primaryMetric.rawData[0][2]");

    const notANumber = fresh();
    notANumber[0]!.primaryMetric.rawData[0][0] = "NaN";
    expect(errorOf(() => parseJmhJson(notANumber)).details[0]?.path).toBe("[0].primaryMetric.rawData[0][0]");

    const negativeSample = fresh();
    negativeSample[3]!.primaryMetric.rawDataHistogram[0][0][0] = [-1, 3];
    expect(errorOf(() => parseJmhJson(negativeSample)).details[0]?.path).toBe(
      "[3].primaryMetric.rawDataHistogram[0][0][0][0]",
    );
  });

  it("refuses an empty array, an empty result and a score-less result without raw data", () => {
    const empty = errorOf(() => parseJmhJson([]));
    expect(empty.details[0]?.path).toBe("(file)");
    expect(errorOf(() => parseJmhJson([{}])).details.map((detail) => detail.path)).toContain("[0].benchmark");
    const nothing = fresh().slice(0, 1);
    nothing[0]!.primaryMetric.score = "NaN";
    nothing[0]!.primaryMetric.rawData = [[], []];
    expect(errorOf(() => parseJmhJson(nothing)).details[0]?.path).toBe("[0].primaryMetric.score");
  });

  it("refuses a sample histogram of more samples than a run holds, without building it", () => {
    const huge = fresh().slice(3, 4);
    huge[0]!.primaryMetric.rawDataHistogram = [
      [
        [
          [1.2, 2_000_000_000],
          [1.3, 2_000_000_000],
        ],
      ],
    ];
    expect(errorOf(() => parseJmhJson(huge)).details[0]?.path).toBe("[0].primaryMetric.rawDataHistogram");
  });
});
