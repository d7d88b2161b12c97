import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { comparableUpload } from "./comparable-run.fixture";
import { compareRuns } from "./compare-runs";
import type { ComparableRun } from "./comparison";
import { DEFAULT_COMPARE_OPTIONS } from "./comparison";

// One benchmark run against one, before the series has history: judged on each run's repetitions
// (docs/benchmarks.md, "Statistics"). The two runs are built here from the real hyperfine file: the base
// keeps each command's even-numbered timed runs, the head its odd-numbered ones (two samples of the same
// real distribution), and the head of one command is made slower by a factor the test chooses.

const MICRO = path.resolve(import.meta.dirname, "../parsers/fixtures/micro");
const FILE = path.resolve(import.meta.dirname, "../parsers/fixtures/micro/hyperfine/baseline/hyperfine.json");
type HyperfineResult = { command: string; times: number[]; exit_codes: number[]; [key: string]: unknown };
const original = JSON.parse(readFileSync(FILE, "utf8")) as { results: HyperfineResult[] };

function half(result: HyperfineResult, parity: 0 | 1, factor: number): HyperfineResult {
  const times = result.times.filter((_, index) => index % 2 === parity).map((time) => time * factor);
  const mean = times.reduce((sum, time) => sum + time, 0) / times.length;
  const sd = Math.sqrt(times.reduce((sum, time) => sum + (time - mean) ** 2, 0) / (times.length - 1));
  const sorted = [...times].sort((a, b) => a - b);
  return {
    ...result,
    times,
    exit_codes: result.exit_codes.filter((_, index) => index % 2 === parity),
    mean,
    stddev: sd,
    median: (sorted[4]! + sorted[5]!) / 2,
    min: sorted[0]!,
    max: sorted.at(-1)!,
  };
}

function run(id: string, parity: 0 | 1, factors: Record<string, number> = {}): ComparableRun {
  const document = { results: original.results.map((result) => half(result, parity, factors[result.command] ?? 1)) };
  return comparableUpload(id, JSON.stringify(document));
}

const gateOf = (comparison: ReturnType<typeof compareRuns>, name: string) =>
  comparison.endpoints.find((endpoint) => endpoint.name === name)!.metrics.find((metric) => metric.gate)!;

describe("one benchmark run against one, on their repetitions", () => {
  it("names the command made 30% slower, undecided (a burst during it alone does as much), and none of the others (10 vs 10 timed runs each)", () => {
    const comparison = compareRuns([run("base", 0)], [run("head", 1, { "sort data.txt": 1.3 })], DEFAULT_COMPARE_OPTIONS);
    const slower = gateOf(comparison, "sort data.txt");
    expect(slower).toMatchObject({ metric: "mean", test: "repetitions", verdict: "inconclusive", inconclusiveKind: "undecided", undecidedBy: "machine" });
    expect(slower.deltaPct).toBeGreaterThan(20);
    expect(slower.reason).toMatch(/^undecided: \+\d+\.\d%, .* beyond the machine's shift and significant, but a burst of other work during this benchmark alone can slow it by up to \+100\.0%; one run against one cannot tell/);
    expect(slower.reason).toContain("1 vs 1 on each run's repetitions (10 vs 10 samples, Welch's t-test on the log ratio");
    for (const other of ["gzip -c -6 data.txt", "python3 wordfreq.py data.txt"]) {
      expect(gateOf(comparison, other).verdict, other).toBe("unchanged");
    }
    expect(comparison.verdict).toBe("inconclusive");
  });

  it("flags a command made 2.2x slower: beyond what a burst during it alone does", () => {
    const comparison = compareRuns([run("base", 0)], [run("head", 1, { "sort data.txt": 2.2 })], DEFAULT_COMPARE_OPTIONS);
    expect(gateOf(comparison, "sort data.txt")).toMatchObject({ test: "repetitions", verdict: "regressed" });
    expect(comparison.verdict).toBe("regressed");
  });

  it("the same runs unchanged: every command unchanged", () => {
    const comparison = compareRuns([run("base", 0)], [run("head", 1)], DEFAULT_COMPARE_OPTIONS);
    expect(comparison.endpoints.map((endpoint) => endpoint.verdict)).toEqual(["unchanged", "unchanged", "unchanged"]);
  });

  it("a whole run slower by 30% (a burst of other work) fails nothing: every command moved with the machine, and a warning says so", () => {
    const everything = { "gzip -c -6 data.txt": 1.3, "sort data.txt": 1.3, "python3 wordfreq.py data.txt": 1.3 };
    const comparison = compareRuns([run("base", 0)], [run("head", 1, everything)], DEFAULT_COMPARE_OPTIONS);
    for (const endpoint of comparison.endpoints) {
      const gate = endpoint.metrics.find((metric) => metric.gate)!;
      expect(gate.verdict, endpoint.name).toBe("unchanged");
      expect(gate.reason).toMatch(/beyond the machine's shift of \+3\d\.\d% \(3 of 3 benchmarks moved together/);
    }
    expect(comparison.verdict).toBe("unchanged");
    expect(comparison.machineShift).toMatchObject({ benchmarks: 3, movedTogether: 3 });
    expect(comparison.warnings.join(" ")).toMatch(/The head run as a whole was \+3\d\.\d% \(slower\) against the base: 3 of 3 benchmarks moved together/);
  });

  it("the same burst and one command 1.5x slower besides: that command is named (undecided, one run against one), the others are not", () => {
    const comparison = compareRuns(
      [run("base", 0)],
      [run("head", 1, { "gzip -c -6 data.txt": 1.3, "sort data.txt": 1.3 * 1.5, "python3 wordfreq.py data.txt": 1.3 })],
      DEFAULT_COMPARE_OPTIONS,
    );
    expect(gateOf(comparison, "sort data.txt")).toMatchObject({ verdict: "inconclusive", undecidedBy: "machine" });
    expect(gateOf(comparison, "gzip -c -6 data.txt").verdict).toBe("unchanged");
    expect(gateOf(comparison, "python3 wordfreq.py data.txt").verdict).toBe("unchanged");
  });

  it("a benchmark with a single sample a side is not judged on repetitions: it waits for the noise band", () => {
    const single = (id: string, factor: number): ComparableRun => {
      const base = run(id, 0, { "sort data.txt": factor });
      return { ...base, endpoints: base.endpoints.map((endpoint) => ({ ...endpoint, requests: 1, latency: { ...endpoint.latency, stdDevMs: null } })) };
    };
    const comparison = compareRuns([single("base", 1)], [single("head", 1.3)], DEFAULT_COMPARE_OPTIONS);
    expect(gateOf(comparison, "sort data.txt")).toMatchObject({ verdict: "inconclusive", inconclusiveKind: "too-little-history" });
  });
});

/** A real run of a micro fixture, as a comparison reads it. */
function fixtureRun(id: string, relative: string, transform: (text: string) => string = (text) => text): ComparableRun {
  return comparableUpload(id, transform(readFileSync(path.join(MICRO, relative), "utf8")));
}

/** test2json output events with every ns/op value multiplied by `factor` (the run made uniformly faster or slower). */
const scaleNsPerOp = (factor: number) => (text: string) =>
  text.replace(/(\\t\s*)(\d+(?:\.\d+)?)( ns\/op)/g, (_, before: string, value: string, unit: string) => `${before}${(Number(value) * factor).toFixed(2)}${unit}`);

describe("two real go test runs of the same code (the fixtures' text and JSON runs, back to back)", () => {
  it("are not called regressed or improved anywhere: they differ by −17% to +10% per benchmark, beyond their repetitions", () => {
    const comparison = compareRuns([fixtureRun("text", "go/baseline/gobench.txt")], [fixtureRun("json", "go/baseline/gobench.json")], DEFAULT_COMPARE_OPTIONS);
    const verdicts = comparison.endpoints.map((endpoint) => endpoint.verdict);
    expect(verdicts).not.toContain("regressed");
    expect(verdicts).not.toContain("improved");
    expect(comparison.verdict).not.toBe("regressed");
  });

  it("with the whole-run shift taken out, the suite's noise beyond the repetitions keeps Checksum's +10% (1% spread within each run) from being flagged", () => {
    const base = fixtureRun("text", "go/baseline/gobench.txt");
    const raw = compareRuns([base], [fixtureRun("json", "go/baseline/gobench.json")], DEFAULT_COMPARE_OPTIONS);
    const changes = raw.endpoints.flatMap((endpoint) => endpoint.metrics.filter((metric) => metric.gate).map((metric) => metric.deltaPct!));
    const sorted = [...changes].sort((a, b) => a - b);
    const medianFactor = 1 + sorted[Math.floor(sorted.length / 2)]! / 100;
    const head = fixtureRun("json", "go/baseline/gobench.json", scaleNsPerOp(1 / medianFactor));
    const comparison = compareRuns([base], [head], DEFAULT_COMPARE_OPTIONS);
    const checksum = gateOf(comparison, "example.com/microbench > BenchmarkChecksum");
    expect(checksum.deltaPct).toBeGreaterThan(5);
    expect(checksum.test).toBe("repetitions");
    expect(checksum.reason).toMatch(/beyond the machine's shift of .* \(\d of 7 benchmarks moved together; (their noise beyond the repetitions [\d.]+%|noise beyond the repetitions taken as [\d.]+% \(too few to measure\))\)/);
    expect(comparison.endpoints.map((endpoint) => endpoint.verdict)).not.toContain("regressed");
  });
});

describe("the pytest-benchmark suite (8 benchmarks): one made 30% slower in the second half of its rounds", () => {
  it("is named against the suite's shift and run-to-run noise, and nothing else is", () => {
    type Benchmark = { name: string; stats: Record<string, unknown> & { data: number[] } };
    const file = JSON.parse(readFileSync(path.join(MICRO, "pytest-benchmark/baseline/pytest-benchmark.json"), "utf8")) as { benchmarks: Benchmark[] };
    const half = (parity: 0 | 1, factor: (name: string) => number) =>
      JSON.stringify({
        ...file,
        benchmarks: file.benchmarks.map((benchmark) => {
          const data = benchmark.stats.data.filter((_, index) => index % 2 === parity).map((value) => value * factor(benchmark.name));
          const mean = data.reduce((sum, value) => sum + value, 0) / data.length;
          return { ...benchmark, stats: { ...benchmark.stats, data, rounds: data.length, mean } };
        }),
      });
    const comparison = compareRuns(
      [comparableUpload("base", half(0, () => 1))],
      [comparableUpload("head", half(1, (name) => (name === "test_sort[1000]" ? 1.3 : 1)))],
      DEFAULT_COMPARE_OPTIONS,
    );
    // Named, undecided: one run against one cannot tell a 1.3x change from a burst during that benchmark alone.
    const named = comparison.endpoints.filter((endpoint) => endpoint.verdict !== "unchanged").map((endpoint) => endpoint.name);
    expect(named).toEqual(["sort > test_sort[1000]"]);
    expect(gateOf(comparison, "sort > test_sort[1000]")).toMatchObject({ verdict: "inconclusive", undecidedBy: "machine" });
    expect(gateOf(comparison, "sort > test_sort[1000]").reason).toMatch(/beyond the machine's shift of .* \(\d of 8 benchmarks moved together/);
  });
});

describe("the demo's real go test -bench runs (scripts/seed/go-bench: 9 unchanged, 7 with JoinInts rewritten slower)", () => {
  const RUNS = path.resolve(import.meta.dirname, "../../../scripts/seed/go-bench/runs");
  const load = (file: string) => comparableUpload(file, readFileSync(path.join(RUNS, file), "utf8"));
  const baseline = Array.from({ length: 9 }, (_, index) => load(`baseline-${index + 1}.txt`));
  const slow = Array.from({ length: 7 }, (_, index) => load(`slow-joinints-${index + 1}.txt`));
  const regressedIn = (base: ComparableRun, head: ComparableRun) =>
    compareRuns([base], [head], DEFAULT_COMPARE_OPTIONS).endpoints.filter((endpoint) => endpoint.verdict === "regressed").map((endpoint) => endpoint.name);

  // These runs were made while other jobs loaded the machine (repetitions 5–30% apart): figures as measured,
  // asserted as they stand so that a change of the rule that makes them worse is seen.
  it("call no benchmark regressed in any of the 72 ordered pairs of unchanged runs, and leave at most 5 undecided", () => {
    const pairs = baseline.flatMap((base) => baseline.filter((head) => head !== base).map((head) => compareRuns([base], [head], DEFAULT_COMPARE_OPTIONS)));
    expect(pairs.filter((comparison) => comparison.endpoints.some((endpoint) => endpoint.verdict === "regressed"))).toHaveLength(0);
    expect(pairs.filter((comparison) => comparison.verdict === "inconclusive").length).toBeLessThanOrEqual(5);
  });

  it("flag JoinInts in every one of the 63 (unchanged, slower) pairs, its allocations exactly; no other benchmark", () => {
    let others = 0;
    for (const base of baseline) {
      for (const head of slow) {
        const regressed = regressedIn(base, head);
        expect(regressed, `${base.id} → ${head.id}`).toContain("example.com/microbench > BenchmarkJoinInts");
        if (regressed.some((name) => !name.endsWith("BenchmarkJoinInts"))) others++;
      }
    }
    expect(others).toBe(0);
  });
});
