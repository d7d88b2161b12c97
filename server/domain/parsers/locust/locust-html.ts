/**
 * Locust `--html=report.html`: the React report of Locust 2.22 and newer (earlier 2.x versions wrote it
 * with `--modern-ui`). The page is a JavaScript bundle plus one inline script holding the data,
 * `window.templateArgs = {…}`, rendered by locust/html.py `get_html_report` with Jinja's `tojson`. The
 * bundle itself reads `window.templateArgs`, so the data is the LAST assignment statement; the object that
 * follows is cut out by matching braces outside JSON strings and decoded as JSON. The legacy report (HTML
 * tables, no templateArgs) is refused with a message naming the versions read.
 *
 * What is kept (field meanings from locust/stats.py `StatsEntry.to_dict`, checked on the fixture):
 * - `requests_statistics`: one entry per endpoint, then the total named "Aggregated" with method "" (the
 *   aggregate). Counts, `avg_response_time`, `min/max_response_time` (rounded to whole ms by the report),
 *   `total_rps` (count over the whole run). Names and methods are HTML-escaped (`html.escape`) and are
 *   unescaped here, so they match the CSV/JSON outputs of the same run.
 * - percentiles: `response_time_statistics` columns "0.5".."0.99" become "50".."99" and win over the
 *   `response_time_percentile_<p>` fields of `requests_statistics` (the same numbers); "1.0" is Locust's
 *   rounded maximum, not a percentile, as in locust-csv.ts; `median_response_time` fills "50" only when no
 *   column gives it. An entry without requests has Locust's zeros, read as nothing.
 * - `failures_statistics` → errors by message per endpoint and in the aggregate; `exceptions_statistics`
 *   → a note.
 * - `history` → the aggregate's timeline. Locust appends an entry every 5 s (HISTORY_STATS_INTERVAL_SEC)
 *   and one at the end; values are `[time, value]` pairs (earlier reports: bare values). `current_rps` and
 *   `current_fail_per_sec` are sliding averages; `response_time_percentile_<p>` are the last ~10 s, and
 *   Locust writes 0 where the window has no answers yet (`… or 0`), read as null.
 * - `start_time`/`end_time` (UTC, truncated to the second) → startedAt and durationSeconds; `host`;
 *   the peak history `user_count` → `config.users`; `profile` when set.
 * Dropped: `current_rps`/`current_fail_per_sec` of the statistics (the last seconds only), content
 * lengths, the history's `total_avg_response_time`, the `duration` text, the task ratios, the locustfile
 * name. The report carries no histogram and no status codes.
 */
import { z } from "zod";
import { InputError } from "../../input-error";
import {
  AGGREGATE_NAME,
  emptyEndpoint,
  emptyRun,
  type EndpointResult,
  type ParsedRun,
  type TimelinePoint,
} from "../../run";
import { aggregateEndpoints, maxOf } from "../aggregate";
import { attachLocustFailures, locustExceptionNotes, locustKey, type LocustFailure } from "./locust-failures";
import { parseJsonText, parseWire } from "../wire";

const ARGS_PATH = "window.templateArgs";
/** `window.templateArgs = {`, not the bundle's reads (`window.templateArgs?(…)`, `window.templateArgs.profile`). */
const ASSIGNMENT = /window\.templateArgs\s*=\s*(?=\{)/g;
const READ_VERSIONS =
  "Benchtrack reads the report of Locust 2.22 and newer (and of earlier 2.x versions run with --modern-ui); " +
  "older reports keep their numbers only in HTML tables. Upload that run's --csv files or --json output instead.";

const count = z.number().int().nonnegative();
const ms = z.number().nonnegative();
/** Aggregated rows have method "" (null in some versions' failures). */
const method = z.string().nullable();

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2}(?:\.\d+)?)(Z|[+-]\d{2}:?\d{2})?$/;
/** "2026-11-22T09:36:51Z" (Locust's format_utc_timestamp) or the older "2026-11-22 09:36:51", UTC. */
const utcTime = z
  .string()
  .refine((text) => epochMsOf(text) !== null, "expected a date and time such as 2026-11-22T09:36:51Z")
  .transform((text) => epochMsOf(text) ?? 0);

/** A history value: `[time, value]` (recent Locust) or the bare value; absent or null → null. */
const historyValue = z
  .union([z.tuple([z.string(), ms.nullable()]), ms.nullable()])
  .optional()
  .transform((value) => (Array.isArray(value) ? value[1] : (value ?? null)));

const requestStatsSchema = z.looseObject({
  name: z.string(),
  method,
  num_requests: count,
  num_failures: count,
  avg_response_time: ms,
  min_response_time: ms.nullable(),
  max_response_time: ms,
  median_response_time: ms.nullable(),
  total_rps: ms,
});
type RequestStats = z.infer<typeof requestStatsSchema>;

export const locustHtmlArgsSchema = z.object({
  requests_statistics: z.array(requestStatsSchema),
  /** Percentile columns keyed by fraction ("0.5".."1.0"), read by `percentilesIn`. */
  response_time_statistics: z.array(z.looseObject({ name: z.string(), method })),
  failures_statistics: z.array(z.object({ name: z.string(), method, error: z.string(), occurrences: count })),
  exceptions_statistics: z.array(z.object({ count, msg: z.string() })),
  history: z.array(
    z.object({
      time: utcTime,
      current_rps: historyValue,
      current_fail_per_sec: historyValue,
      "response_time_percentile_0.5": historyValue,
      "response_time_percentile_0.95": historyValue,
      user_count: historyValue,
    }),
  ),
  start_time: utcTime,
  end_time: utcTime.nullable(),
  host: z.string().nullable(),
  profile: z.string().nullish(),
});
export type LocustHtmlArgs = z.infer<typeof locustHtmlArgsSchema>;

export function parseLocustHtml(text: string, source: string): ParsedRun {
  const { json, line } = templateArgsTextOf(text, source);
  const document = parseJsonText(json, `${ARGS_PATH} (${source}, line ${line})`);
  const args = parseWire(locustHtmlArgsSchema, document, `Locust HTML report data (${source})`, `${ARGS_PATH}.`);

  const percentileRows = new Map<string, { fields: Record<string, unknown>; path: string }>();
  for (const [index, row] of args.response_time_statistics.entries()) {
    percentileRows.set(keyOf(row.name, row.method), {
      fields: row,
      path: `${ARGS_PATH}.response_time_statistics[${index}]`,
    });
  }
  const endpoints: EndpointResult[] = [];
  let aggregateRow: EndpointResult | null = null;
  for (const [index, stats] of args.requests_statistics.entries()) {
    const key = keyOf(stats.name, stats.method);
    const isTotal = unescapeHtml(stats.name) === "Aggregated" && (stats.method ?? "") === "";
    const result = endpointOf(stats, isTotal, `${ARGS_PATH}.requests_statistics[${index}]`, percentileRows.get(key));
    percentileRows.delete(key);
    if (isTotal) aggregateRow = result;
    else endpoints.push(result);
  }
  const orphan = percentileRows.values().next().value;
  if (orphan) {
    throw new InputError(
      "malformed",
      `Not a valid Locust HTML report data (${orphan.path}: no requests_statistics entry)`,
      [{ path: orphan.path, message: "percentiles of an endpoint that requests_statistics does not list" }],
    );
  }
  const aggregate = aggregateRow ?? aggregateEndpoints(endpoints);
  aggregate.protocol = "http";
  attachLocustFailures(failuresOf(args.failures_statistics), endpoints, aggregate);
  const timeline = args.history.map((entry): TimelinePoint => ({
    atMs: entry.time,
    requestsPerSecond: entry.current_rps,
    failuresPerSecond: entry.current_fail_per_sec,
    p50Ms: windowPercentile(entry["response_time_percentile_0.5"]),
    p95Ms: windowPercentile(entry["response_time_percentile_0.95"]),
    users: entry.user_count,
  }));
  if (timeline.length > 0) aggregate.timeline = timeline;

  const endMs = args.end_time;
  const run: ParsedRun = {
    ...emptyRun("locust-html", "locust"),
    startedAt: new Date(args.start_time).toISOString(),
    // end_time is the last request; equal to start_time when there was none.
    durationSeconds: endMs !== null && endMs > args.start_time ? (endMs - args.start_time) / 1000 : null,
    endpoints,
    aggregate,
    notes: locustExceptionNotes(args.exceptions_statistics.map((e) => ({ count: e.count, message: e.msg }))),
  };
  const { config } = run.environment;
  config.protocol = "http";
  const host = args.host === null ? "" : unescapeHtml(args.host);
  if (host !== "" && host !== "None") config.host = host; // str(None) when no host was set
  const users = timeline.map((point) => point.users).filter((value) => value !== null);
  if (users.length > 0) config.users = maxOf(users);
  if (args.profile) config.profile = unescapeHtml(args.profile);
  return run;
}

/** The JSON text of the last `window.templateArgs = {…}` and the line it starts on. */
function templateArgsTextOf(text: string, source: string): { json: string; line: number } {
  let start = -1;
  for (const match of text.matchAll(ASSIGNMENT)) start = match.index + match[0].length;
  if (start === -1) {
    throw new InputError("malformed", `${source} has no Locust report data (window.templateArgs). ${READ_VERSIONS}`, [
      { path: source, message: `no "window.templateArgs = {…}" script; ${READ_VERSIONS}` },
    ]);
  }
  const line = text.slice(0, start).split("\n").length;
  const end = endOfJsonValue(text, start);
  if (end === null) {
    throw new InputError("malformed", `The window.templateArgs object of ${source} (line ${line}) is cut short`, [
      { path: `${source}: line ${line}`, message: "the object after window.templateArgs = never closes" },
    ]);
  }
  return { json: text.slice(start, end), line };
}

/** Index just past the object or array opening at `start`, skipping brackets inside JSON strings. */
function endOfJsonValue(text: string, start: number): number | null {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return null;
}

function endpointOf(
  stats: RequestStats,
  isTotal: boolean,
  path: string,
  percentileRow: { fields: Record<string, unknown>; path: string } | undefined,
): EndpointResult {
  const result = emptyEndpoint(isTotal ? AGGREGATE_NAME : unescapeHtml(stats.name));
  result.protocol = "http";
  result.method = stats.method ? unescapeHtml(stats.method) : null;
  result.requests = stats.num_requests;
  result.failures = stats.num_failures;
  result.throughput = stats.total_rps;
  if (stats.num_requests === 0) return result; // Locust reports 0 for every time of an unused entry
  const percentiles = percentilesIn(stats, /^response_time_percentile_(.+)$/, path);
  if (percentileRow) Object.assign(percentiles, percentilesIn(percentileRow.fields, /^(.+)$/, percentileRow.path));
  if (percentiles["50"] === undefined && stats.median_response_time !== null) {
    percentiles["50"] = stats.median_response_time;
  }
  result.latency = {
    minMs: stats.min_response_time,
    meanMs: stats.avg_response_time,
    maxMs: stats.max_response_time,
    stdDevMs: null,
    percentiles,
  };
  return result;
}

/** A history percentile: Locust writes 0 for a window without answers (`get_current_response_time_percentile(p) or 0`). */
function windowPercentile(value: number | null): number | null {
  return value === 0 ? null : value;
}

const FRACTION = /^(?:0(?:\.\d+)?|1(?:\.0+)?)$/;

/** Fields whose key (through `pattern`) is a fraction "0.95" → percentiles {"95": value}; "1.0" (the max) is left out. */
function percentilesIn(fields: Record<string, unknown>, pattern: RegExp, path: string): Record<string, number> {
  const percentiles: Record<string, number> = {};
  for (const [key, raw] of Object.entries(fields)) {
    const fraction = pattern.exec(key)?.[1];
    if (fraction === undefined || !FRACTION.test(fraction)) continue;
    const value = parseWire(ms.nullable(), raw, "Locust percentile", `${path}.${key}`);
    const percent = Number((Number(fraction) * 100).toFixed(6));
    if (value !== null && percent < 100) percentiles[String(percent)] = value;
  }
  return percentiles;
}

/** Failures by message, named as the endpoints are (unescaped: the statistics are escaped, failures not in every version). */
function failuresOf(failures: LocustHtmlArgs["failures_statistics"]): LocustFailure[] {
  return failures.map((failure) => ({
    method: unescapeHtml(failure.method ?? ""),
    name: unescapeHtml(failure.name),
    error: unescapeHtml(failure.error),
    occurrences: failure.occurrences,
  }));
}

/** Endpoint identity: method and name, unescaped, as locustKey spells it. */
function keyOf(name: string, methodName: string | null): string {
  return locustKey(unescapeHtml(methodName ?? ""), unescapeHtml(name));
}

const HTML_ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#x27;": "'",
  "&#39;": "'",
};

/** Undoes Python's `html.escape`, the only escaping the report applies. */
function unescapeHtml(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (entity) => HTML_ENTITIES[entity] ?? entity);
}

/** Epoch ms of a UTC date-time as Locust writes it, or null when it is not one. */
function epochMsOf(text: string): number | null {
  const match = DATE_TIME.exec(text);
  if (!match) return null;
  const zone = match[3] === undefined || match[3] === "Z" ? "Z" : match[3].replace(/^([+-]\d{2})(\d{2})$/, "$1:$2");
  const epochMs = Date.parse(`${match[1]}T${match[2]}${zone}`);
  return Number.isNaN(epochMs) ? null : epochMs;
}
