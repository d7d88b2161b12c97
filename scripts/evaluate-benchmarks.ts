/**
 * How the CI gate judges microbenchmarks on real runs (docs/benchmark-evaluation.md): the runs of
 * scripts/evaluate/micro (go test -bench, hyperfine, pytest-benchmark, Google Benchmark, vitest bench,
 * benchmark.js; made on this project's shared 2-core machine, base code and four variants that change one
 * benchmark, half the suite, most of it, or one or two by about 1.3x; some under a deliberate burst of other
 * work; and ABBA A/B jobs), judged the way an upload is judged (decideFromRuns in server/domain/gate/judge.ts,
 * the function the upload path calls; the A/B jobs as the upload answers them after each pair).
 *
 *   npx tsx scripts/evaluate-benchmarks.ts [--data <folder>] [--markdown <file>] [--verbose]   (npm run evaluate:benchmarks)
 *
 * Three ways a change is judged:
 * - **first run**: one run against one (each base run against every other run): what a pull request meets
 *   when its base branch has a single run, or any upload whose series has none;
 * - **history**: a run against the base runs made before it (up to 10, at least 5): a series on main;
 * - **A/B jobs**: a job's head runs against its own base runs, pair by pair, stopping when the answer
 *   says so (ab-job.ts), at most 4 pairs.
 * What is counted: an unchanged pair's outcome (a false fail, inconclusive) and whether it named a benchmark;
 * a changed pair's changed benchmarks named (regressed, exact or undecided: listed as worse in the answer),
 * by the change's size (measured: the median of the variant's quiet runs over base's), and its unchanged
 * benchmarks named wrongly.
 */
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { comparableOf } from "../server/domain/compare/comparable-run.fixture";
import type { ComparableRun } from "../server/domain/compare/comparison";
import { leaningSlowdownsOf, namedChangesOf } from "../server/domain/compare/gate-summary";
import { describeAbJob } from "../server/domain/gate/ab-job";
import type { AbJobRun } from "../server/domain/gate/ab-job";
import { decideFromRuns } from "../server/domain/gate/judge";
import { parseUpload } from "../server/domain/parsers";
import type { Burst, ManifestRun, Variant } from "./evaluate/micro-runs";
import { LOADED_RUNS, manifestRuns, QUIET_RUNS, runFile } from "./evaluate/micro-runs";
import type { SuiteTruth } from "./evaluate/micro-truth";
import { SUITES } from "./evaluate/micro-truth";
import { AB, bucketOf, emptyTally, FIRST, HISTORY, report } from "./evaluate/benchmark-report";
import type { SuiteResult, Tally } from "./evaluate/benchmark-report";

const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(name);
  return index === -1 ? null : (args[index + 1] ?? null);
};
/** The sets of runs: made on a quiet machine (an ordinary shared runner), and under heavy load. */
const DATA_SETS = option("--data")
  ? [{ name: "given", dir: path.resolve(option("--data")!), about: "the folder given" }]
  : [
      {
        name: "quiet machine",
        dir: QUIET_RUNS,
        about:
          "an ordinary shared runner: go and pytest-benchmark with nothing else scheduled but the deliberate bursts; hyperfine's runs had this project's tests beside them (load 1–6.6), so they drift like the loaded set's (scripts/evaluate/micro-quiet/README.md)",
      },
      {
        name: "loaded machine",
        dir: LOADED_RUNS,
        about: "other builds and tests ran beside every run, load average 3–15 on 2 CPUs: whole runs drift by up to 2–4x (scripts/evaluate/micro/README.md)",
      },
    ];
const MARKDOWN = option("--markdown");
/** --verbose: print every pair that failed unchanged or named an unchanged benchmark, with the answer's reasons. */
const VERBOSE = args.includes("--verbose");

interface EvalRun {
  run: ComparableRun;
  meta: ManifestRun;
}

function readRuns(data: string, truth: SuiteTruth): EvalRun[] {
  return manifestRuns(data, truth.tool).flatMap((meta): EvalRun[] => {
    const file = meta.exit_code === 0 ? runFile(data, truth.tool, meta, truth.file) : null;
    if (!file) return [];
    const parsed = parseUpload({ files: [file] }).run;
    return [{ meta, run: comparableOf(meta.id, parsed, { startedAt: meta.start_utc, durationSeconds: null, abPair: meta.kind === "ab" ? (meta.pair ?? null) : null }) }];
  });
}

/** The gate's answer on base against head, as an upload gets it (no SLA, fail_on = regression). */
function judge(baseRuns: readonly ComparableRun[], headRuns: readonly ComparableRun[], noiseOnlyRuns: readonly ComparableRun[] = []) {
  const { comparison, decision } = decideFromRuns({
    baseRuns,
    headRuns,
    noiseOnlyRuns,
    project: { minEffectPct: 5, alpha: 0.01, gateMetric: "auto" },
    failOn: ["regression"],
    grade: null,
    thresholds: { evaluated: 0, failed: [] },
    tool: headRuns[0]!.tool,
    baselineHow: "evaluation",
    openRegression: null,
  });
  const named = comparison ? namedChangesOf(comparison) : [];
  return {
    leaning: leaningSlowdownsOf(named),
    reasons: decision.reasons,
    outcome: decision.outcome,
    inconclusive: decision.inconclusive,
    worse: new Set(named.filter((change) => change.status !== "improved").map((change) => change.endpoint)),
    improved: new Set(named.filter((change) => change.status === "improved").map((change) => change.endpoint)),
    exact: new Set(named.filter((change) => change.status === "exact").map((change) => change.endpoint)),
  };
}

const medianOf = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? NaN : sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const meanTimeOf = (run: ComparableRun, name: string) => run.endpoints.find((endpoint) => endpoint.name === name)?.latency.meanMs ?? null;

/**
 * Each changed benchmark's measured factor per variant: the median, over the variant's A/B jobs' pairs
 * without a burst, of head / base (both sides run minutes apart: the steadiest measure); a variant without
 * A/B jobs, the median of its single runs without a burst over base's.
 */
function measureFactors(runs: readonly EvalRun[], truth: SuiteTruth): Map<string, number> {
  const quiet = (variant: Variant) => runs.filter(({ meta }) => meta.kind === "single" && meta.variant === variant && meta.burst.type === "none");
  const abOf = (variant: Variant) => runs.filter(({ meta }) => meta.kind === "ab" && meta.burst.type === "none" && meta.job?.startsWith(`base-vs-${variant}-`));
  const factors = new Map<string, number>();
  for (const variant of ["one", "half", "most", "small"] as const) {
    for (const name of truth.changed[variant]) {
      const pairRatios = abOf(variant).flatMap(({ meta, run }) => {
        if (meta.side !== "head") return [];
        const base = abOf(variant).find((other) => other.meta.job === meta.job && other.meta.pair === meta.pair && other.meta.side === "base");
        const head = meanTimeOf(run, name);
        const before = base ? meanTimeOf(base.run, name) : null;
        return head !== null && before !== null && before > 0 ? [head / before] : [];
      });
      const level = (variant2: Variant) => medianOf(quiet(variant2).flatMap(({ run }) => (meanTimeOf(run, name) === null ? [] : [meanTimeOf(run, name)!])));
      factors.set(`${variant}\u0000${name}`, pairRatios.length > 0 ? medianOf(pairRatios) : level(variant) / level("base"));
    }
  }
  return factors;
}

/** Benchmarks whose exact counts differ between two sides (each side's first run). */
function exactChanges(base: ComparableRun, head: ComparableRun): Set<string> {
  const changed = new Set<string>();
  for (const endpoint of head.endpoints) {
    const other = base.endpoints.find((candidate) => candidate.name === endpoint.name);
    if (!other) continue;
    for (const [key, metric] of Object.entries(endpoint.metrics)) {
      const before = other.metrics[key];
      if (metric.exact && before?.exact && metric.better !== null && before.value !== metric.value) changed.add(endpoint.name);
    }
  }
  return changed;
}

function count(
  label: string,
  tally: Tally,
  answer: ReturnType<typeof judge>,
  variant: Variant,
  truth: SuiteTruth,
  factors: Map<string, number>,
  names: readonly string[],
  exact: Set<string>,
) {
  tally.pairs++;
  if (answer.outcome === "fail") tally.fail++;
  if (answer.outcome === "inconclusive") tally.inconclusive++;
  const changed = new Set(variant === "base" ? [] : truth.changed[variant]);
  const wrong = names.filter((name) => !changed.has(name) && answer.worse.has(name));
  if (wrong.length > 0) tally.namedUnchanged++;
  if (VERBOSE && (wrong.length > 0 || (variant === "base" && answer.outcome === "fail"))) {
    console.error(`${label}: ${answer.outcome}; named unchanged: ${wrong.join(", ")}\n    ${answer.reasons.join("\n    ")}`);
  }
  for (const name of changed) {
    if (!names.includes(name)) continue;
    const factor = factors.get(`${variant}\u0000${name}`) ?? 1;
    const bucket = tally.changed[bucketOf(factor)];
    bucket.seen++;
    if (answer.worse.has(name)) bucket.named++;
  }
  for (const name of exact) {
    tally.exact.seen++;
    if (answer.worse.has(name)) tally.exact.named++;
  }
  if ([...answer.exact].some((name) => !exact.has(name))) tally.exactFalse++;
}

const burstOf = (...runs: EvalRun[]): Burst =>
  runs.some(({ meta }) => meta.burst.type === "whole") ? "whole" : runs.some(({ meta }) => meta.burst.type === "partial") ? "partial" : "none";

function evaluateSuite(data: string, truth: SuiteTruth): SuiteResult | null {
  const runs = readRuns(data, truth);
  if (runs.length === 0) return null;
  const factors = measureFactors(runs, truth);
  const singles = runs.filter(({ meta }) => meta.kind === "single").sort((a, b) => a.meta.seq - b.meta.seq);
  const bases = singles.filter(({ meta }) => meta.variant === "base");
  const scenarios: SuiteResult["scenarios"] = {};
  const tallyOf = (scenario: string, row: string) => ((scenarios[scenario] ??= {})[row] ??= emptyTally());
  const names = (run: ComparableRun) => run.endpoints.map((endpoint) => endpoint.name);

  // First run: one run against one.
  for (const base of bases) {
    for (const head of singles) {
      if (head === base) continue;
      const answer = judge([base.run], [head.run]);
      const row = head.meta.variant === "base" ? `unchanged, burst: ${burstOf(base, head)}` : `${head.meta.variant}${burstOf(base, head) === "none" ? "" : " (burst)"}`;
      count(`1v1 ${base.meta.id} → ${head.meta.id}`, tallyOf(FIRST, row), answer, head.meta.variant, truth, factors, names(head.run), exactChanges(base.run, head.run));
    }
  }
  // History: a run against the base runs before it (main's series).
  for (const head of singles) {
    const before = bases.filter(({ meta }) => meta.seq < head.meta.seq).slice(-10);
    if (before.length < 5) continue;
    const answer = judge(before.map(({ run }) => run).reverse(), [head.run]);
    const row = head.meta.variant === "base" ? `unchanged, burst: ${burstOf(head)}` : `${head.meta.variant}${burstOf(head) === "none" ? "" : " (burst)"}`;
    count(`history → ${head.meta.id}`, tallyOf(HISTORY, row), answer, head.meta.variant, truth, factors, names(head.run), exactChanges(before.at(-1)!.run, head.run));
  }
  // A/B jobs, pair by pair.
  const jobs = new Map<string, EvalRun[]>();
  for (const run of runs.filter(({ meta }) => meta.kind === "ab")) jobs.set(run.meta.job!, [...(jobs.get(run.meta.job!) ?? []), run]);
  for (const [job, jobRuns] of jobs) {
    const headVariant = (jobRuns.find(({ meta }) => meta.side === "head")?.meta.variant ?? "base");
    const pairs = Math.max(...jobRuns.map(({ meta }) => meta.pair ?? 0));
    // The series' history a pull request's job has: main's runs before the job (as the upload reads them).
    const firstSeq = Math.min(...jobRuns.map(({ meta }) => meta.seq));
    const history = bases.filter(({ meta }) => meta.seq < firstSeq).slice(-10).map(({ run }) => run);
    let answer: ReturnType<typeof judge> | null = null;
    let used = 0;
    for (let pair = 1; pair <= pairs; pair++) {
      const sofar = jobRuns.filter(({ meta }) => (meta.pair ?? 0) <= pair);
      const base = sofar.filter(({ meta }) => meta.side === "base");
      const head = sofar.filter(({ meta }) => meta.side === "head");
      if (base.length === 0 || head.length === 0) continue;
      answer = judge(base.map(({ run }) => run), head.map(({ run }) => run), history);
      used = pair;
      const abRuns: AbJobRun[] = sofar.map(({ meta, run }) => ({ id: run.id, side: meta.side!, pair: meta.pair! }));
      const last = abRuns.at(-1)!;
      if (describeAbJob(job, last, abRuns, answer, answer.leaning).next === "stop") break;
    }
    if (!answer) continue;
    const first = (side: "base" | "head") => jobRuns.find(({ meta }) => meta.side === side)!.run;
    const row = headVariant === "base" ? `unchanged, burst: ${burstOf(...jobRuns)}` : `${headVariant}${burstOf(...jobRuns) === "none" ? "" : " (burst)"}`;
    const tally = tallyOf(AB, row);
    count(`A/B ${job} (${used} pairs)`, tally, answer, headVariant, truth, factors, names(first("head")), exactChanges(first("base"), first("head")));
    tally.pairsUsed.push(used);
  }
  return { truth, runs: runs.length, scenarios, factors };
}

const sets = DATA_SETS.filter((set) => existsSync(set.dir)).map((set) => ({
  ...set,
  results: SUITES.flatMap((truth) => {
    const started = Date.now();
    const result = evaluateSuite(set.dir, truth);
    if (result) console.error(`${set.name}, ${truth.suite}: ${result.runs} runs, ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return result ? [result] : [];
  }),
}));
const markdown = report(sets);
if (MARKDOWN) writeFileSync(MARKDOWN, `${markdown}\n`);
console.log(markdown);
