import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../../domain/input-error";
import { readFixture } from "../../domain/parsers/fixtures/read-fixture";
import { parseUploadedRun } from "../../domain/parsers";
import { readFileSync } from "node:fs";
import path from "node:path";
import { readHistoryEntries } from "../../domain/parsers/history-entries";
import { comparableUpload } from "../../domain/compare/comparable-run.fixture";
import type { ComparableRun } from "../../domain/compare/compare-runs";
import { judgeGate } from "../../domain/gate/judge";
import { judgeInputOf } from "../../domain/gate/judge-input.fixture";
import { numbersOfResult } from "../../domain/run";
import { findCandidatesInTrends } from "../../domain/incidents/change-candidates";
import { INLINE_DETECTION_VALUES, INLINE_JUDGE_CELLS, INLINE_PARSE_BYTES, closeCpuPool, findChangeCandidatesInPool, judgeInPool, parseInPool, readHistoryInPool } from "./cpu-pool";

// The parse threads (issue 36): an upload's files are parsed in a worker thread, not on the event loop;
// a parse past its time budget is stopped and refused (413), and the parser's errors cross the thread
// with their code and details. The real fixtures, parsed through the pool, equal a parse in place.

afterAll(async () => {
  await closeCpuPool();
});

const GO = "micro/go/baseline/gobench.txt";

function bigGoSuite(count: number): string {
  const lines = ["goos: linux", "goarch: amd64", "pkg: example.com/pool"];
  for (let index = 0; index < count; index++) lines.push(`BenchmarkItem${index}-2   \t 1000000\t ${100 + (index % 7)} ns/op`);
  return lines.join("\n");
}

describe("parseInPool", () => {
  it("a suite too large to parse in place is parsed in a thread, to the very run an in-place parse gives", async () => {
    const input = { files: [{ name: "gobench.txt", text: bigGoSuite(9_000) }], format: null, metadata: { label: "pool" } };
    expect(input.files[0]!.text.length).toBeGreaterThan(INLINE_PARSE_BYTES);
    const inThread = await parseInPool(input);
    expect(inThread).toEqual(parseUploadedRun(input));
  });

  it("parses a real fixture, with the query's metadata applied", async () => {
    const parsed = await parseInPool({ files: [{ name: "gobench.txt", text: readFixture(GO) }], format: null, metadata: { label: "pool", branch: "main" } });
    expect(parsed.format).toBe("go-bench-text");
    expect(parsed.run.label).toBe("pool");
    expect(parsed.run.environment.git.branch).toBe("main");
    expect(parsed.run.endpoints.length).toBeGreaterThan(0);
  });

  it("an input error crosses the thread as an InputError with its code and the line at fault", async () => {
    const text = `${bigGoSuite(3)}\nBenchmarkBroken-2 100 12`;
    const error = await parseInPool({ files: [{ name: "gobench.txt", text }], format: null, metadata: {} }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).code).toBe("malformed");
    expect((error as InputError).details[0]!.path).toBe("gobench.txt: line 7");
  });

  it("a parse past its time budget is stopped and refused as too large, naming the setting", async () => {
    const error = await parseInPool({ files: [{ name: "gobench.txt", text: bigGoSuite(10_000) }], format: null, metadata: {} }, undefined, { budgetMs: 1 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).code).toBe("too_large");
    expect((error as InputError).message).toMatch(/BENCHTRACK_PARSE_TIMEOUT_MS/);
    // The pool still works after a thread was stopped.
    const parsed = await parseInPool({ files: [{ name: "gobench.txt", text: bigGoSuite(10) }], format: null, metadata: {} });
    expect(parsed.run.endpoints).toHaveLength(10);
  });

  it("a client that went away stops the parse with its own abort, not an input error", async () => {
    const controller = new AbortController();
    const parsing = parseInPool({ files: [{ name: "gobench.txt", text: bigGoSuite(10_000) }], format: null, metadata: {} }, controller.signal);
    controller.abort();
    const error = await parsing.catch((caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(InputError);
    expect((error as Error).name).toBe("AbortError");
  });
});

/** A real gh-pages data.js whose suite is repeated `times` (each copy a day later, on its own commit): a history too large to read in place. */
function longHistory(times: number): string {
  const file = readFileSync(path.resolve(import.meta.dirname, "../../domain/parsers/github-action-benchmark/examples/go-conventionalcommit.data.js"), "utf8");
  const data = JSON.parse(file.slice(file.indexOf("{"))) as { entries: { Benchmark: { date: number; commit: { id: string } }[] } };
  const real = data.entries.Benchmark;
  data.entries.Benchmark = Array.from({ length: times }, (_, copy) =>
    real.map((entry) => ({ ...entry, date: entry.date + copy * 86_400_000, commit: { ...entry.commit, id: `${copy.toString(16).padStart(8, "0")}${entry.commit.id.slice(8)}` } })),
  ).flat();
  return `window.BENCHMARK_DATA = ${JSON.stringify(data)}`;
}

describe("readHistoryInPool", () => {
  const file = { source: "github-action-benchmark" as const, branch: "main", testbed: null, label: null };

  it("reads a history too large to read in place in a thread, to the very entries an in-place read gives", async () => {
    const text = longHistory(60);
    expect(text.length).toBeGreaterThan(INLINE_PARSE_BYTES);
    const inThread = await readHistoryInPool({ ...file, text });
    expect(inThread).toHaveLength(60);
    expect(inThread).toEqual(readHistoryEntries({ ...file, text }));
  });

  it("a refused entry crosses the thread as an InputError naming its path", async () => {
    const text = longHistory(60).replace(/"value":[0-9.e+-]+/, '"value":"fast"');
    const error = await readHistoryInPool({ ...file, text }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).details[0]!.path).toBe('entries["Benchmark"][0].benches[0].value');
  });
});

describe("judgeInPool", () => {
  /** A suite of 1,500 benchmarks, `slower` of them 30% slower, the whole run `machine` times as slow. */
  const suite = (id: string, hour: number, { machine = 1, slower = 0 } = {}) => {
    const lines = ["goos: linux", "goarch: amd64", "pkg: example.com/pool"];
    for (let index = 0; index < 1_500; index++) {
      const ns = (100 + (index % 7) + ((index * hour) % 5) / 10) * machine * (index < slower ? 1.3 : 1);
      lines.push(`BenchmarkItem${index}-2   \t 1000000\t ${ns.toFixed(2)} ns/op\t 16 B/op\t 1 allocs/op`);
    }
    return comparableUpload(id, lines.join("\n"), { startedAt: new Date(Date.UTC(2026, 0, 1, hour)).toISOString() });
  };
  /** As the gate reads a stored run (services/runs/run-numbers.ts). */
  const stored = (run: ComparableRun): ComparableRun => ({ ...run, aggregate: numbersOfResult(run.aggregate), endpoints: run.endpoints.map(numbersOfResult) });
  const [first, second, third] = [suite("pool-1", 1), suite("pool-2", 2, { machine: 1.02 }), suite("pool-3", 3, { slower: 40 })];

  it("judges as judgeGate does, the runs crossing by id once a thread holds them, the uploaded one kept as stored", async () => {
    await closeCpuPool();
    const firstInput = judgeInputOf([stored(second), stored(first)], third);
    expect(third.endpoints.length * 3).toBeGreaterThan(INLINE_JUDGE_CELLS);
    // A new thread holds no run: it asks for the two base runs, then judges.
    expect(await judgeInPool(firstInput, { uploaded: third })).toEqual(judgeGate(firstInput));
    // The next upload of the series: its three base runs are the thread's (the last one as stored), only the uploaded run crosses.
    const fourth = suite("pool-4", 4);
    const nextInput = judgeInputOf([stored(third), stored(second), stored(first)], fourth);
    expect(await judgeInPool(nextInput, { uploaded: fourth })).toEqual(judgeGate(nextInput));
    // A run never changes: what the thread holds of an id is what it judges (here, not what this input says of it).
    const altered = judgeInputOf([{ ...stored(third), endpoints: stored(fourth).endpoints }, stored(second), stored(first)], fourth);
    expect(await judgeInPool(altered, { uploaded: fourth })).toEqual(judgeGate(nextInput));
    expect(judgeGate(altered)).not.toEqual(judgeGate(nextInput));
  });
});

describe("findChangeCandidatesInPool", () => {
  it("a window too large to search in place is searched in a thread, to the very candidates a search in place gives", async () => {
    // 300 trends of 60 runs, a third of them with a step at run 30: the detection job of a suite.
    const windowRunIds = Array.from({ length: 60 }, (_, index) => `run-${index}`);
    const trends = Array.from({ length: 300 }, (_, line) => ({
      endpointId: line,
      metric: line % 2 === 0 ? "p95" : "metrics.allocs",
      better: "lower" as const,
      runs: windowRunIds.map((_, index) => index),
      values: windowRunIds.map((_, index) => (line % 3 === 0 && index >= 30 ? 120 : 100) * (1 + 0.01 * Math.sin(index * 1.3 + line))),
    }));
    const unreturned = [{ endpointId: 3, metric: "metrics.allocs", firstRunId: "run-30" }];
    expect(trends.length * windowRunIds.length).toBeGreaterThan(INLINE_DETECTION_VALUES);
    const inThread = await findChangeCandidatesInPool(windowRunIds, trends, unreturned);
    expect(inThread).toEqual(findCandidatesInTrends(windowRunIds, trends, unreturned));
    expect(inThread.filter((candidate) => candidate.kind === "regression" && candidate.firstRunId === "run-30")).toHaveLength(100);
  });
});
