/**
 * The microbenchmark evaluation's tallies and its Markdown report (scripts/evaluate-benchmarks.ts runs the
 * runs through the gate; docs/benchmark-evaluation.md is what this writes).
 */
import path from "node:path";
import type { SuiteTruth } from "./micro-truth";

// ---- tallies ----

export interface Tally {
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
export type SizeBucket = "≥ 1.5x" | "1.3–1.5x" | "1.1–1.3x" | "< 1.1x";
export const BUCKETS: SizeBucket[] = ["≥ 1.5x", "1.3–1.5x", "1.1–1.3x", "< 1.1x"];
export const bucketOf = (factor: number): SizeBucket => (factor >= 1.5 ? "≥ 1.5x" : factor >= 1.3 ? "1.3–1.5x" : factor >= 1.1 ? "1.1–1.3x" : "< 1.1x");
export const emptyTally = (): Tally => ({
  pairs: 0,
  fail: 0,
  inconclusive: 0,
  namedUnchanged: 0,
  changed: Object.fromEntries(BUCKETS.map((bucket) => [bucket, { seen: 0, named: 0 }])) as Tally["changed"],
  exact: { seen: 0, named: 0 },
  exactFalse: 0,
  pairsUsed: [],
});

export interface SuiteResult {
  truth: SuiteTruth;
  runs: number;
  scenarios: Record<string, Record<string, Tally>>;
  factors: Map<string, number>;
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

export const FIRST = "first run (1 vs 1)";
export const HISTORY = "history (5–10 base runs)";
export const AB = "A/B jobs (≤ 4 pairs, ABBA)";
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

export function report(sets: readonly { name: string; dir: string; about: string; results: SuiteResult[] }[]): string {
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

