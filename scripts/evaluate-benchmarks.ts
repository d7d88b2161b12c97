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

// ---- tallies ----

interface Tally {
  pairs: number;
  fail: number;
  inconclusive: number;
  /** Pairs that named an unchanged benchmark as worse. */
  namedUnchanged: number;
  /** Changed benchmarks (occurrences) by size, and how many were named. */
  changed: Record<SizeBucket, { seen: number; named: number }>;
  /** Benchmarks whose exact count changed, and how many were named. */
  exact: { seen: number; named: number };
  /** Pairs that named an exact change of a benchmark whose counts did not change (a false alarm from counts). */
  exactFalse: number;
  /** For A/B jobs: pairs used. */
  pairsUsed: number[];
}
type SizeBucket = "≥ 1.5x" | "1.3–1.5x" | "1.1–1.3x" | "< 1.1x";
const BUCKETS: SizeBucket[] = ["≥ 1.5x", "1.3–1.5x", "1.1–1.3x", "< 1.1x"];
const bucketOf = (factor: number): SizeBucket => (factor >= 1.5 ? "≥ 1.5x" : factor >= 1.3 ? "1.3–1.5x" : factor >= 1.1 ? "1.1–1.3x" : "< 1.1x");
const emptyTally = (): Tally => ({
  pairs: 0,
  fail: 0,
  inconclusive: 0,
  namedUnchanged: 0,
  changed: Object.fromEntries(BUCKETS.map((bucket) => [bucket, { seen: 0, named: 0 }])) as Tally["changed"],
  exact: { seen: 0, named: 0 },
  exactFalse: 0,
  pairsUsed: [],
});

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

interface SuiteResult {
  truth: SuiteTruth;
  runs: number;
  scenarios: Record<string, Record<string, Tally>>;
  factors: Map<string, number>;
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
      count(`1v1 ${base.meta.id} → ${head.meta.id}`, tallyOf("first run (1 vs 1)", row), answer, head.meta.variant, truth, factors, names(head.run), exactChanges(base.run, head.run));
    }
  }
  // History: a run against the base runs before it (main's series).
  for (const head of singles) {
    const before = bases.filter(({ meta }) => meta.seq < head.meta.seq).slice(-10);
    if (before.length < 5) continue;
    const answer = judge(before.map(({ run }) => run).reverse(), [head.run]);
    const row = head.meta.variant === "base" ? `unchanged, burst: ${burstOf(head)}` : `${head.meta.variant}${burstOf(head) === "none" ? "" : " (burst)"}`;
    count(`history → ${head.meta.id}`, tallyOf("history (5–10 base runs)", row), answer, head.meta.variant, truth, factors, names(head.run), exactChanges(before.at(-1)!.run, head.run));
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
    const tally = tallyOf("A/B jobs (≤ 4 pairs, ABBA)", row);
    count(`A/B ${job} (${used} pairs)`, tally, answer, headVariant, truth, factors, names(first("head")), exactChanges(first("base"), first("head")));
    tally.pairsUsed.push(used);
  }
  return { truth, runs: runs.length, scenarios, factors };
}

// ---- report ----

const pct = (part: number, whole: number) => (whole === 0 ? "—" : `${((100 * part) / whole).toFixed(1)}% (${part}/${whole})`);

/** Rows of a scenario summed over some of its row names. */
function sumRows(rows: Record<string, Tally> | undefined, pick: (row: string) => boolean): Tally {
  const sum = emptyTally();
  for (const [row, tally] of Object.entries(rows ?? {})) {
    if (!pick(row)) continue;
    sum.pairs += tally.pairs;
    sum.fail += tally.fail;
    sum.inconclusive += tally.inconclusive;
    sum.namedUnchanged += tally.namedUnchanged;
    sum.exact.seen += tally.exact.seen;
    sum.exact.named += tally.exact.named;
    sum.exactFalse += tally.exactFalse;
    sum.pairsUsed.push(...tally.pairsUsed);
    for (const bucket of BUCKETS) {
      sum.changed[bucket].seen += tally.changed[bucket].seen;
      sum.changed[bucket].named += tally.changed[bucket].named;
    }
  }
  return sum;
}

const FIRST = "first run (1 vs 1)";
const HISTORY = "history (5–10 base runs)";
const AB = "A/B jobs (≤ 4 pairs, ABBA)";
const isUnchanged = (row: string) => row.startsWith("unchanged");

/** The issue's targets, per suite: one row each, the figure and whether it is met. */
function targetRows(results: readonly SuiteResult[]): string[] {
  const lines = [
    "| suite | unchanged 1 vs 1: fail (≤ 1%) · inconclusive (≤ 10%) | unchanged, history: fail · inconclusive | whole-run burst: fails (0) | changed ≥ 1.5x named, 1 vs 1 (≥ 95%) | 1.3–1.5x named: A/B (≥ 95%) · 1 vs 1 | exact counts named (100%) · false from counts (0) | A/B unchanged: fail · inconclusive · mean pairs | changed: the run fails, 1 vs 1 · A/B |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  const rate = (part: number, whole: number) => (whole === 0 ? "—" : `${((100 * part) / whole).toFixed(1)}%`);
  for (const result of results) {
    const first = result.scenarios[FIRST];
    const history = result.scenarios[HISTORY];
    const ab = result.scenarios[AB];
    const u1 = sumRows(first, isUnchanged);
    const uh = sumRows(history, isUnchanged);
    const burst = sumRows(first, (row) => row === "unchanged, burst: whole");
    const burstHistory = sumRows(history, (row) => row === "unchanged, burst: whole");
    const c1 = sumRows(first, (row) => !isUnchanged(row));
    const cab = sumRows(ab, (row) => !isUnchanged(row));
    const uab = sumRows(ab, isUnchanged);
    const all = sumRows(first, () => true);
    const allHistory = sumRows(history, () => true);
    const meanPairs = uab.pairsUsed.length === 0 ? "—" : (uab.pairsUsed.reduce((sum, value) => sum + value, 0) / uab.pairsUsed.length).toFixed(2);
    const big = c1.changed["≥ 1.5x"];
    lines.push(
      `| ${result.truth.suite} | ${rate(u1.fail, u1.pairs)} · ${rate(u1.inconclusive, u1.pairs)} (${u1.pairs}) | ${rate(uh.fail, uh.pairs)} · ${rate(uh.inconclusive, uh.pairs)} (${uh.pairs}) | ${burst.fail + burstHistory.fail} of ${burst.pairs + burstHistory.pairs} | ${rate(big.named, big.seen)} (${big.seen}) | ${rate(cab.changed["1.3–1.5x"].named, cab.changed["1.3–1.5x"].seen)} (${cab.changed["1.3–1.5x"].seen}) · ${rate(c1.changed["1.3–1.5x"].named, c1.changed["1.3–1.5x"].seen)} (${c1.changed["1.3–1.5x"].seen}) | ${rate(all.exact.named + allHistory.exact.named, all.exact.seen + allHistory.exact.seen)} · ${all.exactFalse + allHistory.exactFalse} | ${rate(uab.fail, uab.pairs)} · ${rate(uab.inconclusive, uab.pairs)} · ${meanPairs} (${uab.pairs}) | ${rate(c1.fail, c1.pairs)} (${c1.pairs}) · ${rate(cab.fail, cab.pairs)} (${cab.pairs}) |`,
    );
  }
  return lines;
}

function report(sets: readonly { name: string; dir: string; about: string; results: SuiteResult[] }[]): string {
  const lines: string[] = [];
  lines.push("# Microbenchmark gate evaluation", "");
  lines.push(
    "Written by `scripts/evaluate-benchmarks.ts`; every figure below is the program's output. Do not edit by hand: run it again.",
    "",
    `- Command: \`npx tsx scripts/evaluate-benchmarks.ts --markdown docs/benchmark-evaluation.md\``,
    `- Data: ${sets.map((set) => `**${set.name}**, \`${path.relative(process.cwd(), set.dir) || "."}\`: ${set.about}`).join("; ")}. What each variant changed: scripts/evaluate/micro/README.md and scripts/evaluate/micro-truth.ts (the harness reads only that and the files, never a path or a number, to know what changed).`,
    "- Gate: the project defaults (α = 0.01, minimum effect 5%, gate metric auto, fail_on = regression), the pure path the upload calls (`decideFromRuns`).",
    "- Named: the answer lists the benchmark as worse (regressed, exact or undecided). A pair names an unchanged benchmark when any benchmark the variant did not change is listed as worse.",
    "- Sizes: a changed benchmark's factor is the median of head/base over its variant's A/B pairs without a burst (else of its single runs over base's), on the same machine.",
    "",
  );
  for (const set of sets) {
    lines.push(`## ${set.name[0]!.toUpperCase()}${set.name.slice(1)}: the targets`, "", ...targetRows(set.results), "");
  }
  for (const set of sets) {
    lines.push(`## ${set.name[0]!.toUpperCase()}${set.name.slice(1)}: every figure`, "");
    for (const result of set.results) appendSuite(lines, result);
  }
  return lines.join("\n");
}

function appendSuite(lines: string[], result: SuiteResult): void {
  {
    lines.push(`### ${result.truth.suite}`, "", `${result.runs} runs read.`, "");
    for (const [scenario, rows] of Object.entries(result.scenarios)) {
      lines.push(`#### ${scenario}`, "");
      lines.push("| pairs | n | fail | inconclusive | named an unchanged benchmark | changed ≥ 1.5x named | 1.3–1.5x named | 1.1–1.3x named | exact counts named | mean pairs |");
      lines.push("| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: |");
      for (const [row, tally] of Object.entries(rows).sort(([a], [b]) => a.localeCompare(b))) {
        const bucket = (name: SizeBucket) => pct(tally.changed[name].named, tally.changed[name].seen);
        const pairs = tally.pairsUsed.length === 0 ? "—" : (tally.pairsUsed.reduce((sum, value) => sum + value, 0) / tally.pairsUsed.length).toFixed(2);
        lines.push(
          `| ${row} | ${tally.pairs} | ${pct(tally.fail, tally.pairs)} | ${pct(tally.inconclusive, tally.pairs)} | ${pct(tally.namedUnchanged, tally.pairs)} | ${bucket("≥ 1.5x")} | ${bucket("1.3–1.5x")} | ${bucket("1.1–1.3x")} | ${pct(tally.exact.named, tally.exact.seen)} | ${pairs} |`,
        );
      }
      lines.push("");
    }
    lines.push("Measured factors of the changed benchmarks:", "");
    lines.push(
      [...result.factors.entries()]
        .map(([key, factor]) => {
          const [variant, name] = key.split("\u0000");
          return `${variant}: \`${name}\` ${factor.toFixed(2)}x`;
        })
        .join(" · "),
      "",
    );
  }
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
