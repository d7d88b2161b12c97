/**
 * hey (github.com/rakyll/hey, checked on 0.1.4, Debian's `hey`): its plain-text report and `-o csv`.
 * Neither prints the URL nor the load settings (-c, -q, -n, -z), so a run has no endpoint (the aggregate
 * holds everything; `?endpoint=` names it) and no load config beyond `protocol: "http"`.
 *
 * How hey 0.1.4 counts (requester/report.go, print.go): a request either got an HTTP response (any
 * status) or failed with a Go error (dial, timeout…). Slowest/Fastest/Average, the histogram, the latency
 * distribution and the status codes cover only the responses; errors are listed apart under
 * "Error distribution" (`  [count]\tmessage`, printed only when there are some); Requests/sec counts both.
 * Here requests = responses + errors, failures = responses whose status is not 2xx/3xx + errors.
 *
 * Text report: Summary (seconds, `%4.4f`; Average prints `NaN` when nothing got a response), the response
 * time histogram (11 lines `  <mark> [count]\t|■■■`, mark = the bucket's upper edge in seconds printed
 * `%4.3f`: bucket 0 is the fastest value alone, the last one ends at the slowest), the latency
 * distribution (nearest-rank 10…99 %, a line only when its value is > 0), Details and status codes.
 * Dropped: Total data and Size/request (bytes, not latency), and Details: the per-phase breakdown, whose
 * `DNS+dialup` line in 0.1.4 even prints the overall fastest/slowest instead of the dial times.
 * Quirks kept as printed: the 3-decimal marks can round two buckets onto one edge (they are merged, so
 * edges ascend); hey passes the whole report through printf, so a `%` inside an error message comes out
 * mangled (`%!F(MISSING)`). hey keeps at most 1,000,000 results for its distributions and status codes.
 *
 * CSV (`-o csv`): one row per request that got a response, in completion order; requests that failed
 * with an error are NOT in the file (so its failures are the non-2xx/3xx rows only). Times are seconds
 * with 4 decimals; `offset` is when the request started, counted from hey's start. Kept: response-time
 * (exact percentiles, mean, spread, HDR histogram), status-code; the phase columns are dropped.
 */
import { z } from "zod";
import { InputError } from "../input-error";
import {
  AGGREGATE_NAME,
  emptyEndpoint,
  emptyRun,
  type EndpointResult,
  type HistogramBucket,
  type ParsedRun,
} from "../run";
import { latencyHistogramOf } from "../stats/latency-histogram";
import { SAMPLE_PERCENTILES, summarizeSamples } from "../stats/percentile";
import { readCsvTable, requireColumns } from "./csv-table";
import { parseWire } from "./wire";

/** hey records at most this many results for its distributions, status codes and CSV rows. */
const MAX_RESULTS = 1_000_000;
/** For CSV samples: hey's own 10…99 % plus the ones Benchtrack computes from samples. */
const CSV_PERCENTILES = [...new Set([10, 25, 75, ...SAMPLE_PERCENTILES])].sort((a, b) => a - b);

type Section = "summary" | "histogram" | "latency" | "details" | "status" | "errors";
const SECTION_HEADERS: ReadonlyMap<string, Section> = new Map([
  ["Summary:", "summary"],
  ["Response time histogram:", "histogram"],
  ["Latency distribution:", "latency"],
  ["Details (average, fastest, slowest):", "details"],
  ["Status code distribution:", "status"],
  ["Error distribution:", "errors"],
]);

/** A `%4.4f` number as Go prints it; `NaN`/`±Inf` are read as "no value". */
const NUMBER = String.raw`(\d+(?:\.\d+)?|NaN|[+-]Inf)`;
const SUMMARY_SECONDS_LINE = new RegExp(String.raw`^\s+(Total|Slowest|Fastest|Average):\s+${NUMBER} secs$`);
const SUMMARY_RATE_LINE = new RegExp(String.raw`^\s+Requests/sec:\s+${NUMBER}$`);
const SUMMARY_BYTES_LINE = /^\s+(?:Total data|Size\/request):\s+\d+ bytes$/;
const HISTOGRAM_LINE = /^\s+(\d+(?:\.\d+)?) \[(\d+)\]\t\|\S*$/;
const PERCENTILE_LINE = new RegExp(String.raw`^\s+(\d+(?:\.\d+)?)% in ${NUMBER} secs$`);
const STATUS_LINE = /^\s+\[(\d+)\]\s+(\d+) responses$/;
const ERROR_LINE = /^\s+\[(\d+)\]\t(.*)$/;

const SECONDS_KEYS = ["Total", "Slowest", "Fastest", "Average"] as const;
type SecondsKey = (typeof SECONDS_KEYS)[number];

interface HeyTextReport {
  /** Summary values as printed, in seconds. */
  seconds: Partial<Record<SecondsKey, string>>;
  requestsPerSecond: string | undefined;
  histogram: HistogramBucket[];
  percentiles: Record<string, number>;
  statusCodes: Record<string, number>;
  errors: Record<string, number>;
}

export function parseHeyText(text: string, source: string): ParsedRun {
  const report = readHeyText(text, source);
  const aggregate = emptyEndpoint(AGGREGATE_NAME);
  aggregate.protocol = "http";
  const responses = sumOf(report.statusCodes);
  const errorCount = sumOf(report.errors);
  aggregate.requests = responses + errorCount;
  aggregate.failures = failedResponses(report.statusCodes) + errorCount;
  aggregate.throughput = goNumber(report.requestsPerSecond, Number);
  aggregate.statusCodes = report.statusCodes;
  aggregate.errors = report.errors;
  if (responses > 0) {
    // hey prints zeros and NaN for the latency of a run where nothing got a response.
    aggregate.latency = {
      minMs: goNumber(report.seconds.Fastest, secondsToMs),
      meanMs: goNumber(report.seconds.Average, secondsToMs),
      maxMs: goNumber(report.seconds.Slowest, secondsToMs),
      stdDevMs: null,
      percentiles: report.percentiles,
    };
    aggregate.histogram = report.histogram.length > 0 ? report.histogram : null;
  }
  const notes = responses >= MAX_RESULTS ? [capNote("status codes and latency distribution")] : [];
  return heyRun("hey-text", aggregate, goNumber(report.seconds.Total, Number), notes);
}

function readHeyText(text: string, source: string): HeyTextReport {
  const report: HeyTextReport = {
    seconds: {},
    requestsPerSecond: undefined,
    histogram: [],
    percentiles: {},
    statusCodes: {},
    errors: {},
  };
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const seen = new Map<Section, number>();
  let section: Section | null = null;
  for (const [index, line] of lines.entries()) {
    const where = `${source}: line ${index + 1}`;
    if (line.trim() === "") continue;
    if (!/^\s/.test(line)) {
      const header = SECTION_HEADERS.get(line.trimEnd());
      if (header === undefined) throw malformed(where, `"${clip(line)}" is not a section of hey's report`);
      if (seen.has(header)) throw malformed(where, `a second "${line.trimEnd()}" section; upload one report at a time`);
      seen.set(header, index + 1);
      section = header;
      continue;
    }
    if (section === null) throw malformed(where, 'expected hey\'s report to start with "Summary:"');
    readSectionLine(report, section, line, where);
  }
  const summaryLine = seen.get("summary");
  if (summaryLine === undefined) throw malformed(`${source}: line 1`, 'no "Summary:" section: not a hey report');
  for (const key of SECONDS_KEYS) {
    if (report.seconds[key] === undefined)
      throw malformed(`${source}: line ${summaryLine}`, `the Summary has no ${key} line`);
  }
  if (report.requestsPerSecond === undefined)
    throw malformed(`${source}: line ${summaryLine}`, "the Summary has no Requests/sec line");
  if (!seen.has("status")) {
    throw malformed(
      `${source}: line ${lines.length}`,
      'the report ends before its "Status code distribution:" section (cut short?)',
    );
  }
  return report;
}

function readSectionLine(report: HeyTextReport, section: Section, line: string, where: string): void {
  const fail = (message: string): never => {
    throw malformed(where, message);
  };
  const notA = (example: string): never => fail(`"${clip(line.trim())}" is not ${example}`);
  if (section === "details") return; // dropped: the per-phase breakdown (see the header)
  if (section === "summary") {
    const seconds = SUMMARY_SECONDS_LINE.exec(line);
    const rate = SUMMARY_RATE_LINE.exec(line);
    const key = SECONDS_KEYS.find((k) => k === seconds?.[1]);
    if (key !== undefined && seconds?.[2] !== undefined) {
      if (report.seconds[key] !== undefined) fail(`a second ${key} line`);
      report.seconds[key] = seconds[2];
    } else if (rate?.[1] !== undefined) {
      if (report.requestsPerSecond !== undefined) fail("a second Requests/sec line");
      report.requestsPerSecond = rate[1];
    } else if (!SUMMARY_BYTES_LINE.test(line)) notA("a Summary line such as `  Total:\t12.0110 secs`");
  } else if (section === "histogram") {
    const match = HISTOGRAM_LINE.exec(line);
    if (match?.[1] === undefined || match[2] === undefined)
      return notA("a histogram line such as `  0.004 [419]\t|■■■`");
    addHistogramBucket(report.histogram, secondsToMs(match[1]), Number(match[2]), fail);
  } else if (section === "latency") {
    const match = PERCENTILE_LINE.exec(line);
    if (match?.[1] === undefined || match[2] === undefined)
      return notA("a latency line such as `  50% in 0.0049 secs`");
    const key = String(Number(match[1]));
    if (Number(key) > 100) fail(`${key}% is not a percentile`);
    if (key in report.percentiles) fail(`a second ${key}% line`);
    const value = goNumber(match[2], secondsToMs);
    if (value !== null) report.percentiles[key] = value;
  } else if (section === "status") {
    const match = STATUS_LINE.exec(line);
    if (match?.[1] === undefined || match[2] === undefined)
      return notA("a status line such as `  [200]\t1199 responses`");
    if (match[1] in report.statusCodes) fail(`a second line for status ${match[1]}`);
    report.statusCodes[match[1]] = Number(match[2]);
  } else {
    const match = ERROR_LINE.exec(line);
    if (match?.[1] === undefined || match[2] === undefined)
      return notA('an error line such as `  [3]\tGet "http://…": dial tcp …`');
    if (Object.hasOwn(report.errors, match[2])) fail("a second line for the same error");
    report.errors[match[2]] = Number(match[1]);
  }
}

/** Appends hey's bucket; an edge equal to the previous one (3-decimal rounding) joins that bucket. */
function addHistogramBucket(
  buckets: HistogramBucket[],
  upperMs: number,
  count: number,
  fail: (message: string) => never,
): void {
  const previous = buckets[buckets.length - 1];
  if (previous && upperMs < previous.upperMs) fail("a histogram mark below the previous one: marks ascend");
  if (previous && upperMs === previous.upperMs) previous.count += count;
  else buckets.push({ upperMs, count });
}

const secondsCell = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?$/, "expected seconds, e.g. 0.0036")
  .transform(secondsToMs)
  // A thousand-digit "number" passes the pattern but is no time (and would overflow to Infinity).
  .refine((ms) => ms <= 1e9, "seconds beyond any request's latency");

export const heyCsvRowSchema = z.object({
  "response-time": secondsCell,
  "status-code": z.string().trim().regex(/^\d+$/, "expected an HTTP status code, e.g. 200"),
  offset: secondsCell,
});

export function parseHeyCsv(text: string, source: string): ParsedRun {
  const table = readCsvTable(text, source);
  requireColumns(table, ["response-time", "status-code", "offset"], source);
  const latenciesMs = new Float64Array(table.rows.length);
  const statusCodes: Record<string, number> = {};
  let firstStartMs = Number.POSITIVE_INFINITY;
  let lastEndMs = Number.NEGATIVE_INFINITY;
  for (const [index, row] of table.rows.entries()) {
    const where = `${source}: line ${row.line}`;
    const cells = parseWire(heyCsvRowSchema, row.cells, `hey CSV row (${where})`, `${where}: `);
    const latencyMs = cells["response-time"];
    latenciesMs[index] = latencyMs;
    statusCodes[cells["status-code"]] = (statusCodes[cells["status-code"]] ?? 0) + 1;
    firstStartMs = Math.min(firstStartMs, cells.offset);
    lastEndMs = Math.max(lastEndMs, cells.offset + latencyMs);
  }

  const aggregate = emptyEndpoint(AGGREGATE_NAME);
  aggregate.protocol = "http";
  aggregate.requests = table.rows.length;
  aggregate.failures = failedResponses(statusCodes);
  aggregate.statusCodes = statusCodes;
  aggregate.latency = summarizeSamples(latenciesMs, CSV_PERCENTILES);
  aggregate.histogram = latencyHistogramOf(latenciesMs);
  // `offset` counts from hey's start, which comes before the first request (with -q every worker first
  // waits one tick), so the run is measured from the first request's start to the last response's end.
  // Offsets and times carry 4 decimals: the span is rounded back to that precision.
  const spanSeconds = table.rows.length > 0 ? Math.round((lastEndMs - firstStartMs) * 10) / 1e4 : null;
  const durationSeconds = spanSeconds !== null && spanSeconds > 0 ? spanSeconds : null;
  aggregate.throughput = durationSeconds === null ? null : table.rows.length / durationSeconds;
  const notes: string[] = [];
  if (table.rows.length === 0)
    notes.push(
      "hey's CSV has no rows: no request got a response (hey leaves requests that failed with an error out of its CSV).",
    );
  if (table.rows.length >= MAX_RESULTS) notes.push(capNote("CSV rows"));
  return heyRun("hey-csv", aggregate, durationSeconds, notes);
}

function heyRun(
  format: "hey-text" | "hey-csv",
  aggregate: EndpointResult,
  durationSeconds: number | null,
  notes: string[],
): ParsedRun {
  const run: ParsedRun = { ...emptyRun(format, "hey"), durationSeconds, aggregate, notes };
  run.environment.config.protocol = "http";
  return run;
}

/** Responses whose status is not 2xx or 3xx. */
function failedResponses(statusCodes: Readonly<Record<string, number>>): number {
  return Object.entries(statusCodes).reduce((sum, [code, count]) => (/^[23]\d\d$/.test(code) ? sum : sum + count), 0);
}

function sumOf(counts: Readonly<Record<string, number>>): number {
  return Object.values(counts).reduce((sum, count) => sum + count, 0);
}

/** Seconds as printed ("0.0017") → ms, shifting the decimal point in the text so no binary error creeps in. */
function secondsToMs(seconds: string): number {
  return Number(`${seconds}e3`);
}

/** A number as Go printed it, or null for `NaN`/`±Inf` (and when absent). */
function goNumber(text: string | undefined, convert: (text: string) => number): number | null {
  return text === undefined || /^(NaN|[+-]Inf)$/.test(text) ? null : convert(text);
}

function capNote(what: string): string {
  return `hey keeps only its first ${MAX_RESULTS.toLocaleString("en-US")} results: its ${what} cover those, so the request count here is short of the real one.`;
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function malformed(where: string, message: string): InputError {
  return new InputError("malformed", `Not a valid hey report (${where}: ${message})`, [{ path: where, message }]);
}
