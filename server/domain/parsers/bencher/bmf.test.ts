import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../../input-error";
import { parseUpload } from "..";
import { parseBencherHistory } from "./history";

const example = readFileSync(path.join(import.meta.dirname, "examples", "bencher-docs-example.json"), "utf8");

function inputErrorOf(run: () => unknown): InputError {
  try {
    run();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error("expected an InputError");
}

describe("Bencher Metric Format (Bencher's documented example)", () => {
  it("is detected from its shape and read: latency ns as the mean, throughput as ops/s, other measures as metrics", () => {
    const { run, format } = parseUpload({ files: [{ name: null, text: example }] });
    expect(format).toBe("bencher-bmf");
    expect(run.tool).toBe("bencher");
    const byName = Object.fromEntries(run.endpoints.map((endpoint) => [endpoint.name, endpoint]));
    expect(byName.benchmark_name!.latency.meanMs).toBeCloseTo(88e-6, 15);
    expect(byName.benchmark_name!.throughput).toBe(5.55);
    expect(byName["/bin/sh -c ./my_build_script.sh"]!.metrics["build-time"]).toEqual({ value: 87, unit: "build-time", better: "lower" });
    expect(byName.my_binary!.metrics["file-size"]).toEqual({ value: 42, unit: "file-size", better: "lower" });
    expect(byName.my_binary!.latency.meanMs).toBeNull();
  });

  it("turns a throughput alone into a time per operation, so a falling throughput is a slowdown", () => {
    const { run } = parseUpload({ files: [{ name: null, text: JSON.stringify({ parse: { throughput: { value: 2000 } } }) }], format: "bmf" });
    expect(run.endpoints[0]!.latency.meanMs).toBe(0.5);
    expect(run.endpoints[0]!.throughput).toBe(2000);
  });

  it("refuses a measure without a number, naming the path", () => {
    const broken = JSON.stringify({ sort: { latency: { value: "slow" } } });
    const error = inputErrorOf(() => parseUpload({ files: [{ name: null, text: broken }], format: "bencher-bmf" }));
    expect(error.code).toBe("malformed");
    expect(error.details[0]!.path).toBe("sort.latency.value");
  });

  it("is not claimed by an object of another shape", () => {
    expect(() => parseUpload({ files: [{ name: null, text: JSON.stringify({ sort: { latency: 5 } }) }] })).toThrow(/format/i);
  });
});

describe("a Bencher history (NDJSON of BMF runs)", () => {
  const results = JSON.parse(example);
  const line = (commit: string, date: string, extra: object = {}) => JSON.stringify({ commit, date, results, ...extra });

  it("reads one run per line with its commit, date, branch and testbed", () => {
    const text = [line("a1b2c3d4e5", "2025-01-02T03:04:05Z", { testbed: "ubuntu-latest" }), "", line("b1b2c3d4e5", "2025-01-03T03:04:05+01:00", { branch: "main" })].join("\n");
    const entries = parseBencherHistory(text);
    expect(entries.map((entry) => [entry.path, entry.commit, entry.startedAt, entry.branch, entry.testbed])).toEqual([
      ["line 1", "a1b2c3d4e5", "2025-01-02T03:04:05.000Z", null, "ubuntu-latest"],
      ["line 3", "b1b2c3d4e5", "2025-01-03T02:04:05.000Z", "main", null],
    ]);
    expect(entries[0]!.run.endpoints).toHaveLength(3);
  });

  it("names the line and path at fault", () => {
    const bad = JSON.stringify({ commit: "a1b2c3d4e5", date: "2025-01-02T03:04:05Z", results: { sort: { latency: {} } } });
    const error = inputErrorOf(() => parseBencherHistory(`${line("a1b2c3d4e5", "2025-01-02T03:04:05Z")}\n${bad}`));
    expect(error.details[0]!.path).toBe("line 2: results.sort.latency.value");
    expect(inputErrorOf(() => parseBencherHistory('{"commit": "nope"}')).details[0]!.path).toBe("line 1: commit");
  });
});
