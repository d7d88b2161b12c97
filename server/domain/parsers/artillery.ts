/**
 * artillery 2.x results: `--output report.json`, the console output of `artillery run`, or both together.
 * - report.json: `{aggregate, intermediate[]}`, each with `counters`, `rates`, `summaries` (`{min, max,
 *   count, mean, p50, median, p75, p90, p95, p99, p999}` in ms) and `firstMetricAt`/`lastMetricAt` (epoch
 *   ms). `intermediate[]` are artillery's 10 s windows (SSMS `normalizeTs`), `period` being the window's
 *   wall-clock-aligned start, so the first and last are partial; `period` is a string there, and each
 *   carries a stray top-level `"http.request_rate": null` (SSMS mergeBuckets' quirk), ignored.
 * - console: only the final `Summary report @ HH:MM:SS(+ZZZZ)` block (counters `name: ..... 599`, rates
 *   `name: ..... 48/sec`, summaries `name:` then indented min/max/mean/median/p95/p99 — no count) and the
 *   ensure plugin's `Checks:` lines `ok: <expr>` / `fail: <expr>[ (optional)]` (artillery-plugin-ensure).
 *   Names over 79 characters are cut to `…...` (lib/util.js `padded`): such lines are skipped, noted.
 *
 * Endpoints are the metrics-by-endpoint plugin's (default namespace): summaries
 * `plugins.metrics-by-endpoint.response_time.<Name>`, counters `….<Name>.codes.<status>` and, from its
 * onError hook, `….<Name>.errors.<code>`. Name as the plugin writes it (the request's `name` with
 * useOnlyRequestNames, else its path); method unknown. Without the plugin: the aggregate only.
 * - requests: an endpoint's responses (summary count; the console has none, so its codes' sum) plus its
 *   errors (no response); the aggregate's `http.requests` (else its codes' and errors' sum).
 * - failures: responses with status ≥ 400 plus errors (`errors.<code>` for the aggregate, where artillery
 *   also counts e.g. failed captures: failures of the scenario step too).
 * - throughput (JSON): requests / the run's span, firstMetricAt → lastMetricAt. artillery's own
 *   `http.request_rate` is the mean of its per-window rates (SSMS `pack`), pulled down by the partial
 *   windows (48/s for 600 requests in 11.9 s); the console gives no span, so its throughput stays null and
 *   that rate is kept as the run metric `http.request_rate` (what it is, not the run's throughput).
 * - ensure checks (console): strict ones are thresholds (fail_on=thresholds acts on them); optional ones
 *   (`(optional)`, strict: false) never fail artillery's run, so they are checks, not thresholds.
 * - timeline (JSON): a point per window clipped to the run: atMs = its end, requests and failures per
 *   second, p50/p95. No users: artillery drives arrivals (an open model) and reports no concurrency;
 *   sessions still in flight at a window's end (created − completed − failed) are mostly 0 and say little.
 * Percentiles are DDSketch estimates (1 % relative accuracy) rounded to 0.1 ms; no stdDev. Run metrics:
 * vusers created/completed/failed and the mean session length. Dropped: the `.2xx`/`.5xx` splits, bytes
 * downloaded, server-timing summaries, other plugins' metrics, the console's intermediate blocks.
 */
import { z } from "zod";
import { InputError } from "../input-error";
import {
  AGGREGATE_NAME,
  emptyEndpoint,
  emptyRun,
  type Better,
  type CustomMetric,
  type EndpointResult,
  type FormatId,
  type LatencySummary,
  type ParsedRun,
  type TimelinePoint,
  type ToolCheck,
  type ToolThreshold,
} from "../run";
import { sourceOf, type DetectedFile } from "./uploaded-file";
import { parseWire } from "./wire";

const ENDPOINT_TIME_PREFIX = "plugins.metrics-by-endpoint.response_time.";
const ENDPOINT_COUNTER = /^plugins\.metrics-by-endpoint\.(.+)\.(codes|errors)\.([^.]+)$/;
/** SSMS `normalizeTs` windows, fixed at 10 s (the console reporter also labels them `period + 10 s`). */
const PERIOD_MS = 10_000;

const numberMap = z.record(z.string(), z.number().nullable());
/** Epoch milliseconds a date can hold (to year 275760). */
const epochMs = z.number().min(0).max(8.64e15);
const periodSchema = z.object({
  // Not nonnegative: a script's own counters may go down.
  counters: z.record(z.string(), z.number()).optional(),
  rates: numberMap.optional(),
  summaries: z.record(z.string(), numberMap).optional(),
  firstMetricAt: epochMs.optional(),
  lastMetricAt: epochMs.optional(),
  period: z.union([
    epochMs,
    z
      .string()
      .regex(/^\d{1,16}$/, "expected epoch milliseconds")
      .transform(Number)
      .pipe(epochMs),
  ]),
});
type ArtilleryPeriod = z.infer<typeof periodSchema>;

export const artilleryReportSchema = z.object({
  aggregate: periodSchema.extend({ period: periodSchema.shape.period.optional() }),
  intermediate: z.array(periodSchema).default([]),
});

/** What both formats give for the run or one window. */
interface MetricView {
  counters: Record<string, number>;
  rates: Record<string, number>;
  summaries: Record<string, Record<string, number>>;
}

/** One endpoint's (or the aggregate's) counts in a view. */
interface Tally {
  requests: number | null;
  failures: number | null;
  summary: Record<string, number> | undefined;
  codes: Record<string, number>;
  errors: Record<string, number>;
}

export function parseArtilleryJson(document: unknown): ParsedRun {
  return readArtilleryJson(document, "");
}

function readArtilleryJson(document: unknown, pathPrefix: string): ParsedRun {
  const report = parseWire(artilleryReportSchema, document, "artillery report.json", pathPrefix);
  const { firstMetricAt: first, lastMetricAt: last } = report.aggregate;
  const spanMs = first !== undefined && last !== undefined && last > first ? last - first : null;
  const run = buildRun("artillery-json", viewOf(report.aggregate), spanMs);
  if (first !== undefined) run.startedAt = new Date(first).toISOString();
  run.durationSeconds = spanMs === null ? null : spanMs / 1000;
  const periods = [...report.intermediate].sort((a, b) => a.period - b.period);
  if (periods.length > 0) attachTimelines(run, periods, first ?? null, last ?? null);
  return run;
}

function viewOf(period: Pick<ArtilleryPeriod, "counters" | "rates" | "summaries">): MetricView {
  const summaries: MetricView["summaries"] = {};
  for (const [name, stats] of Object.entries(period.summaries ?? {})) summaries[name] = withoutNulls(stats);
  return { counters: period.counters ?? {}, rates: withoutNulls(period.rates ?? {}), summaries };
}

function withoutNulls(values: Record<string, number | null>): Record<string, number> {
  return Object.fromEntries(Object.entries(values).filter((entry): entry is [string, number] => entry[1] !== null));
}

function buildRun(format: FormatId, view: MetricView, spanMs: number | null): ParsedRun {
  const endpoints = [...endpointTallies(view)].map(([name, tally]) => resultOf(name, tally, spanMs));
  const tally = aggregateTally(view);
  const hasHttp = "http.requests" in view.counters || (tally.requests ?? 0) > 0; // not a websocket-only run
  const aggregate = resultOf(AGGREGATE_NAME, hasHttp ? tally : { ...tally, requests: null, failures: null }, spanMs);
  const run: ParsedRun = { ...emptyRun(format, "artillery"), endpoints, aggregate, metrics: runMetricsOf(view) };
  run.environment.config.protocol = "http";
  if (endpoints.length === 0)
    run.notes.push("No metrics-by-endpoint data in this artillery output: only the all-endpoints numbers are kept.");
  for (const result of [...endpoints, aggregate]) {
    if (result.requests === null || result.failures === null || result.failures <= result.requests) continue;
    run.notes.push(
      `${result.name === AGGREGATE_NAME ? "All endpoints" : result.name}: artillery counted ${result.failures} failures (error responses plus errors such as failed captures, which can fall on the same responses) for ${result.requests} requests; failures are capped at the requests.`,
    );
    result.failures = result.requests;
  }
  const errorTotal = sum(tally.errors);
  if (errorTotal > 0) {
    const listed = Object.entries(tally.errors)
      .map(([code, n]) => `${code} ×${n}`)
      .join(", ");
    run.notes.push(`artillery recorded ${errorTotal} error(s) (${listed}); counted as failures.`);
  }
  return run;
}

function aggregateTally(view: MetricView): Tally {
  const codes = countersUnder(view.counters, "http.codes.");
  const errors = countersUnder(view.counters, "errors.");
  const requests = view.counters["http.requests"] ?? sum(codes) + sum(errors); // a window of no requests has no counter
  return {
    requests,
    failures: failuresOf(codes, errors),
    summary: view.summaries["http.response_time"],
    codes,
    errors,
  };
}

/** The plugin's endpoints in order of appearance, from its summaries and its counters. */
function endpointTallies(view: MetricView): Map<string, Tally> {
  const names = new Set<string>();
  for (const key of Object.keys(view.summaries))
    if (key.startsWith(ENDPOINT_TIME_PREFIX)) names.add(key.slice(ENDPOINT_TIME_PREFIX.length));
  const counts = new Map<string, { codes: Record<string, number>; errors: Record<string, number> }>();
  for (const [key, value] of Object.entries(view.counters)) {
    const [, name, kind, code] = ENDPOINT_COUNTER.exec(key) ?? [];
    if (name === undefined || code === undefined) continue;
    names.add(name);
    const entry = counts.get(name) ?? { codes: {}, errors: {} };
    entry[kind === "codes" ? "codes" : "errors"][code] = value;
    counts.set(name, entry);
  }
  const tallies = new Map<string, Tally>();
  for (const name of names) {
    const { codes, errors } = counts.get(name) ?? { codes: {}, errors: {} };
    const summary = view.summaries[`${ENDPOINT_TIME_PREFIX}${name}`];
    const responses = summary?.count ?? sum(codes);
    tallies.set(name, {
      requests: responses + sum(errors),
      failures: failuresOf(codes, errors),
      summary,
      codes,
      errors,
    });
  }
  return tallies;
}

function resultOf(name: string, tally: Tally, spanMs: number | null): EndpointResult {
  const result = emptyEndpoint(name);
  result.protocol = "http";
  result.requests = tally.requests;
  result.failures = tally.failures;
  result.throughput = tally.requests === null || spanMs === null ? null : tally.requests / (spanMs / 1000);
  result.latency = latencyOf(tally.summary);
  result.statusCodes = { ...tally.codes };
  result.errors = { ...tally.errors };
  return result;
}

function latencyOf(summary: Record<string, number> | undefined): LatencySummary {
  const percentiles: Record<string, number> = {};
  for (const [stat, value] of Object.entries(summary ?? {})) {
    const key = percentileKeyOf(stat);
    if (key !== null && !(stat === "median" && "p50" in (summary ?? {}))) percentiles[key] = value;
  }
  return {
    minMs: summary?.min ?? null,
    meanMs: summary?.mean ?? null,
    maxMs: summary?.max ?? null,
    stdDevMs: null,
    percentiles,
  };
}

/** artillery's stat names: `median`/`p50` → "50", `p95` → "95", `p999` → "99.9". */
function percentileKeyOf(stat: string): string | null {
  if (stat === "median") return "50";
  const digits = /^p(\d+)$/.exec(stat)?.[1];
  if (digits === undefined) return null;
  return String(
    digits.length <= 2 || digits === "100" ? Number(digits) : Number(`${digits.slice(0, 2)}.${digits.slice(2)}`),
  );
}

function countersUnder(counters: Record<string, number>, prefix: string): Record<string, number> {
  const found: Record<string, number> = {};
  for (const [key, value] of Object.entries(counters))
    if (key.startsWith(prefix) && key.length > prefix.length) found[key.slice(prefix.length)] = value;
  return found;
}

function failuresOf(codes: Record<string, number>, errors: Record<string, number>): number {
  return Object.entries(codes).reduce((total, [code, n]) => total + (Number(code) >= 400 ? n : 0), 0) + sum(errors);
}

function sum(counts: Record<string, number>): number {
  return Object.values(counts).reduce((total, n) => total + n, 0);
}

const VUSER_COUNTERS: readonly (readonly [string, Better | null])[] = [
  ["vusers.created", null],
  ["vusers.completed", null],
  ["vusers.failed", "lower"],
];

function runMetricsOf(view: MetricView): Record<string, CustomMetric> {
  const metrics: Record<string, CustomMetric> = {};
  for (const [name, better] of VUSER_COUNTERS) {
    const value = view.counters[name];
    if (value !== undefined) metrics[name] = { value, unit: "vusers", better };
  }
  const sessionMean = view.summaries["vusers.session_length"]?.mean;
  if (sessionMean !== undefined)
    metrics["vusers.session_length mean"] = { value: sessionMean, unit: "ms", better: null };
  return metrics;
}

function attachTimelines(
  run: ParsedRun,
  periods: readonly ArtilleryPeriod[],
  runFirst: number | null,
  runLast: number | null,
): void {
  const slices = periods.map((period) => {
    const view = viewOf(period);
    // The window, clipped to the run: the first and last windows are partial.
    const startMs = Math.max(period.period, runFirst ?? period.period);
    const endMs = Math.min(period.period + PERIOD_MS, runLast ?? period.period + PERIOD_MS);
    return { view, startMs, endMs, endpoints: endpointTallies(view) };
  });
  const pointOf = (slice: (typeof slices)[number], tally: Tally | undefined): TimelinePoint => {
    const seconds = (slice.endMs - slice.startMs) / 1000;
    const rate = (n: number): number | null => (seconds > 0 ? n / seconds : null);
    return {
      atMs: slice.endMs,
      requestsPerSecond: rate(tally?.requests ?? 0),
      failuresPerSecond: rate(tally?.failures ?? 0),
      p50Ms: tally?.summary?.p50 ?? tally?.summary?.median ?? null,
      p95Ms: tally?.summary?.p95 ?? null,
      users: null,
    };
  };
  run.aggregate.timeline = slices.map((slice) => pointOf(slice, aggregateTally(slice.view)));
  // An endpoint's points are the windows that mention it: its file size bounds them (1,000 endpoints ×
  // 8,000 empty windows would otherwise be 8 million points from a 300 KB file).
  for (const endpoint of run.endpoints) {
    const points = slices.flatMap((slice) => {
      const tally = slice.endpoints.get(endpoint.name);
      return tally ? [pointOf(slice, tally)] : [];
    });
    endpoint.timeline = points.length > 0 ? points : null;
  }
}

// ---- console output ----

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

function readArtilleryConsole(text: string, source: string): { run: ParsedRun; checkNotes: string[] } {
  const lines = consoleLinesOf(text);
  const header = lines.findLastIndex((line) => SUMMARY_HEADER.test(line));
  if (header < 0)
    throw lineError(
      source,
      lines.length - 1,
      'no "Summary report @" block: the run did not finish or the output is cut',
    );
  const { view, cutNames } = readSummaryBlock(lines, header, source);
  const run = buildRun("artillery-console", view, null);
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

// ---- report.json with its console output ----

export function parseArtillerySet(files: readonly DetectedFile[]): ParsedRun {
  const sourced = files.map((file, index) => ({ file, source: sourceOf(file, index) }));
  const jsons = sourced.filter(({ file }) => file.format === "artillery-json");
  const consoles = sourced.filter(({ file }) => file.format === "artillery-console");
  const others = sourced.filter(({ file }) => file.format !== "artillery-json" && file.format !== "artillery-console");
  const refuse = (message: string, parts: readonly { source: string }[], why: string): never => {
    throw new InputError(
      "malformed",
      message,
      parts.map(({ source }) => ({ path: source, message: why })),
    );
  };
  if (others.length > 0)
    refuse(
      "Only an artillery report.json and its console output make one artillery run",
      others,
      "not artillery output",
    );
  if (jsons.length > 1)
    refuse(
      "Two artillery report.json files in one upload",
      jsons,
      "one report.json per run; upload runs one at a time",
    );
  if (consoles.length > 1)
    refuse(
      "Two artillery console outputs in one upload",
      consoles,
      "one console output per run; upload runs one at a time",
    );
  const [json] = jsons;
  const [consoleOutput] = consoles;
  if (!consoleOutput) {
    if (!json)
      return refuse("No artillery output in the upload", sourced, "expected report.json or the console output");
    return readArtilleryJson(json.file.document, `${json.source}: `);
  }
  if (!json) return parseArtilleryConsole(consoleOutput.file.text, consoleOutput.source);
  const { run: fromConsole, checkNotes } = readArtilleryConsole(consoleOutput.file.text, consoleOutput.source);
  const run = readArtilleryJson(json.file.document, `${json.source}: `);
  // The console's summary prints the same aggregate as report.json: its counts must be the same.
  const countsOf = ({ aggregate }: ParsedRun): string =>
    `http.requests ${aggregate.requests ?? "none"}, codes ${Object.entries(aggregate.statusCodes ?? {})
      .sort()
      .map(([code, n]) => `${code}: ${n}`)
      .join(", ")}`;
  if (countsOf(run) !== countsOf(fromConsole)) {
    const why = `${countsOf(run)} in ${json.source}; ${countsOf(fromConsole)} in ${consoleOutput.source}`;
    refuse(
      `${json.source} and ${consoleOutput.source} are not the same artillery run (${why})`,
      [json, consoleOutput],
      why,
    );
  }
  return {
    ...run,
    thresholds: fromConsole.thresholds,
    checks: fromConsole.checks,
    notes: [...run.notes, ...checkNotes],
  };
}
