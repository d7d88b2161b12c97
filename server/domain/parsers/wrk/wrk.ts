/**
 * wrk's text report (github.com/wg/wrk, checked on 4.1.0, Debian's `wrk`), as `src/wrk.c` prints it:
 *
 *   Running 12s test @ http://127.0.0.1:18080/api/listings/42
 *     2 threads and 10 connections
 *     Thread Stats   Avg      Stdev     Max   +/- Stdev
 *       Latency     5.17ms    2.15ms  26.25ms   69.54%
 *       Req/Sec     0.98k    43.52     1.12k    72.92%
 *     Latency Distribution                         (only with --latency)
 *        50%    4.91ms                             (50, 75, 90, 99 %)
 *     23426 requests in 12.01s, 6.39MB read
 *     Socket errors: connect 0, read 0, write 0, timeout 5   (only when one of them is not 0)
 *     Non-2xx or 3xx responses: 32                           (only when not 0)
 *   Requests/sec:   1950.88
 *   Transfer/sec:    544.79KB
 *
 * Units (src/units.c): times are us/ms/s/m (a value ≥ 0.85 of the next unit moves up: "0.90ms", "1.00m"),
 * `Running` prints the duration rounded to whole s or m ("Running 2m test" for -d 90s); counts use
 * k/M/G/T/P (×1000), bytes K/M/G/T/P (×1024). One URL per run: it becomes the one endpoint (name =
 * path + query, no method: wrk does not print it) and the aggregate is that endpoint.
 *
 * Kept: requests, duration (`requests in`), Requests/sec, mean/stdev/max latency, the distribution,
 * threads/connections/duration as load config. Dropped: Req/Sec (per-thread rate spread), bytes read and
 * Transfer/sec, "+/- Stdev". wrk prints no minimum: it stays null.
 *
 * Failures: "Non-2xx or 3xx responses" counts responses with status > 399 (1xx are not counted despite
 * the wording). Socket errors: connect/read/write errors are requests that never completed, so they are
 * NOT in wrk's `N requests` (responses); they are added to it and to the failures so the error rate stays a
 * share of attempts (a down server gives many connect errors and few responses). A timeout is a response
 * slower than --timeout: already among the responses, it only counts as a failure.
 *
 * A Lua script may print its own lines before the report (setup/init/response) and after it (done):
 * those are ignored. From the `Thread Stats` header to `Transfer/sec:` wrk prints alone, so there every
 * line must be one of wrk's and parse; so must `Running …` and `N threads and M connections`.
 */
import { InputError } from "../../input-error";
import { AGGREGATE_NAME, emptyEndpoint, emptyRun, type ParsedRun } from "../../run";
import { aggregateEndpoints } from "../aggregate";
import { pathAndQueryOf } from "../url-path";

const NAN = "-?nan";
const TIME = String.raw`(${NAN}|\d+(?:\.\d+)?)(us|ms|s|m|h)`;
const METRIC = String.raw`(?:${NAN}|\d+(?:\.\d+)?)[kMGTP]?`;
const PERCENT = String.raw`(?:${NAN}|\d+(?:\.\d+)?)%`;
const BYTES = String.raw`(?:${NAN}|\d+(?:\.\d+)?)[KMGTP]?B`;

/** Lines wrk prints before its report, recognised by their wording (`recognise`), then read (`parse`). */
const RUNNING = { recognise: /^Running\b/, parse: /^Running (\d+(?:\.\d+)?)(s|m|h) test @ (\S+)\s*$/ };
const THREADS = { recognise: /\bthreads and\b/, parse: /^\s*(\d+) threads and (\d+) connections\s*$/ };
const STATS_HEADER = {
  recognise: /^\s*Thread Stats\b/,
  parse: /^\s*Thread Stats\s+Avg\s+Stdev\s+Max\s+\+\/- Stdev\s*$/,
};

/** The lines of the report itself, between the `Thread Stats` header and `Transfer/sec:`. */
const REPORT_LINES = [
  {
    kind: "latency",
    wording: "Latency",
    pattern: new RegExp(String.raw`^\s*Latency\s+${TIME}\s+${TIME}\s+${TIME}\s+${PERCENT}\s*$`),
  },
  {
    kind: "requestRate",
    wording: "Req/Sec",
    pattern: new RegExp(String.raw`^\s*Req/Sec\s+${METRIC}\s+${METRIC}\s+${METRIC}\s+${PERCENT}\s*$`),
  },
  { kind: "distribution", wording: "Latency Distribution", pattern: /^\s*Latency Distribution\s*$/ },
  { kind: "percentile", wording: "50%  4.91ms", pattern: new RegExp(String.raw`^\s*(\d+(?:\.\d+)?)%\s+${TIME}\s*$`) },
  {
    kind: "requests",
    wording: "… requests in …",
    pattern: new RegExp(String.raw`^\s*(\d+) requests in ${TIME}, ${BYTES} read\s*$`),
  },
  {
    kind: "socketErrors",
    wording: "Socket errors:",
    pattern: /^\s*Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)\s*$/,
  },
  { kind: "non2xx", wording: "Non-2xx or 3xx responses:", pattern: /^\s*Non-2xx or 3xx responses: (\d+)\s*$/ },
  {
    kind: "requestsPerSecond",
    wording: "Requests/sec:",
    pattern: new RegExp(String.raw`^Requests/sec:\s+(${NAN}|\d+(?:\.\d+)?)\s*$`),
  },
  {
    kind: "transferPerSecond",
    wording: "Transfer/sec:",
    pattern: new RegExp(String.raw`^Transfer/sec:\s+${BYTES}\s*$`),
  },
] as const;
type ReportLineKind = (typeof REPORT_LINES)[number]["kind"];
/** Every report line appears at most once, except the percentiles. */
type SingleLineKind = Exclude<ReportLineKind, "percentile">;

const SECONDS_PER_UNIT: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600 };

interface ReportBlock {
  single: Partial<Record<SingleLineKind, RegExpExecArray>>;
  percentiles: RegExpExecArray[];
}

interface WrkReport extends ReportBlock {
  url: string;
  durationSeconds: number;
  threads: number;
  connections: number;
  latency: RegExpExecArray;
  requests: RegExpExecArray;
  requestsPerSecond: RegExpExecArray;
}

export function parseWrkText(text: string, source: string): ParsedRun {
  const report = readWrkText(text, source);
  const { latency, requests, requestsPerSecond } = report;
  const { socketErrors, non2xx } = report.single;

  // wrk only runs against a valid URL; else keep what it printed rather than invent a name.
  const endpoint = emptyEndpoint(pathAndQueryOf(report.url) ?? report.url);
  endpoint.fullName = report.url;
  endpoint.protocol = "http";
  const responses = Number(requests[1]);
  const [connectErrors = 0, readErrors = 0, writeErrors = 0, timeouts = 0] = [1, 2, 3, 4].map((group) =>
    Number(socketErrors?.[group] ?? 0),
  );
  const unfinished = connectErrors + readErrors + writeErrors;
  endpoint.requests = responses + unfinished;
  // A slow (timed-out) non-2xx response is counted by wrk twice; failures never exceed the requests.
  endpoint.failures = Math.min(endpoint.requests, Number(non2xx?.[1] ?? 0) + unfinished + timeouts);
  endpoint.throughput = numberOrNull(requestsPerSecond[1]);
  if (responses > 0) {
    // wrk prints 0.00us (and nan%) for the latency of a run without a single response.
    endpoint.latency.meanMs = timeMs(latency[1], latency[2]);
    endpoint.latency.stdDevMs = timeMs(latency[3], latency[4]);
    endpoint.latency.maxMs = timeMs(latency[5], latency[6]);
    for (const match of report.percentiles) {
      const value = timeMs(match[2], match[3]);
      if (value !== null) endpoint.latency.percentiles[String(Number(match[1]))] = value;
    }
  }

  const aggregate = aggregateEndpoints([endpoint]);
  aggregate.name = AGGREGATE_NAME;
  const runtimeMs = timeMs(requests[2], requests[3]);
  const run: ParsedRun = {
    ...emptyRun("wrk-text", "wrk"),
    durationSeconds: runtimeMs === null ? null : runtimeMs / 1000,
    endpoints: [endpoint],
    aggregate,
  };
  const { config } = run.environment;
  config.duration = report.durationSeconds;
  config.threads = report.threads;
  config.connections = report.connections;
  config.url = report.url;
  config.protocol = "http";
  if (socketErrors) {
    run.notes.push(
      `wrk reported socket errors (connect ${connectErrors}, read ${readErrors}, write ${writeErrors}, timeout ${timeouts}): ` +
        `connect, read and write errors are requests that never completed, added to wrk's ${responses} responses; ` +
        "timeouts are responses slower than --timeout. All count as failures.",
    );
  }
  return run;
}

function readWrkText(text: string, source: string): WrkReport {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  let running: RegExpExecArray | null = null;
  let threads: RegExpExecArray | null = null;
  const block: ReportBlock = { single: {}, percentiles: [] };
  let zone: "before" | "report" | "after" = "before";
  for (const [index, line] of lines.entries()) {
    const where = `${source}: line ${index + 1}`;
    const runningMatch = RUNNING.parse.exec(line);
    if (runningMatch && running) throw malformed(where, "a second wrk report in one file; upload one run at a time");
    if (zone === "before" && RUNNING.recognise.test(line)) {
      running = parseLine(RUNNING.parse, line, where, "`Running 12s test @ http://host/path`");
    } else if (zone === "before" && THREADS.recognise.test(line)) {
      if (threads) throw malformed(where, "a second `… threads and … connections` line");
      threads = parseLine(THREADS.parse, line, where, "`  2 threads and 10 connections`");
    } else if (zone === "before" && STATS_HEADER.recognise.test(line)) {
      parseLine(STATS_HEADER.parse, line, where, "wrk's `Thread Stats   Avg   Stdev   Max   +/- Stdev` header");
      if (!running || !threads)
        throw malformed(where, "the report comes before its `Running …` and `… threads and … connections` lines");
      zone = "report";
    } else if (zone === "report" && line.trim() !== "") {
      if (readReportLine(block, line, where) === "transferPerSecond") zone = "after";
    } // else: a Lua script's own output before or after the report
  }
  const end = `${source}: line ${lines.length}`;
  if (!running) throw malformed(`${source}: line 1`, "no `Running … test @ <url>` line: not a wrk report");
  if (!threads || zone === "before")
    throw malformed(end, "no `Thread Stats` block: the report is cut short or not wrk's");
  const { latency, requests, requestsPerSecond } = block.single;
  if (!latency) throw malformed(end, "the report has no `Latency` row (cut short?)");
  if (!requests) throw malformed(end, "the report has no `… requests in …` line (cut short?)");
  if (!requestsPerSecond) throw malformed(end, "the report has no `Requests/sec:` line (cut short?)");
  const [, amount = "", unit = "s", url = ""] = running;
  return {
    ...block,
    url,
    durationSeconds: Number(amount) * (SECONDS_PER_UNIT[unit] ?? Number.NaN),
    threads: Number(threads[1]),
    connections: Number(threads[2]),
    latency,
    requests,
    requestsPerSecond,
  };
}

/** Reads one line of the report block; returns its kind. */
function readReportLine(block: ReportBlock, line: string, where: string): ReportLineKind {
  for (const { kind, wording, pattern } of REPORT_LINES) {
    const match = pattern.exec(line);
    if (!match) continue;
    if (kind === "percentile") {
      if (!block.single.distribution)
        throw malformed(where, "a percentile line outside the `Latency Distribution` block");
      if (block.single.requests) throw malformed(where, "a percentile line after the `… requests in …` line");
      if (Number(match[1]) > 100) throw malformed(where, `${match[1]}% is not a percentile`);
      block.percentiles.push(match);
    } else {
      if (block.single[kind]) throw malformed(where, `a second \`${wording}\` line`);
      block.single[kind] = match;
    }
    return kind;
  }
  throw malformed(where, `"${clip(line.trim())}" is not a line of wrk's report`);
}

function parseLine(pattern: RegExp, line: string, where: string, expected: string): RegExpExecArray {
  const match = pattern.exec(line);
  if (!match) throw malformed(where, `"${clip(line.trim())}" is not ${expected}`);
  return match;
}

/**
 * `5.17` + `ms` → 5.17 ms; null for wrk's `nan`. The decimal point moves in the text (`26.25e-3`) so
 * us → ms and s → ms stay exact decimals.
 */
function timeMs(amount: string | undefined, unit: string | undefined): number | null {
  if (amount === undefined || numberOrNull(amount) === null) return null;
  if (unit === "us") return Number(`${amount}e-3`);
  if (unit === "ms") return Number(amount);
  return Number(`${amount}e3`) * (SECONDS_PER_UNIT[unit ?? ""] ?? Number.NaN);
}

function numberOrNull(text: string | undefined): number | null {
  return text === undefined || /nan/i.test(text) ? null : Number(text);
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function malformed(where: string, message: string): InputError {
  return new InputError("malformed", `Not a valid wrk report (${where}: ${message})`, [{ path: where, message }]);
}
