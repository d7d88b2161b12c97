import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createSeededRandom } from "../stats/random";
import type { SeededRandom } from "../stats/random";
import { comparableRun, comparableUpload } from "./comparable-run.fixture";
import { compareRuns } from "./compare-runs";
import type { ComparableRun } from "./comparison";
import { DEFAULT_COMPARE_OPTIONS } from "./comparison";
import { trendValues } from "./series-history";
import { namedChangesOf } from "./gate-summary";

// A/B jobs judged pair by pair (ab-comparison.ts): one endpoint at 20 ms p95, run-to-run noise CV = 5%,
// 20 runs of history lending their noise, pairs drawn independently (the worst case: nothing shared).
const CV = 0.05;
const OPTIONS = { ...DEFAULT_COMPARE_OPTIONS, test: "student" as const, metrics: "gate" as const };

function runOf(random: SeededRandom, id: string, factor: number, abPair: number | null): ComparableRun {
  const p95 = 20 * factor * (1 + random.gaussian(0, CV));
  return comparableRun(id, { endpoints: [{ name: "checkout", requests: 5000, failures: 0, latency: { unit: "ms", p50: p95 / 2, p95 } }] }, { abPair });
}

/** A job of up to `maxPairs` pairs, stopped when the verdict is no longer undecided; its last gate metric and pairs used. */
function runJob(random: SeededRandom, factor: number, maxPairs = 6) {
  const history = trendValues(Array.from({ length: 20 }, (_, index) => runOf(random, `main-${index}`, 1, null)));
  const base: ComparableRun[] = [];
  const head: ComparableRun[] = [];
  for (let pair = 1; pair <= maxPairs; pair++) {
    base.push(runOf(random, `b${pair}`, 1, pair));
    head.push(runOf(random, `h${pair}`, factor, pair));
    const gate = compareRuns(base, head, { ...OPTIONS, history }).endpoints[0]!.metrics.find((metric) => metric.gate)!;
    if (gate.inconclusiveKind !== "undecided" || pair === maxPairs) return { gate, pairs: pair };
  }
  throw new Error("unreachable");
}

describe("A/B jobs, pair by pair", () => {
  it("judges a job's pairs with the sequential test and says what it promises", () => {
    const { gate } = runJob(createSeededRandom(1), 1.5);
    expect(gate).toMatchObject({ test: "ab-pairs", verdict: "regressed" });
    expect(gate.reason).toMatch(/^A\/B job, \d pairs?: head\/base \+\d+\.\d% on average; sequential test against a slowdown of \+\d+\.\d% \(max of the minimum effect and 4 × a run's noise of [\d.]+% \(the series' history\)\), caught 95% of the time/);
  });

  it("unchanged: fails at most 1% of 400 jobs and passes most after one or two pairs", () => {
    const random = createSeededRandom(2);
    const jobs = Array.from({ length: 400 }, () => runJob(random, 1));
    const fails = jobs.filter(({ gate }) => gate.verdict === "regressed").length;
    expect(fails / jobs.length).toBeLessThanOrEqual(0.01);
    expect(jobs.filter(({ gate }) => gate.verdict === "unchanged").length / jobs.length).toBeGreaterThanOrEqual(0.95);
    const meanPairs = jobs.reduce((sum, job) => sum + job.pairs, 0) / jobs.length;
    expect(meanPairs).toBeLessThan(2);
  });

  it("a slowdown of 6 × the noise is caught in at least 95% of 200 jobs", () => {
    const random = createSeededRandom(3);
    const jobs = Array.from({ length: 200 }, () => runJob(random, 1 + 6 * CV));
    expect(jobs.filter(({ gate }) => gate.verdict === "regressed").length / jobs.length).toBeGreaterThanOrEqual(0.95);
  });

  it("runs that are not one job's pairs (a run without its pair, two bases in one pair) are compared as rounds", () => {
    const random = createSeededRandom(4);
    const comparison = compareRuns([runOf(random, "b1", 1, 1), runOf(random, "b2", 1, 1)], [runOf(random, "h1", 1, 1)], OPTIONS);
    expect(comparison.endpoints[0]!.metrics.find((metric) => metric.gate)!.test).not.toBe("ab-pairs");
  });
});

describe("an A/B job of real go test -bench runs (scripts/evaluate/micro-quiet/go: base against MapLookup made slower, ABBA)", () => {
  const JOB = path.resolve(import.meta.dirname, "../../../scripts/evaluate/micro-quiet/go/runs/ab/base-vs-one-1");
  const load = (side: "base" | "head", pair: number) => comparableUpload(`${side}-${pair}`, readFileSync(path.join(JOB, `pair-${pair}-${side}.txt`), "utf8"), { abPair: pair });
  const judged = (pairs: number) => {
    const numbers = Array.from({ length: pairs }, (_, index) => index + 1);
    return compareRuns(numbers.map((pair) => load("base", pair)), numbers.map((pair) => load("head", pair)), DEFAULT_COMPARE_OPTIONS);
  };
  const gateOf = (comparison: ReturnType<typeof compareRuns>, name: string) =>
    comparison.endpoints.find((endpoint) => endpoint.name === `example.com/microbench > ${name}`)!.metrics.find((metric) => metric.gate)!;

  it("decides nothing on one pair: a burst during one benchmark of one run could move it alone", () => {
    const gate = gateOf(judged(1), "BenchmarkMapLookup");
    expect(gate).toMatchObject({ test: "ab-pairs", verdict: "inconclusive", undecidedBy: "pairs" });
    expect(gate.reason).toContain("a benchmark decides after a whole ABBA cycle (2 pairs)");
  });

  it("after a whole ABBA cycle names MapLookup regressed, and no other benchmark as slower", () => {
    const comparison = judged(2);
    expect(gateOf(comparison, "BenchmarkMapLookup")).toMatchObject({ test: "ab-pairs", verdict: "regressed" });
    const named = namedChangesOf(comparison).filter((change) => change.status !== "improved").map((change) => change.endpoint);
    expect(named).toEqual(["example.com/microbench > BenchmarkMapLookup"]);
  });
});
