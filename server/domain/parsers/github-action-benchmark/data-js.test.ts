import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../../input-error";
import { parseUpload } from "..";
import { parseGithubActionBenchmarkData, stripDataJsPrefix } from "./data-js";

const example = (name: string) => readFileSync(path.join(import.meta.dirname, "examples", name), "utf8");

function inputErrorOf(run: () => unknown): InputError {
  try {
    run();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error("expected an InputError");
}

describe("github-action-benchmark's data.js (real gh-pages files)", () => {
  it("reads go's ns/op as each benchmark's mean time per operation, with the entry's commit and date", () => {
    const history = parseGithubActionBenchmarkData(example("go-conventionalcommit.data.js"));
    expect(history.repoUrl).toBe("https://github.com/romdo/go-conventionalcommit");
    expect(history.entries).toHaveLength(1);
    const [entry] = history.entries;
    expect(entry!.suite).toBe("Benchmark");
    expect(entry!.path).toBe('entries["Benchmark"][0]');
    expect(entry!.commit.id).toBe("e8ca0094405c69ca11e814cf4c3f6fa4e29fd964");
    expect(entry!.commit.url).toBe("https://github.com/romdo/go-conventionalcommit/commit/e8ca0094405c69ca11e814cf4c3f6fa4e29fd964");
    expect(entry!.startedAt).toBe(new Date(1628539841336).toISOString());
    expect(entry!.tool).toBe("go");
    expect(entry!.run.format).toBe("custom-smaller-is-better");
    expect(entry!.run.tool).toBe("github-action-benchmark");
    expect(entry!.run.endpoints).toHaveLength(39);
    const first = entry!.run.endpoints[0]!;
    expect(first.name).toBe("BenchmarkLines_Bytes__single_line");
    expect(first.latency.meanMs).toBeCloseTo(34.5e-6, 15);
    expect(first.throughput).toBeCloseTo(1000 / 34.5e-6, 3);
    const last = entry!.run.endpoints.at(-1)!;
    expect(last.name).toBe("BenchmarkRawMessage_String__subject_and_long_body");
    expect(last.latency.meanMs).toBeCloseTo(693e-6, 15);
  });

  it("reads pytest's iter/sec as ops/s (bigger is better) and 1000 / ops/s as the time per operation", () => {
    const [entry] = parseGithubActionBenchmarkData(example("cookiecutter-pytest.data.js")).entries;
    expect(entry!.tool).toBe("pytest");
    expect(entry!.run.format).toBe("custom-bigger-is-better");
    expect(entry!.commit.url).toBeNull();
    const bench = entry!.run.endpoints.find((endpoint) => endpoint.name === "tests/test_main.py::test_version_callback")!;
    expect(bench.throughput).toBe(8036.42067288928);
    expect(bench.latency.meanMs).toBeCloseTo(1000 / 8036.42067288928, 12);
    // pytest-benchmark's own mean, which the entry's extra repeats (124.43 usec), agrees.
    expect(bench.latency.meanMs! * 1000).toBeCloseTo(124.4335, 3);
  });

  it("keeps a bigger-is-better MiB/s as a custom metric judged higher, one run per entry in file order", () => {
    const history = parseGithubActionBenchmarkData(example("azure-storage-fuse.data.js"));
    expect(history.entries.map((entry) => [entry.commit.id, entry.startedAt])).toEqual([
      ["03e72e47d37985e5c28051c0ff17bdc0c7315e74", new Date(1741427855161).toISOString()],
      ["79978157a7cb7035566f743a8c86becadf2dec81", new Date(1741634186238).toISOString()],
    ]);
    const write = history.entries[1]!.run.endpoints.find((endpoint) => endpoint.name === "sequential_write")!;
    expect(write.latency.meanMs).toBeNull();
    expect(write.metrics["MiB/s"]).toEqual({ value: 1879.4534505208333, unit: "MiB/s", better: "higher" });
  });

  it("reads the same object without the window.BENCHMARK_DATA prefix (data.json)", () => {
    const text = example("azure-storage-fuse.data.js");
    const json = stripDataJsPrefix(text);
    expect(json.startsWith("{")).toBe(true);
    expect(parseGithubActionBenchmarkData(json)).toEqual(parseGithubActionBenchmarkData(text));
  });

  it("refuses a malformed entry naming its path as the file spells it", () => {
    const data = JSON.parse(stripDataJsPrefix(example("azure-storage-fuse.data.js")));
    data.entries["Rust Benchmark"] = data.entries.Benchmark;
    delete data.entries.Benchmark;
    data.entries["Rust Benchmark"][1].benches[0].value = "fast";
    const error = inputErrorOf(() => parseGithubActionBenchmarkData(`window.BENCHMARK_DATA = ${JSON.stringify(data)}`));
    expect(error.code).toBe("malformed");
    expect(error.details[0]!.path).toBe('entries["Rust Benchmark"][1].benches[0].value');
    expect(error.message).toContain('entries["Rust Benchmark"][1].benches[0].value');
  });

  it("refuses an unknown tool, a commit that is no SHA and a file that is not JSON, each with its path", () => {
    const data = JSON.parse(stripDataJsPrefix(example("azure-storage-fuse.data.js")));
    data.entries.Benchmark[0].tool = "zig";
    expect(inputErrorOf(() => parseGithubActionBenchmarkData(JSON.stringify(data))).details[0]!.path).toBe('entries["Benchmark"][0].tool');
    data.entries.Benchmark[0].tool = "go";
    data.entries.Benchmark[0].commit.id = "HEAD";
    expect(inputErrorOf(() => parseGithubActionBenchmarkData(JSON.stringify(data))).details[0]!.path).toBe('entries["Benchmark"][0].commit.id');
    expect(inputErrorOf(() => parseGithubActionBenchmarkData("window.BENCHMARK_DATA = {\"entries\": ")).details[0]!.path).toMatch(/^data\.js: line 1, column/);
  });
});

describe("github-action-benchmark's custom JSON (the benches a workflow wrote, from a real data.js)", () => {
  const benches = JSON.parse(stripDataJsPrefix(example("azure-storage-fuse.data.js"))).entries.Benchmark[0].benches;

  it("is read only when ?format= names its direction: the file does not say which way is better", () => {
    const text = JSON.stringify(benches);
    expect(() => parseUpload({ files: [{ name: null, text }] })).toThrow(InputError);
    const bigger = parseUpload({ files: [{ name: null, text }], format: "customBiggerIsBetter" });
    expect(bigger.format).toBe("custom-bigger-is-better");
    expect(bigger.run.endpoints.map((endpoint) => endpoint.metrics["MiB/s"]?.better)).toEqual(["higher", "higher", "higher", "higher"]);
    const smaller = parseUpload({ files: [{ name: null, text }], format: "custom-smaller-is-better" });
    expect(smaller.run.endpoints[0]!.metrics["MiB/s"]).toEqual({ value: 1792.166015625, unit: "MiB/s", better: "lower" });
  });

  it("refuses ?format=github-action-benchmark (the tool): it names both directions, and the file says neither", () => {
    const error = inputErrorOf(() => parseUpload({ files: [{ name: null, text: JSON.stringify(benches) }], format: "github-action-benchmark" }));
    expect(error.code).toBe("undetectable_format");
    expect(error.details[0]).toEqual({ path: "query.format", message: "one of custom-smaller-is-better, custom-bigger-is-better" });
  });

  it("stores a smaller-is-better time as the mean time per operation and a bigger-is-better rate as ops/s", () => {
    const go = JSON.parse(stripDataJsPrefix(example("go-conventionalcommit.data.js"))).entries.Benchmark[0].benches;
    const run = parseUpload({ files: [{ name: null, text: JSON.stringify(go) }], format: "customSmallerIsBetter" }).run;
    expect(run.endpoints[4]!.latency.meanMs).toBeCloseTo(137e-6, 15);
    const pytest = JSON.parse(stripDataJsPrefix(example("cookiecutter-pytest.data.js"))).entries.Benchmark[0].benches;
    const rates = parseUpload({ files: [{ name: null, text: JSON.stringify(pytest) }], format: "customBiggerIsBetter" }).run;
    expect(rates.endpoints[0]!.throughput).toBe(952.4881575451848);
  });

  it("refuses an entry without a number, naming it", () => {
    const broken = JSON.stringify([...benches.slice(0, 2), { name: "x", unit: "MiB/s" }]);
    const error = inputErrorOf(() => parseUpload({ files: [{ name: null, text: broken }], format: "customBiggerIsBetter" }));
    expect(error.details[0]!.path).toBe("[2].value");
  });
});
