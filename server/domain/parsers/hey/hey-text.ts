/**
 * hey's plain-text report (hey 0.1.4; what hey counts where: `hey-report.ts`).
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
 */
import { InputError } from "../../input-error";
import type { HistogramBucket, ParsedRun } from "../../run";
import { sumOfCounts } from "../aggregate";
import { capNote, emptyHeyRun, failedResponses, MAX_RESULTS, secondsToMs } from "./hey-report";

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
  const run = emptyHeyRun("hey-text");
  const { aggregate } = run;
  const responses = sumOfCounts(report.statusCodes);
  const errorCount = sumOfCounts(report.errors);
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
  run.durationSeconds = goNumber(report.seconds.Total, Number);
  if (responses >= MAX_RESULTS) run.notes.push(capNote("status codes and latency distribution"));
  return run;
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

/** A number as Go printed it, or null for `NaN`/`±Inf` (and when absent). */
function goNumber(text: string | undefined, convert: (text: string) => number): number | null {
  return text === undefined || /^(NaN|[+-]Inf)$/.test(text) ? null : convert(text);
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function malformed(where: string, message: string): InputError {
  return new InputError("malformed", `Not a valid hey report (${where}: ${message})`, [{ path: where, message }]);
}
