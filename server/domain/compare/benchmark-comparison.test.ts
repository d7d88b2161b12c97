import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseUpload } from "../parsers";
import type { ParsedRun } from "../run";
import { compareRuns } from "./compare-runs";
import type { ComparableRun } from "./comparison";
import { DEFAULT_COMPARE_OPTIONS } from "./comparison";

// One benchmark run against one, before the series has history: judged on each run's repetitions
// (docs/benchmarks.md, "Statistics"). The two runs are built here from the real hyperfine file: the base
// keeps each command's even-numbered timed runs, the head its odd-numbered ones (two samples of the same
// real distribution), and the head of one command is made slower by a factor the test chooses.

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
  const parsed: ParsedRun = parseUpload({ files: [{ name: null, text: JSON.stringify(document) }] }).run;
  return {
    id,
    label: "cli",
    round: null,
    startedAt: "2026-11-25T22:30:00Z",
    format: parsed.format,
    tool: parsed.tool,
    durationSeconds: null,
    hostName: null,
    config: {},
    aggregate: parsed.aggregate,
    endpoints: parsed.endpoints,
    metrics: parsed.metrics,
  };
}

const gateOf = (comparison: ReturnType<typeof compareRuns>, name: string) =>
  comparison.endpoints.find((endpoint) => endpoint.name === name)!.metrics.find((metric) => metric.gate)!;

describe("one benchmark run against one, on their repetitions", () => {
  it("flags the command made 30% slower and none of the others (10 vs 10 timed runs each)", () => {
    const comparison = compareRuns([run("base", 0)], [run("head", 1, { "sort data.txt": 1.3 })], DEFAULT_COMPARE_OPTIONS);
    const slower = gateOf(comparison, "sort data.txt");
    expect(slower).toMatchObject({ metric: "mean", test: "repetitions", verdict: "regressed" });
    expect(slower.deltaPct).toBeGreaterThan(20);
    expect(slower.reason).toMatch(/^1 vs 1 on each run's repetitions \(10 vs 10 samples/);
    for (const other of ["gzip -c -6 data.txt", "python3 wordfreq.py data.txt"]) {
      expect(gateOf(comparison, other).verdict, other).toBe("unchanged");
    }
    expect(comparison.verdict).toBe("regressed");
  });

  it("the same runs unchanged: every command unchanged", () => {
    const comparison = compareRuns([run("base", 0)], [run("head", 1)], DEFAULT_COMPARE_OPTIONS);
    expect(comparison.endpoints.map((endpoint) => endpoint.verdict)).toEqual(["unchanged", "unchanged", "unchanged"]);
  });

  it("a whole run slower by 30% is undecided, not three regressions: the machine, not the code, may have moved", () => {
    const everything = { "gzip -c -6 data.txt": 1.3, "sort data.txt": 1.3, "python3 wordfreq.py data.txt": 1.3 };
    const comparison = compareRuns([run("base", 0)], [run("head", 1, everything)], DEFAULT_COMPARE_OPTIONS);
    for (const endpoint of comparison.endpoints) {
      const gate = endpoint.metrics.find((metric) => metric.gate)!;
      expect(gate.verdict).toBe("inconclusive");
      expect(gate.inconclusiveKind).toBe("undecided");
      expect(gate.reason).toMatch(/the whole run moved: the median change of the 3 benchmarks/);
    }
    expect(comparison.verdict).toBe("inconclusive");
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
