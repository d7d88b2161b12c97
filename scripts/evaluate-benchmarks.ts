/**
 * How one benchmark run against one is judged on real runs (docs/benchmarks.md, "Statistics"): every
 * pair of the demo's real go test -bench runs (scripts/seed/go-bench/runs: 9 of the package as it is, 7
 * with JoinInts rewritten slower), compared as the compare page and the CI gate compare them (compareRuns,
 * the default options: α 0.01 over the benchmarks, 5% minimum effect), with no history.
 *
 *   npx tsx scripts/evaluate-benchmarks.ts      (npm run evaluate:benchmarks)
 *
 * Prints, for pairs of two unchanged runs: how many pairs call any benchmark regressed (a false alarm) or
 * improved, and how many are inconclusive; for (unchanged base, slower head) pairs: how often JoinInts is
 * regressed, how often any other benchmark is called regressed, and how often the comparison is inconclusive.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { compareRuns } from "../server/domain/compare/compare-runs";
import type { ComparableRun } from "../server/domain/compare/comparison";
import { DEFAULT_COMPARE_OPTIONS } from "../server/domain/compare/comparison";
import { comparableUpload } from "../server/domain/compare/comparable-run.fixture";

const RUNS = path.resolve(import.meta.dirname, "seed/go-bench/runs");
const CHANGED = "BenchmarkJoinInts";

const load = (file: string) => comparableUpload(file, readFileSync(path.join(RUNS, file), "utf8"));

const files = readdirSync(RUNS).sort();
const baseline = files.filter((file) => file.startsWith("baseline-")).map(load);
const slow = files.filter((file) => file.startsWith("slow-joinints-")).map(load);
const isChanged = (name: string) => name.endsWith(` > ${CHANGED}`);

function tally(pairs: [ComparableRun, ComparableRun][]) {
  const counts = { pairs: pairs.length, verdicts: { regressed: 0, improved: 0, unchanged: 0, inconclusive: 0 }, changedRegressed: 0, otherRegressed: 0, otherImproved: 0 };
  for (const [base, head] of pairs) {
    const comparison = compareRuns([base], [head], DEFAULT_COMPARE_OPTIONS);
    counts.verdicts[comparison.verdict]++;
    if (comparison.endpoints.some((endpoint) => isChanged(endpoint.name) && endpoint.verdict === "regressed")) counts.changedRegressed++;
    if (comparison.endpoints.some((endpoint) => !isChanged(endpoint.name) && endpoint.verdict === "regressed")) counts.otherRegressed++;
    if (comparison.endpoints.some((endpoint) => !isChanged(endpoint.name) && endpoint.verdict === "improved")) counts.otherImproved++;
  }
  return counts;
}

const unchangedPairs = baseline.flatMap((base, i) => baseline.filter((_, j) => j !== i).map((head) => [base, head] as [ComparableRun, ComparableRun]));
const changedPairs = baseline.flatMap((base) => slow.map((head) => [base, head] as [ComparableRun, ComparableRun]));
const unchanged = tally(unchangedPairs);
const changed = tally(changedPairs);
const pct = (count: number, of: number) => `${count}/${of} (${((100 * count) / of).toFixed(0)}%)`;
console.log(`go test -bench, one run against one, ${baseline.length} unchanged runs and ${slow.length} with ${CHANGED} slower (scripts/seed/go-bench/runs)`);
console.log(`unchanged vs unchanged (${unchanged.pairs} ordered pairs): any benchmark regressed ${pct(unchanged.otherRegressed, unchanged.pairs)}, any improved ${pct(unchanged.otherImproved, unchanged.pairs)}, comparison inconclusive ${pct(unchanged.verdicts.inconclusive, unchanged.pairs)}`);
console.log(`unchanged vs slower ${CHANGED} (${changed.pairs} pairs): ${CHANGED} regressed ${pct(changed.changedRegressed, changed.pairs)}, another benchmark regressed ${pct(changed.otherRegressed, changed.pairs)}, comparison inconclusive ${pct(changed.verdicts.inconclusive, changed.pairs)}`);
