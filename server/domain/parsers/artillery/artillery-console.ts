/**
 * The console output of `artillery run` (artillery 2.x): only the final `Summary report @ HH:MM:SS(+ZZZZ)`
 * block (counters `name: ..... 599`, rates `name: ..... 48/sec`, summaries `name:` then indented
 * min/max/mean/median/p95/p99 — no count) and the ensure plugin's `Checks:` lines `ok: <expr>` /
 * `fail: <expr>[ (optional)]` (artillery-plugin-ensure). Names over 79 characters are cut to `…...`
 * (lib/util.js `padded`): such lines are skipped, noted. Endpoints, counts and run metrics:
 * `artillery-metrics.ts`.
 * - ensure checks (console): strict ones are thresholds (fail_on=thresholds acts on them); optional ones
 *   (`(optional)`, strict: false) never fail artillery's run, so they are checks, not thresholds.
 */
import { InputError } from "../../input-error";
import type { ParsedRun, ToolCheck, ToolThreshold } from "../../run";
import { buildArtilleryRun, type MetricView } from "./artillery-metrics";

/** chalk's colour codes (`ESC[32m`), present when the output was captured from a terminal. */
const ANSI_ESCAPE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");
const SUMMARY_HEADER = /^Summary report @ .+$/;
const RULE_LINE = /^-+$/;
/** `http.codes.200: ........ 599`, `http.request_rate: .... 48/sec`; a cut name ends with `...` instead of `:`. */
const VALUE_LINE = /^(\S.*?(?::|\.\.\.)) \.* (\S+)$/;
/** `  p95: ........ 22.9` under a summary. */
const STAT_LINE = /^ {2}(\w+): \.* (\S+)$/;
const SUMMARY_NAME = /^(\S.*):$/;
const CHECKS_HEADER = /^Checks:$/;
const CHECK_LINE = /^(ok|fail): (.+?)( \(optional\))?$/;
const NUMBER = /^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i;
/** A single comparison of one metric with a number, e.g. `http.response_time.p95 < 35`. */
const SIMPLE_CHECK = /^([A-Za-z_][\w.-]*)\s*(?:<=|>=|==|!=|<|>)\s*-?\d+(?:\.\d+)?$/;
/** ensure's legacy shorthands (`p95: 200` → `p95 < 200`) check `http.response_time.<stat>`. */
const LEGACY_CHECK_STATS = new Set(["min", "max", "median", "p95", "p99"]);

export function parseArtilleryConsole(text: string, source: string): ParsedRun {
  const { run, checkNotes } = readArtilleryConsole(text, source);
  return { ...run, notes: [...run.notes, ...checkNotes] };
}

export function readArtilleryConsole(text: string, source: string): { run: ParsedRun; checkNotes: string[] } {
  const lines = consoleLinesOf(text);
  const header = lines.findLastIndex((line) => SUMMARY_HEADER.test(line));
  if (header < 0)
    throw lineError(
      source,
      lines.length - 1,
      'no "Summary report @" block: the run did not finish or the output is cut',
    );
  const { view, cutNames } = readSummaryBlock(lines, header, source);
  const run = buildArtilleryRun("artillery-console", view, null);
  // artillery's rate is the mean of its window rates, which partial windows pull down (48/s where the JSON's
  // span gives 50.2/s): not the run's throughput, so the report's JSON and console would disagree. Kept as
  // what it is, a run metric.
  const requestRate = view.rates["http.request_rate"];
  if (requestRate !== undefined) run.metrics["http.request_rate"] = { value: requestRate, unit: "/s", better: null };
  const checks = readChecks(lines, header, source);
  run.thresholds = checks.thresholds;
  run.checks = checks.optional;
  if (cutNames > 0)
    run.notes.push(
      `${cutNames} metric name(s) longer than 79 characters were cut by artillery's console ("..."); their lines are skipped.`,
    );
  return { run, checkNotes: checks.notes };
}

function lineError(source: string, index: number, message: string): InputError {
  return new InputError("malformed", `Not valid artillery output: ${source}, line ${index + 1}: ${message}`, [
    { path: `${source}: line ${index + 1}`, message },
  ]);
}

function consoleLinesOf(text: string): string[] {
  return text.replace(ANSI_ESCAPE, "").split(/\r?\n/);
}

function readSummaryBlock(
  lines: readonly string[],
  header: number,
  source: string,
): { view: MetricView; cutNames: number } {
  let start = header + 1;
  while (start < lines.length && (RULE_LINE.test(lines[start] ?? "") || (lines[start] ?? "").trim() === "")) start++;
  let end = start;
  while (end < lines.length && (lines[end] ?? "").trim() !== "") end++;
  // Lines after the last metric-shaped one (`Log file: report.json`) are other output, not the block.
  let last = end - 1;
  while (last >= start && !isMetricShaped(lines[last] ?? "")) last--;
  const view: MetricView = { counters: {}, rates: {}, summaries: {} };
  let cutNames = 0;
  let summary: Record<string, number> | null = null;
  for (let index = start; index <= last; index++) {
    const line = lines[index] ?? "";
    const fail = (message: string): never => {
      throw lineError(source, index, message);
    };
    const valueOf = (raw: string): number =>
      NUMBER.test(raw) ? Number(raw) : fail(`"${raw.slice(0, 40)}" is not a number`);
    const stat = STAT_LINE.exec(line);
    const named = SUMMARY_NAME.exec(line);
    const counter = VALUE_LINE.exec(line);
    if (stat?.[1] !== undefined && stat[2] !== undefined) {
      if (summary === null) fail("a statistic outside a summary");
      else summary[stat[1]] = valueOf(stat[2]);
    } else if (named?.[1] !== undefined) {
      summary = {};
      view.summaries[named[1]] = summary;
    } else if (counter?.[1] !== undefined && counter[2] !== undefined) {
      summary = null;
      const [label, raw] = [counter[1], counter[2]];
      const rate = /^(.+)\/sec$/.exec(raw)?.[1];
      const value = valueOf(rate ?? raw);
      if (label.endsWith("...")) cutNames++;
      else (rate === undefined ? view.counters : view.rates)[label.slice(0, -1)] = value;
    } else fail("expected `name: ..... value`, `name:` or an indented statistic");
  }
  return { view, cutNames };
}

function isMetricShaped(line: string): boolean {
  return VALUE_LINE.test(line) || STAT_LINE.test(line) || SUMMARY_NAME.test(line) || /\S \.{3,} \S/.test(line);
}

/** The ensure plugin's `Checks:` section after the summary: `ok: <expr>` or `fail: <expr>[ (optional)]`. */
function readChecks(
  lines: readonly string[],
  header: number,
  source: string,
): { thresholds: ToolThreshold[]; optional: ToolCheck[]; notes: string[] } {
  const thresholds: ToolThreshold[] = [];
  // Optional checks (strict: false) never fail artillery's run, so they must not fail CI either: they are
  // kept as checks (counted, shown), not as thresholds (which fail_on=thresholds acts on).
  const optional: ToolCheck[] = [];
  let optionalFailures = 0;
  const checksAt = lines.findLastIndex((line, index) => index > header && CHECKS_HEADER.test(line));
  for (let index = checksAt < 0 ? lines.length : checksAt + 1; index < lines.length; index++) {
    const line = lines[index] ?? "";
    if (line.trim() === "") continue;
    const [, verdict, expression, isOptional] = CHECK_LINE.exec(line) ?? [];
    if (verdict === undefined || expression === undefined) {
      if (thresholds.length + optional.length > 0) break; // the checks are over; whatever follows is other output
      throw lineError(source, index, "expected `ok: <expression>` or `fail: <expression>` after `Checks:`");
    }
    const passed = verdict === "ok";
    if (isOptional === undefined) thresholds.push({ metric: checkedMetricOf(expression), expression, passed });
    else {
      optional.push({ name: expression, group: "ensure (optional)", passes: passed ? 1 : 0, fails: passed ? 0 : 1 });
      if (!passed) optionalFailures++;
    }
  }
  const notes =
    optionalFailures > 0
      ? [
          `${optionalFailures} failed ensure check(s) are optional (strict: false): artillery did not fail the run for them.`,
        ]
      : [];
  return { thresholds, optional, notes };
}

function checkedMetricOf(expression: string): string {
  const metric = SIMPLE_CHECK.exec(expression.trim())?.[1];
  if (metric === undefined) return "ensure";
  return LEGACY_CHECK_STATS.has(metric) ? `http.response_time.${metric}` : metric;
}
