/**
 * vegeta (github.com/tsenart/vegeta, v12) reports: `-type=json`, `-type=text` and `-type=hist[…]`.
 * vegeta reports the whole attack, never per target, so a run has NO endpoints and everything is on
 * the aggregate (an upload names a single-target attack with ?endpoint=).
 *
 * What the figures mean (lib/metrics.go, lib/reporters.go, lib/histogram.go, lib/attack.go):
 * - A request is a success when its code is 200..399 (`Metrics.Add`); code 0 is a request that got no
 *   response (dial/timeout error). `success` = successes / requests. failures = the requests of every
 *   other code in `status_codes`, cross-checked with `success` (a disagreement becomes a note).
 * - `rate` = requests / (latest − earliest): ALL requests per second over the attack. `throughput` =
 *   SUCCESSFUL requests / (attack + wait). Benchtrack's throughput is requests/s of all requests (failures
 *   are counted apart), so it is `rate`; vegeta's `throughput` is kept as the `success_throughput` metric.
 *   With a zero-length attack vegeta leaves `rate` undivided, so throughput is then null.
 * - Durations are ns in JSON; the text report prints Go duration strings rounded to the unit below the
 *   value's own (`11.996s` to the ms, `5.633ms` to the µs). durationSeconds = attack + wait (vegeta's
 *   "total": first request sent → last response), startedAt = `earliest` (the text report has no time).
 * - Percentiles are vegeta's own t-digest estimates, kept as given; `errors` is the SET of distinct error
 *   strings without counts, so it becomes a note, never an `errors` map with invented counts.
 * - Dropped: bytes in/out, `latencies.total` (= mean × requests), `wait` on its own, `latest`/`end`.
 * - hist: bucket i is [edge i, edge i+1) in vegeta, stored as (upper[i-1], upper[i]] (only a latency
 *   exactly on an edge, to the ns, can differ). The last row is always `[edge, +Inf]`; it ALSO holds the
 *   requests faster than the first edge (histogram.go `Add` falls through to the last bucket). That open
 *   bucket cannot be stored (JSON has no infinity): dropped when empty, else left out with a note.
 */
import { z } from "zod";
import { InputError, type InputErrorDetail } from "../input-error";
import {
  emptyLatency,
  emptyRun,
  type FormatId,
  type HistogramBucket,
  type LatencySummary,
  type ParsedRun,
} from "../run";
import { sourceOf, type DetectedFile } from "./uploaded-file";
import { parseJsonText, parseWire } from "./wire";

const NS_PER_MS = 1e6;
const NS_PER_SECOND = 1e9;
const nanoseconds = z.number().nonnegative();
const count = z.number().int().nonnegative();
const timestamp = z.string().refine((text) => !Number.isNaN(Date.parse(text)), "expected an RFC 3339 timestamp");
const byteMetrics = z.object({ total: count, mean: z.number().nullable() });
/** Percentile keys of `latencies` ("50th", "99.9th"); vegeta 12 writes 50th, 90th, 95th, 99th. */
const PERCENTILE_KEY = /^(\d+(?:\.\d+)?)th$/;

export const vegetaReportSchema = z.object({
  latencies: z
    .object({ total: nanoseconds.optional(), mean: nanoseconds, max: nanoseconds, min: nanoseconds.optional() })
    .catchall(nanoseconds),
  bytes_in: byteMetrics.optional(),
  bytes_out: byteMetrics.optional(),
  earliest: timestamp,
  latest: timestamp.optional(),
  end: timestamp.optional(),
  duration: nanoseconds,
  wait: nanoseconds,
  requests: count,
  rate: z.number().nonnegative(),
  throughput: z.number().nonnegative().optional(),
  success: z.number().min(0).max(1),
  status_codes: z.record(z.string().regex(/^\d+$/, "expected a status code"), count).nullish(),
  errors: z.array(z.string()).nullish(),
});

/** One report's figures in Benchtrack units, whichever report type they came from. */
interface VegetaFigures {
  requests: number;
  /** vegeta's `rate` (all requests/s), null when the attack lasted 0 s. */
  rate: number | null;
  successThroughput: number | null;
  durationSeconds: number | null;
  startedAt: string | null;
  latency: LatencySummary;
  /** Success ratio 0..1 as the report gives it, and how far its rounding lets it stray. */
  success: number | null;
  successTolerance: number;
  statusCodes: Record<string, number> | null;
  /** Where status codes come from, for errors: a JSON path or `<source>: line N`. */
  statusCodesPath: string;
  errors: readonly string[];
  notes: string[];
}

export function parseVegetaJson(document: unknown): ParsedRun {
  return readVegetaJson(document, null);
}

function readVegetaJson(document: unknown, source: string | null): ParsedRun {
  const report = parseWire(vegetaReportSchema, document, "vegeta JSON report", source ? `${source}: ` : "");
  const hasRequests = report.requests > 0; // with none, vegeta leaves every figure at zero
  const { mean, max, min } = report.latencies;
  const percentiles: Record<string, number> = {};
  for (const [key, ns] of Object.entries(report.latencies)) {
    const match = PERCENTILE_KEY.exec(key);
    if (match?.[1] !== undefined && hasRequests) percentiles[String(Number(match[1]))] = ns / NS_PER_MS;
  }
  const earliestMs = Date.parse(report.earliest);
  return buildRun("vegeta-json", {
    requests: report.requests,
    rate: report.duration > 0 ? report.rate : null,
    successThroughput: report.duration > 0 && report.throughput !== undefined ? report.throughput : null,
    durationSeconds: hasRequests ? (report.duration + report.wait) / NS_PER_SECOND : null,
    // Go's zero time (0001-01-01) when nothing was sent.
    startedAt: hasRequests && earliestMs > 0 ? new Date(earliestMs).toISOString() : null,
    latency: {
      minMs: hasRequests && min !== undefined ? min / NS_PER_MS : null,
      meanMs: hasRequests ? mean / NS_PER_MS : null,
      maxMs: hasRequests ? max / NS_PER_MS : null,
      stdDevMs: null,
      percentiles,
    },
    success: hasRequests ? report.success : null,
    successTolerance: 1e-9,
    statusCodes: report.status_codes ? { ...report.status_codes } : null,
    statusCodesPath: `${source ? `${source}: ` : ""}status_codes`,
    errors: report.errors ?? [],
    notes: [],
  });
}

// ---- text report -------------------------------------------------------------------------------

/** `Latencies     [min, mean, 50, 90, 95, 99, max]  1.388ms, 9.041ms, …`: label, column names, values. */
const BRACKET_LINE = /^(?<label>[A-Za-z]+(?: [A-Za-z]+)*)\s+\[(?<names>[^\]]*)\]\s*(?<values>.*)$/;
const ERROR_SET_LINE = /^Error Set:$/;
const NUMBER = /^\d+(?:\.\d+)?$/;
const STATUS_TOKEN = /^(\d+):(\d+)$/;
const KNOWN_LABELS = new Set(["Requests", "Duration", "Latencies", "Bytes In", "Bytes Out", "Success", "Status Codes"]);

/** One `Label [names] values` line: where it is, and each named column's raw value. */
interface TextLine {
  where: string;
  columns: Map<string, string>;
}

export function parseVegetaText(text: string, source: string): ParsedRun {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const byLabel = new Map<string, TextLine>();
  const errors: string[] = [];
  const notes: string[] = [];
  let inErrorSet = false;
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    const where = `${source}: line ${index + 1}`;
    if (line === "") continue;
    if (inErrorSet) {
      errors.push(line);
      continue;
    }
    if (ERROR_SET_LINE.test(line)) {
      inErrorSet = true;
      continue;
    }
    const match = BRACKET_LINE.exec(line);
    const label = match?.groups?.label;
    if (!match?.groups || label === undefined)
      throw malformed(where, `not a line of vegeta's text report: "${line.slice(0, 80)}"`);
    if (byLabel.has(label)) throw malformed(where, `a second "${label}" line: send one report per file`);
    if (!KNOWN_LABELS.has(label)) {
      notes.push(`vegeta text report: the "${label}" line was not read.`);
      continue;
    }
    byLabel.set(label, {
      where,
      columns: columnsOf(label, match.groups.names ?? "", match.groups.values ?? "", where),
    });
  }

  const requestsLine = byLabel.get("Requests");
  const total = requestsLine?.columns.get("total");
  if (!requestsLine || total === undefined) {
    throw malformed(`${source}: line 1`, "no `Requests [total, …]` line: not a vegeta text report");
  }
  const requests = wholeNumberOf(total, requestsLine.where);
  const hasRequests = requests > 0;
  const duration = byLabel.get("Duration");
  const attackNs = durationColumn(duration, "attack");
  const waitNs = durationColumn(duration, "wait");
  const totalNs =
    durationColumn(duration, "total") ?? (attackNs !== null && waitNs !== null ? attackNs + waitNs : null);
  const attackRan = attackNs === null || attackNs > 0; // rate is undivided after a 0 s attack
  const success = byLabel.get("Success");
  const ratio = success?.columns.get("ratio");
  const statusLine = byLabel.get("Status Codes");
  const latency = latencyOf(byLabel.get("Latencies"), notes);
  return buildRun("vegeta-text", {
    requests,
    rate: attackRan ? decimalColumn(requestsLine, "rate") : null,
    successThroughput: attackRan ? decimalColumn(requestsLine, "throughput") : null,
    durationSeconds: hasRequests && totalNs !== null ? totalNs / NS_PER_SECOND : null,
    startedAt: null,
    latency: hasRequests ? latency : emptyLatency(),
    success: hasRequests && ratio !== undefined && success ? percentOf(ratio, success.where) : null,
    successTolerance: 0.00005 + 1e-12, // printed as a percentage with 2 decimals
    statusCodes: statusLine ? statusCodesOf(statusLine.columns.get("code:count") ?? "", statusLine.where) : null,
    statusCodesPath: statusLine?.where ?? source,
    errors,
    notes,
  });
}

/** Column name → raw value; `Status Codes [code:count]` keeps its space-separated tokens as one value. */
function columnsOf(label: string, names: string, values: string, where: string): Map<string, string> {
  const columns = names.split(",").map((name) => name.trim());
  if (label === "Status Codes") return new Map([[columns.join(","), values.trim()]]);
  const cells = values.trim() === "" ? [] : values.split(",").map((cell) => cell.trim());
  if (cells.length !== columns.length) {
    throw malformed(where, `${columns.length} columns [${names}] but ${cells.length} values`);
  }
  return new Map(columns.map((name, i) => [name, cells[i] ?? ""]));
}

function latencyOf(line: TextLine | undefined, notes: string[]): LatencySummary {
  const latency = emptyLatency();
  for (const [name, cell] of line?.columns ?? []) {
    const ms = () => goDurationNsOf(cell, line?.where ?? "") / NS_PER_MS;
    if (name === "min") latency.minMs = ms();
    else if (name === "mean") latency.meanMs = ms();
    else if (name === "max") latency.maxMs = ms();
    else if (NUMBER.test(name) && Number(name) <= 100) latency.percentiles[String(Number(name))] = ms();
    else notes.push(`vegeta text report: the "${name}" latency was not read.`);
  }
  return latency;
}

function durationColumn(line: TextLine | undefined, name: string): number | null {
  const cell = line?.columns.get(name);
  return line && cell !== undefined ? goDurationNsOf(cell, line.where) : null;
}

function decimalColumn(line: TextLine, name: string): number | null {
  const cell = line.columns.get(name);
  if (cell === undefined || cell === "NaN") return null;
  if (!NUMBER.test(cell)) throw malformed(line.where, `${name} "${cell}" is not a number`);
  return Number(cell);
}

function wholeNumberOf(cell: string, where: string): number {
  if (!/^\d+$/.test(cell)) throw malformed(where, `"${cell}" is not a whole number`);
  return Number(cell);
}

function percentOf(cell: string, where: string): number | null {
  if (cell === "NaN%") return null;
  const match = /^(\d+(?:\.\d+)?)%$/.exec(cell);
  if (match?.[1] === undefined) throw malformed(where, `"${cell}" is not a percentage`);
  return Number(match[1]) / 100;
}

function statusCodesOf(cell: string, where: string): Record<string, number> {
  const codes: Record<string, number> = {};
  for (const token of cell.split(/\s+/).filter((t) => t !== "")) {
    const match = STATUS_TOKEN.exec(token);
    if (match?.[1] === undefined || match[2] === undefined) throw malformed(where, `"${token}" is not code:count`);
    codes[match[1]] = (codes[match[1]] ?? 0) + Number(match[2]);
  }
  return codes;
}

const GO_DURATION = /^(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/;
const GO_DURATION_PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g;
const NS_PER_UNIT: Readonly<Record<string, number>> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

/** A Go duration string (`time.Duration.String`/`ParseDuration`): "1.453ms", "850µs", "1m2.5s", "0s", "0" → ns. */
function goDurationNsOf(text: string, where: string): number {
  if (text === "0") return 0;
  if (!GO_DURATION.test(text)) throw malformed(where, `"${text}" is not a Go duration (e.g. 1.453ms, 850µs, 1m2.5s)`);
  let ns = 0;
  for (const [, value, unit] of text.matchAll(GO_DURATION_PART))
    ns += Number(value) * (NS_PER_UNIT[unit ?? ""] ?? Number.NaN);
  return ns;
}

// ---- histogram report --------------------------------------------------------------------------

const HIST_HEADER = /^Bucket\s+#\s+%\s+Histogram$/;
const HIST_ROW =
  /^\[(?<lower>[^,\s]+),\s*(?<upper>[^\]\s]+)\]\s+(?<count>\d+)\s+(?<percent>\d+(?:\.\d+)?|NaN)%(?:\s+#*)?$/;

interface VegetaHistogram {
  requests: number;
  histogram: HistogramBucket[] | null;
  notes: string[];
}

export function parseVegetaHist(text: string, source: string): ParsedRun {
  const { requests, histogram, notes } = readVegetaHist(text, source);
  const run = emptyVegetaRun("vegeta-hist");
  run.aggregate.requests = requests;
  run.aggregate.histogram = histogram;
  run.notes.push(...notes);
  return run;
}

function readVegetaHist(text: string, source: string): VegetaHistogram {
  const rows: {
    where: string;
    lowerNs: number;
    upperNs: number | null;
    lowerText: string;
    count: number;
    percent: string;
  }[] = [];
  let header = false;
  for (const [index, raw] of text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .entries()) {
    const line = raw.trim();
    const where = `${source}: line ${index + 1}`;
    if (line === "") continue;
    if (!header) {
      if (!HIST_HEADER.test(line))
        throw malformed(where, "expected vegeta's histogram header `Bucket  #  %  Histogram`");
      header = true;
      continue;
    }
    const groups = HIST_ROW.exec(line)?.groups;
    if (!groups?.lower || !groups.upper || !groups.count || !groups.percent) {
      throw malformed(where, `not a histogram row \`[lower, upper]  count  percent%  ###\`: "${line.slice(0, 80)}"`);
    }
    const previous = rows[rows.length - 1];
    if (previous && previous.upperNs === null) throw malformed(where, "a row after the open [.., +Inf] row");
    const lowerNs = goDurationNsOf(groups.lower, where);
    const upperNs = groups.upper === "+Inf" ? null : goDurationNsOf(groups.upper, where);
    if (previous && previous.upperNs !== lowerNs)
      throw malformed(where, `starts at ${groups.lower}, not where the row before ends`);
    if (upperNs !== null && upperNs <= lowerNs) throw malformed(where, "bucket edges must ascend");
    rows.push({
      where,
      lowerNs,
      upperNs,
      lowerText: groups.lower,
      count: Number(groups.count),
      percent: groups.percent,
    });
  }
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (!first || !last || last.upperNs !== null) {
    // vegeta always ends the table with its open bucket (histogram.go `Nth`): without it, rows are missing.
    throw malformed(
      `${source}: line ${text.split(/\r?\n/).length}`,
      "the table ends without vegeta's last `[edge, +Inf]` row: the file looks truncated",
    );
  }
  const requests = rows.reduce((sum, row) => sum + row.count, 0);
  for (const row of rows) {
    // Each row's % is its share of the total to 2 decimals: a count that does not match was altered or garbled.
    if (requests > 0 && Math.abs((row.count / requests) * 100 - Number(row.percent)) > 0.005 + 1e-9) {
      throw malformed(row.where, `${row.count} of ${requests} requests is not the ${row.percent}% the row says`);
    }
  }
  const buckets: HistogramBucket[] = first.lowerNs > 0 ? [{ upperMs: first.lowerNs / NS_PER_MS, count: 0 }] : [];
  for (const row of rows)
    if (row.upperNs !== null) buckets.push({ upperMs: row.upperNs / NS_PER_MS, count: row.count });
  const notes: string[] = [];
  if (last.count > 0) {
    const faster =
      first.lowerNs > 0 ? `, or faster than the first edge ${first.lowerText}, which vegeta counts there too` : "";
    notes.push(
      `${last.count} of ${requests} requests are not in the histogram: they are in vegeta's open last bucket [${last.lowerText}, +Inf] (at or above ${last.lowerText}${faster}), which cannot be stored.`,
    );
  }
  return { requests, histogram: requests - last.count > 0 ? buckets : null, notes };
}

// ---- one attack's reports sent together --------------------------------------------------------

export function parseVegetaSet(files: readonly DetectedFile[]): ParsedRun {
  const reports: { source: string; file: DetectedFile }[] = [];
  const hists: { source: string; file: DetectedFile }[] = [];
  for (const [index, file] of files.entries()) {
    const source = sourceOf(file, index);
    if (file.format === "vegeta-hist") hists.push({ source, file });
    else if (file.format === "vegeta-json" || file.format === "vegeta-text") reports.push({ source, file });
    else
      throw new InputError("malformed", `${source} is not a vegeta report`, [
        { path: source, message: `a ${file.format} file among vegeta reports` },
      ]);
  }
  for (const [kind, group] of [
    ["JSON or text reports", reports],
    ["histograms", hists],
  ] as const) {
    if (group.length > 1) {
      throw new InputError(
        "malformed",
        `${group.length} vegeta ${kind} in one upload: ${group.map((g) => g.source).join(", ")}`,
        group.map((g) => ({
          path: g.source,
          message: `one of ${group.length} vegeta ${kind}; send the reports of one attack: one JSON or text report and at most one histogram`,
        })),
      );
    }
  }
  const report = reports[0];
  const hist = hists[0];
  if (!report) {
    if (!hist)
      throw new InputError("malformed", "No vegeta report in the upload", [{ path: "files", message: "no file" }]);
    return parseVegetaHist(hist.file.text, hist.source);
  }
  const run =
    report.file.format === "vegeta-json"
      ? readVegetaJson(report.file.document ?? parseJsonText(report.file.text, report.source), report.source)
      : parseVegetaText(report.file.text, report.source);
  if (!hist) return run;
  const histogram = readVegetaHist(hist.file.text, hist.source);
  if (histogram.requests !== run.aggregate.requests) {
    const message = `${hist.source} counts ${histogram.requests} requests, ${report.source} ${run.aggregate.requests ?? "none"}: not the same attack`;
    throw new InputError("malformed", `The vegeta histogram and report disagree: ${message}`, [
      { path: hist.source, message },
      { path: report.source, message },
    ]);
  }
  run.aggregate.histogram = histogram.histogram;
  run.notes.push(...histogram.notes);
  return run;
}

// ---- shared --------------------------------------------------------------------------------------

function buildRun(format: FormatId, figures: VegetaFigures): ParsedRun {
  const run = emptyVegetaRun(format);
  const aggregate = run.aggregate;
  const { requests, statusCodes } = figures;
  aggregate.requests = requests;
  aggregate.statusCodes = statusCodes;
  aggregate.latency = figures.latency;
  aggregate.throughput = requests > 0 ? figures.rate : null;
  run.startedAt = figures.startedAt;
  run.durationSeconds = figures.durationSeconds;
  run.notes.push(...figures.notes);
  if (statusCodes) {
    const counted = Object.values(statusCodes).reduce((sum, n) => sum + n, 0);
    if (counted !== requests)
      throw malformed(figures.statusCodesPath, `status codes add up to ${counted}, not the ${requests} requests`);
    aggregate.failures = Object.entries(statusCodes).reduce((sum, [code, n]) => (isSuccess(code) ? sum : sum + n), 0);
    const successes = requests - aggregate.failures;
    if (figures.success !== null && Math.abs(successes / requests - figures.success) > figures.successTolerance) {
      run.notes.push(
        `vegeta's success ratio (${(figures.success * 100).toFixed(2)}%) disagrees with its status codes (${successes} of ${requests} in 200–399); failures are counted from the status codes.`,
      );
    }
  } else if (figures.success !== null && figures.successTolerance < 1e-6) {
    aggregate.failures = requests - Math.round(figures.success * requests); // exact: success = successes / requests
  } else if (requests === 0) {
    aggregate.failures = 0;
  }
  if (figures.successThroughput !== null && requests > 0) {
    run.metrics.success_throughput = { value: figures.successThroughput, unit: "req/s", better: "higher" };
  }
  if (figures.errors.length > 0) run.notes.push(errorsNote(figures.errors));
  return run;
}

/** vegeta's rule (lib/metrics.go `Add`): codes 200..399 succeed; 0 (no response) and the rest fail. */
function isSuccess(code: string): boolean {
  const value = Number(code);
  return value >= 200 && value < 400;
}

const MAX_LISTED_ERRORS = 10;

function errorsNote(errors: readonly string[]): string {
  const listed = errors
    .slice(0, MAX_LISTED_ERRORS)
    .map((error) => `"${error.length > 200 ? `${error.slice(0, 200)}…` : error}"`);
  const more = errors.length > MAX_LISTED_ERRORS ? `; and ${errors.length - MAX_LISTED_ERRORS} more` : "";
  const s = errors.length === 1 ? "" : "s";
  return `vegeta listed ${errors.length} distinct error${s} without counting them: ${listed.join("; ")}${more}.`;
}

/** A vegeta run: one HTTP attack, everything on the aggregate. */
function emptyVegetaRun(format: FormatId): ParsedRun {
  const run = emptyRun(format, "vegeta");
  run.environment.config.protocol = "http";
  run.aggregate.protocol = "http";
  return run;
}

function malformed(path: string, message: string): InputError {
  const detail: InputErrorDetail = { path, message };
  return new InputError("malformed", `Invalid vegeta report at ${path}: ${message}`, [detail]);
}
