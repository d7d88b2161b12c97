import { describe, expect, it } from "vitest";
import { criterionFileKindOf, isCriterionJson, parseCriterionJson, parseCriterionSet } from "./criterion";
import { errorOf } from "../fixtures/input-error-of";
import { readFixture } from "../fixtures/read-fixture";
import { applyRunMetadata, parseUpload, type UploadedFile } from "..";
import type { DetectedFile } from "../uploaded-file";

// The example files were written here in Criterion.rs's documented layout (fixtures/documented/README.md).
const ROOT = "documented/criterion";
const BENCHMARKS = ["fib/iterative/20", "fib/recursive/20", "json/parse", "sort 1000"];
const KINDS = ["benchmark", "estimates", "sample"] as const;

type Json = Record<string, any>;
/** A benchmark's file as curl sends it with `filename=<path under target/criterion>`. */
const upload = (benchmark: string, kind: (typeof KINDS)[number]): UploadedFile => ({
  name: `${benchmark}/new/${kind}.json`,
  text: readFixture(`${ROOT}/${benchmark}/new/${kind}.json`),
});
const detected = (file: UploadedFile): DetectedFile => ({
  ...file,
  format: "criterion-json",
  document: JSON.parse(file.text) as unknown,
});
const json = (benchmark: string, kind: (typeof KINDS)[number]) =>
  JSON.parse(readFixture(`${ROOT}/${benchmark}/new/${kind}.json`)) as Json;
const ALL = BENCHMARKS.flatMap((benchmark) => KINDS.map((kind) => upload(benchmark, kind)));
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

describe("Criterion.rs files of target/criterion (documented layout)", () => {
  const run = parseUpload({ files: ALL }).run;

  it("makes one run of every benchmark sent, each named by its full_id", () => {
    expect(run.format).toBe("criterion-json");
    expect(run.tool).toBe("criterion");
    expect(run.endpoints.map((endpoint) => endpoint.name)).toEqual(BENCHMARKS.map((b) => json(b, "benchmark").full_id));
    expect(run.endpoints.map((endpoint) => endpoint.name)).toEqual([
      "fib/iterative/20",
      "fib/recursive/20",
      "json/parse",
      "sort 1000",
    ]);
    expect(run.environment.testbed).toBeNull();
    expect(run.aggregate.requests).toBe(40);
  });

  it.each(BENCHMARKS)("%s: each sample's time per iteration is times[i] / iters[i] ns, in ms", (benchmark) => {
    const sample = json(benchmark, "sample");
    const estimates = json(benchmark, "estimates");
    const perIterationNs = (sample.times as number[]).map((time, index) => time / sample.iters[index]);
    const result = run.endpoints.find((endpoint) => endpoint.name === json(benchmark, "benchmark").full_id)!;
    expect(result.requests).toBe(sample.iters.length);
    expect(result.latency.meanMs).toBeCloseTo(mean(perIterationNs) / 1e6, 15);
    // Criterion's own mean is of the same per-iteration times.
    expect(result.latency.meanMs! * 1e6).toBeCloseTo(estimates.mean.point_estimate, 6);
    expect(result.latency.minMs).toBeCloseTo(Math.min(...perIterationNs) / 1e6, 15);
    expect(result.latency.maxMs).toBeCloseTo(Math.max(...perIterationNs) / 1e6, 15);
    expect(result.throughput).toBeCloseTo(1e9 / mean(perIterationNs), 3);
    expect(result.histogram?.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(sample.iters.length);
    if (estimates.slope)
      expect(result.metrics.slope).toEqual({ value: estimates.slope.point_estimate, unit: "ns/iter", better: "lower" });
    else expect(result.metrics.slope).toBeUndefined();
  });

  it("turns a declared throughput into bytes per second of Criterion's typical time", () => {
    const parse = run.endpoints.find((endpoint) => endpoint.name === "json/parse")!;
    const { throughput } = json("json/parse", "benchmark");
    const estimates = json("json/parse", "estimates");
    expect(estimates.slope).toBeNull(); // flat sampling: the typical time is the mean
    expect(parse.metrics["B/s"]).toEqual({
      value: (throughput.Bytes * 1e9) / estimates.mean.point_estimate,
      unit: "B/s",
      better: "higher",
    });
    const elements = detected(upload("json/parse", "benchmark"));
    (elements.document as Json).throughput = { Elements: 100 };
    const counted = parseCriterionSet([
      elements,
      detected(upload("json/parse", "estimates")),
      detected(upload("json/parse", "sample")),
    ]);
    expect(counted.endpoints[0]!.metrics["elem/s"]?.value).toBeCloseTo((100 * 1e9) / estimates.mean.point_estimate, 6);
  });

  it("reads a folder's three files without folders in their names as one benchmark", () => {
    const files = KINDS.map((kind) => ({ ...upload("fib/recursive/20", kind), name: `${kind}.json` }));
    const single = parseUpload({ files }).run;
    expect(single.endpoints.map((endpoint) => endpoint.name)).toEqual(["fib/recursive/20"]);
    expect(single.endpoints[0]).toEqual(run.endpoints[1]);
  });

  it("without sample.json keeps the estimates' mean, median and deviation, and no count", () => {
    const files = [upload("sort 1000", "benchmark"), upload("sort 1000", "estimates")];
    const estimates = json("sort 1000", "estimates");
    const result = parseUpload({ files }).run.endpoints[0]!;
    expect(result.requests).toBeNull();
    expect(result.histogram).toBeNull();
    expect(result.latency.meanMs).toBeCloseTo(estimates.mean.point_estimate / 1e6, 15);
    expect(result.latency.percentiles).toEqual({ "50": estimates.median.point_estimate / 1e6 });
    expect(result.latency.stdDevMs).toBeCloseTo(estimates.std_dev.point_estimate / 1e6, 15);
  });

  it("takes a single estimates.json as an unnamed benchmark that ?endpoint= names", () => {
    const text = readFixture(`${ROOT}/fib/iterative/20/new/estimates.json`);
    const parsed = parseUpload({ files: [{ name: null, text }] });
    expect(parsed.format).toBe("criterion-json");
    expect(parsed.run.endpoints).toEqual([]);
    expect(parsed.run.aggregate.latency.meanMs).toBeCloseTo(
      json("fib/iterative/20", "estimates").mean.point_estimate / 1e6,
      15,
    );
    expect(parsed.run.notes[0]).toContain("?endpoint=");
    const named = applyRunMetadata(parsed.run, { endpoint: "fib/iterative/20" });
    expect(named.endpoints.map((endpoint) => [endpoint.name, endpoint.protocol])).toEqual([
      ["fib/iterative/20", "benchmark"],
    ]);
    expect(parseCriterionJson(JSON.parse(text)).aggregate).toEqual(parsed.run.aggregate);
  });

  it("recognises each of its files by their keys, and nothing else", () => {
    for (const benchmark of BENCHMARKS)
      for (const kind of KINDS) expect(criterionFileKindOf(json(benchmark, kind))).toBe(kind);
    expect(isCriterionJson({ mean: 1, median: 2 })).toBe(false);
    // change/estimates.json (Criterion's own comparison) has only mean and median.
    const change = json("fib/iterative/20", "estimates");
    expect(criterionFileKindOf({ mean: change.mean, median: change.median })).toBeNull();
  });
});

describe("Criterion hostile input", () => {
  it("refuses a lone benchmark.json, which measures nothing", () => {
    const error = errorOf(() =>
      parseUpload({ files: [{ name: null, text: readFixture(`${ROOT}/json/parse/new/benchmark.json`) }] }),
    );
    expect(error.code).toBe("malformed");
    expect(error.message).toContain("json/parse");
  });

  it("refuses files of two benchmarks that nothing tells apart, and two files of one kind in one folder", () => {
    const unnamed = errorOf(() =>
      parseCriterionSet([
        detected(upload("fib/iterative/20", "estimates")),
        detected(upload("fib/recursive/20", "benchmark")),
        detected(upload("fib/recursive/20", "estimates")),
      ]),
    );
    expect(unnamed.details.map((detail) => detail.path)).toEqual(["fib/iterative/20/new/estimates.json"]);
    const twice = errorOf(() =>
      parseCriterionSet([
        { ...detected(upload("fib/iterative/20", "estimates")), name: "estimates.json" },
        { ...detected(upload("fib/recursive/20", "estimates")), name: "estimates (1).json" },
      ]),
    );
    expect(twice.message).toContain("Two Criterion estimates.json");
  });

  it("refuses an estimates.json paired with another benchmark's samples", () => {
    const error = errorOf(() =>
      parseCriterionSet([
        detected(upload("fib/iterative/20", "benchmark")),
        detected(upload("fib/iterative/20", "estimates")),
        { ...detected(upload("fib/recursive/20", "sample")), name: "fib/iterative/20/new/sample.json" },
      ]),
    );
    expect(error.details[0]?.path).toBe("fib/iterative/20/new/estimates.json: mean.point_estimate");
  });

  it("names the file and JSON path of a wrong type, unequal arrays, an empty sample or a zero iteration count", () => {
    const withDocument = (kind: (typeof KINDS)[number], change: (document: Json) => void) => {
      const files = KINDS.map((k) => detected(upload("fib/iterative/20", k)));
      change(files[KINDS.indexOf(kind)]!.document as Json);
      return errorOf(() => parseCriterionSet(files)).details[0]?.path;
    };
    expect(withDocument("estimates", (d) => (d.mean.point_estimate = "12.1"))).toBe(
      "fib/iterative/20/new/estimates.json: mean.point_estimate",
    );
    expect(withDocument("sample", (d) => d.times.pop())).toBe("fib/iterative/20/new/sample.json: times");
    expect(withDocument("sample", (d) => ((d.times = []), (d.iters = [])))).toBe(
      "fib/iterative/20/new/sample.json: iters",
    );
    expect(withDocument("sample", (d) => (d.iters[2] = 0))).toBe("fib/iterative/20/new/sample.json: iters[2]");
    expect(withDocument("benchmark", (d) => (d.full_id = 7))).toBe("fib/iterative/20/new/benchmark.json: full_id");
  });

  it("refuses a truncated file with its name, line and column", () => {
    const files = [...ALL];
    files[1] = { ...files[1]!, text: files[1]!.text.slice(0, 40) };
    const error = errorOf(() => parseUpload({ files }));
    expect(error.details[0]?.path).toMatch(/^fib\/iterative\/20\/new\/estimates\.json: line 1, column \d+$/);
  });
});
