/**
 * benchmark.js results as `String(bench)` prints them (benchmark 2.1.4 `toStringBench`), one line per
 * benchmark, as a suite's `on('cycle', e => console.log(String(e.target)))` writes them:
 *
 *   sort#1000 x 38,523 ops/sec ±1.36% (41 runs sampled)
 *
 * = name, `hz` (ops/s, `hz.toFixed(hz < 100 ? 2 : 0)` with thousands commas), the relative margin of
 * error `rme` (`toFixed(2)` %), and the sample size. Older releases print `+/-` for `±` on Java hosts.
 * `Fastest is …` and every other line (the script's own output) are ignored. benchmark.js keeps no
 * sample in the text, so each benchmark keeps what the line states:
 *
 * - time per operation: the mean, 1000 / hz ms (benchmark.js sets hz = 1 / mean of its sampled periods);
 * - samples: the runs sampled;
 * - ops/s: hz as printed;
 * - standard deviation: from rme. benchmark.js computes sem = sd / √n, moe = sem · t(df = n − 1) and
 *   rme = 100 · moe / mean, with t from its two-sided 95% `tTable` (df 1…30, to 3 decimals; 1.96, its
 *   "infinity", for df > 30). So sd = (rme / 100) · mean / t · √n, with t = the 97.5% quantile of
 *   Student's t (@stdlib, `twoSidedTCritical(0.95, df)`) for df ≤ 30 — the exact values benchmark.js's
 *   table rounds to 3 decimals (12.706, 4.303 … 2.042; the difference is below 0.0005/2.042 = 0.02% of
 *   sd, far under what rme's 2 printed decimals already blur) — and 1.96 above 30, as benchmark.js uses
 *   there rather than the exact t.
 *
 * Min, max and percentiles are not in the text and stay null. The text states no testbed.
 */
import { InputError } from "../../input-error";
import type { EndpointResult, ParsedRun } from "../../run";
import { twoSidedTCritical } from "../../stats/t-distribution";
import { benchmarkResult, benchmarkRun } from "../benchmark";
import { forEachLine } from "../text-lines";
import { benchmarkLimit } from "../validate";

/** benchmark.js's t for df > 30 (its tTable's `infinity`). */
const BENCHMARKJS_T_INFINITY = 1.96;
/** The largest df in benchmark.js's tTable. */
const BENCHMARKJS_T_TABLE_MAX_DF = 30;

/** The part after the name: `38,523 ops/sec ±1.36% (41 runs sampled)` (anchored; no nested repetition). */
const RESULT_TAIL = /^(\d{1,3}(?:,\d{3})*(?:\.\d+)?) ops\/sec (?:±|\+\/-)(\d+(?:\.\d+)?)% \((\d+) runs? sampled\)$/;
const NAME_SEPARATOR = " x ";
/** A line is taken for a result once " ops/sec" follows the last " x ": it must then be a whole one. */
const RESULT_MARK = " ops/sec";
const MARKER_WINDOW = 64 * 1024;

/** The t benchmark.js used for `runs` samples (see the header: its tTable, from @stdlib's quantiles). */
export function benchmarkjsCriticalValue(runs: number): number {
  // benchmark.js: tTable[Math.round(df) || 1] || tTable.infinity, df = n − 1.
  const df = Math.max(1, runs - 1);
  return df > BENCHMARKJS_T_TABLE_MAX_DF ? BENCHMARKJS_T_INFINITY : twoSidedTCritical(0.95, df);
}

interface BenchmarkjsLine {
  name: string;
  hz: number;
  rmePercent: number;
  runs: number;
}

/** One `String(bench)` line, or null for any other line; a line that starts as one but breaks off throws. */
function readResultLine(line: string, where: string): BenchmarkjsLine | null {
  const separator = line.lastIndexOf(NAME_SEPARATOR);
  if (separator <= 0) return null;
  const tail = line.slice(separator + NAME_SEPARATOR.length).trimEnd();
  if (!tail.includes(RESULT_MARK)) return null;
  const match = RESULT_TAIL.exec(tail);
  if (!match) {
    throw malformed(
      where,
      `expected "<name> x <ops/s> ops/sec ±<rme>% (<n> runs sampled)", got "… x ${tail.slice(0, 80)}" (cut short?)`,
    );
  }
  const [, hzText = "", rmeText = "", runsText = ""] = match;
  const hz = Number(hzText.replaceAll(",", ""));
  const runs = Number(runsText);
  if (!(hz > 0) || !Number.isFinite(hz)) throw malformed(where, `${hzText} ops/sec: a benchmark's rate must be > 0`);
  if (!(runs >= 1) || !Number.isSafeInteger(runs))
    throw malformed(where, `${runsText} runs sampled: expected at least 1`);
  return { name: line.slice(0, separator).trim(), hz, rmePercent: Number(rmeText), runs };
}

function malformed(where: string, message: string): InputError {
  return new InputError("malformed", `Not valid benchmark.js output (${where}: ${message})`, [
    { path: where, message },
  ]);
}

/** Whether a text starts with benchmark.js result lines (`name x 1,234 ops/sec ±1.36% (41 runs sampled)`). */
export function isBenchmarkjsText(start: string): boolean {
  let found = false;
  forEachLine(start.slice(0, MARKER_WINDOW), (line) => {
    if (found) return;
    const separator = line.lastIndexOf(NAME_SEPARATOR);
    found = separator > 0 && RESULT_TAIL.test(line.slice(separator + NAME_SEPARATOR.length).trimEnd());
  });
  return found;
}

export function parseBenchmarkjsText(text: string, source: string): ParsedRun {
  const results: EndpointResult[] = [];
  forEachLine(text, (line, lineNumber) => {
    const result = readResultLine(line, `${source}: line ${lineNumber}`);
    if (!result) return;
    benchmarkLimit(results.length + 1, `${source}: line ${lineNumber}`);
    results.push(benchmarkOf(result));
  });
  return benchmarkRun("benchmarkjs-text", "benchmarkjs", results);
}

function benchmarkOf({ name, hz, rmePercent, runs }: BenchmarkjsLine): EndpointResult {
  const meanMs = 1000 / hz;
  const semMs = ((rmePercent / 100) * meanMs) / benchmarkjsCriticalValue(runs);
  return benchmarkResult({
    name,
    summary: { meanMs, stdDevMs: runs >= 2 ? semMs * Math.sqrt(runs) : null, samples: runs },
    opsPerSecond: hz,
  });
}
