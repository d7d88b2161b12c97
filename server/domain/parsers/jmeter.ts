/**
 * Apache JMeter results files (JTL), as `jmeter -n -t plan.jmx -l results.jtl` writes them: CSV (the
 * default) or XML (`jmeter.save.saveservice.output_format=xml`). One sample per request. Built from
 * JMeter's documentation, not from a real file (none could be produced here): the user manual's
 * "Listeners" chapter (jmeter.apache.org/usermanual/listeners.html: 12.4 CSV Log format, 12.5 XML Log
 * format 2.1, 12.7 Sample Attributes) and apache/jmeter CSVSaveService.java (column names and order).
 *
 * CSV: a header row names the columns (timeStamp, elapsed, label, responseCode, responseMessage,
 * threadName, dataType, success, failureMessage, bytes, sentBytes, grpThreads, allThreads, URL, Latency,
 * IdleTime, Connect…, in JMeter's fixed order, any subset); columns are found by name, so any order works.
 * Required: timeStamp, elapsed, label, success. `timeStamp` must be epoch ms (JMeter's default,
 * `jmeter.save.saveservice.timestamp_format=ms`); a formatted date is refused, as its time zone is unknown.
 * The delimiter is `,` (JMeter's default_delimiter), or tab, `;` or `|` when the header uses it.
 * XML: `<testResults version="1.2">` holding `<httpSample>` / `<sample>` elements with attributes t
 * (elapsed ms), ts (epoch ms), s (success), lb (label), rc, rm, na (all active threads), sc (sample count),
 * hn (host); the URL in a `<java.net.URL>` child and failure messages in `<assertionResult>` children.
 * Samples nested in a sample (embedded resources, redirects, a transaction's children) are its
 * sub-results, already inside the parent's time: not counted. Read with sax, streaming, in strict mode.
 *
 * Per label an endpoint, as JMeter's Aggregate Report lists them: requests, failures (success false),
 * exact percentiles (50, 90 = JMeter's "90% Line", 95, 99, 99.9; interpolated between ranks, k6's method,
 * so JMeter's own report may differ by a rank) and an HDR histogram of every sample's elapsed time (failed
 * ones too, as JMeter counts them), response codes, failure messages (failureMessage, else
 * responseMessage) of failed samples, the URL as full name when the label always hit the same one. Throughput is the label's count over the whole run's span,
 * first timeStamp → latest timeStamp + elapsed (the Aggregate Report's span; timeStamp is the sample's
 * start with JMeter's `sampleresult.timestamp.start=true`), so endpoint throughputs add up to the total.
 * Transaction Controller samples (responseMessage "Number of samples in transaction : N, number of
 * failing samples : M") are kept as endpoints, as JMeter lists them, but left out of "All endpoints":
 * their time is the sum of their samplers', which are counted already (unless the file holds nothing
 * else, as a CSV of "Generate parent sample" transactions). Config: threads = peak allThreads (measured: not a load-profile key).
 * The run's host is `Hostname`/hn when every sample agrees. Dropped: latency and connect times, bytes,
 * thread names, response data; aggregated rows (SampleCount > 1, statistical mode) are refused.
 */
import { CsvError, parse } from "csv-parse/sync";
import sax from "sax";
import { InputError } from "../input-error";
import { AGGREGATE_NAME, emptyEndpoint, emptyRun, type EndpointResult, type ParsedRun } from "../run";
import { latencyHistogramOf } from "../stats/latency-histogram";
import { summarizeSamples } from "../stats/percentile";
import { MAX_ENDPOINTS } from "./validate";

/** TransactionController's parent sample message (NUMBER_OF_SAMPLES_IN_TRANSACTION_PREFIX). */
const TRANSACTION_MESSAGE = /^Number of samples in transaction : \d+, number of failing samples : \d+/;
const REQUIRED_COLUMNS = ["timeStamp", "elapsed", "label", "success"] as const;
const DELIMITERS = [",", "\t", ";", "|"] as const;
const SAMPLE_ELEMENTS = new Set(["httpSample", "sample"]);
const TIMESTAMP_HINT = "set jmeter.save.saveservice.timestamp_format=ms (JMeter's default) and run again";

/** One sample, as a CSV row or an XML element states it. */
interface JtlSample {
  label: string;
  timeStampMs: number;
  elapsedMs: number;
  success: boolean;
  responseCode: string;
  responseMessage: string;
  failureMessage: string;
  url: string;
  httpElement: boolean;
  allThreads: number | null;
  sampleCount: number | null;
  hostname: string;
}

interface LabelTally {
  elapsedMs: number[];
  failures: number;
  statusCodes: Record<string, number>;
  errors: Record<string, number>;
  http: boolean;
  /** The one URL this label hit; null once two differ, undefined before any. */
  url: string | null | undefined;
  transaction: boolean;
}

export function parseJmeterCsv(text: string, source: string): ParsedRun {
  const firstLine =
    text
      .replace(/^\uFEFF/, "")
      .trimStart()
      .split(/\r?\n/, 1)[0] ?? "";
  const delimiter = DELIMITERS.find((d) => firstLine.split(d).map(unquote).includes("timeStamp")) ?? ",";
  const tally = new JtlTally();
  const state: { columns: Map<string, number> | null } = { columns: null };
  try {
    parse(text, {
      bom: true,
      delimiter,
      skip_empty_lines: true,
      on_record: (record, context) => {
        const where = `${source}: line ${context.lines}`;
        if (state.columns === null) state.columns = readHeader(record, where);
        else tally.add(sampleOfRow(record, state.columns, where), where);
        return null; // nothing is kept by csv-parse: rows are tallied as they come
      },
    });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const where = typeof error.lines === "number" ? `${source}: line ${error.lines}` : source;
    throw malformed(where, error.message);
  }
  if (state.columns === null) throw malformed(`${source}: line 1`, "empty file: no header row");
  return tally.toRun("jmeter-csv", source, state.columns.has("responseCode"));
}

export function parseJmeterXml(text: string, source: string): ParsedRun {
  const tally = new JtlTally();
  const parser = sax.parser(true, { position: true });
  const where = (): string => `${source}: line ${parser.line + 1}`;
  const open: string[] = [];
  let current: { sample: JtlSample; where: string } | null = null;
  let assertion = { failed: false, message: "" };
  let elementText = "";
  let codesKnown = false;
  const seen = { root: false };

  parser.onopentag = (tag) => {
    const depth = open.length;
    open.push(tag.name);
    elementText = "";
    const attribute = (name: string): string | undefined => {
      const value = tag.attributes[name];
      return typeof value === "string" ? value : value?.value;
    };
    if (depth === 0 && tag.name !== "testResults")
      throw malformed(where(), `expected a JMeter <testResults> root element, got <${tag.name}>`);
    seen.root = true;
    if (depth === 1 && SAMPLE_ELEMENTS.has(tag.name)) {
      codesKnown ||= attribute("rc") !== undefined;
      current = { sample: sampleOfElement(tag.name, attribute, where()), where: where() };
    } else if (depth >= 2 && current && SAMPLE_ELEMENTS.has(tag.name)) tally.countSubSample();
    else if (depth === 2 && tag.name === "assertionResult") assertion = { failed: false, message: "" };
  };
  parser.ontext = (chunk) => {
    elementText += chunk;
  };
  parser.oncdata = (chunk) => {
    elementText += chunk;
  };
  parser.onclosetag = (name) => {
    open.pop();
    const depth = open.length; // of the element just closed
    if (!current) return;
    if (depth === 1) {
      tally.add(current.sample, current.where);
      current = null;
    } else if (depth === 2 && name === "java.net.URL") current.sample.url = elementText.trim();
    else if (depth === 2 && name === "assertionResult" && assertion.failed && current.sample.failureMessage === "") {
      current.sample.failureMessage = assertion.message;
    } else if (depth === 3 && open[2] === "assertionResult") {
      if ((name === "failure" || name === "error") && elementText.trim() === "true") assertion.failed = true;
      if (name === "failureMessage") assertion.message = elementText.trim();
    }
  };

  // sax reports syntax errors (and a file cut short, at close()) here; its message ends with its own position.
  parser.onerror = (error) => {
    throw malformed(where(), `invalid XML: ${error.message.split("\n")[0] ?? error.message}`);
  };
  parser.write(text).close();
  if (!seen.root) throw malformed(`${source}: line 1`, "no <testResults> element");
  return tally.toRun("jmeter-xml", source, codesKnown);
}

class JtlTally {
  private readonly labels = new Map<string, LabelTally>();
  private firstStartMs = Number.POSITIVE_INFINITY;
  private lastEndMs = Number.NEGATIVE_INFINITY;
  private peakThreads: number | null = null;
  private hostname: string | null | undefined = undefined;
  private subSamples = 0;

  add(sample: JtlSample, where: string): void {
    if (sample.sampleCount !== null && sample.sampleCount !== 1) {
      throw malformed(
        where,
        `an aggregated row of ${sample.sampleCount} samples (statistical mode): exact percentiles need one row per sample`,
      );
    }
    let tally = this.labels.get(sample.label);
    if (!tally) {
      if (this.labels.size >= MAX_ENDPOINTS) {
        const message = `more than ${MAX_ENDPOINTS} distinct labels; the limit is ${MAX_ENDPOINTS} endpoints`;
        throw new InputError("too_large", `Too many labels in the JMeter results (${where}): ${message}`, [
          { path: where, message },
        ]);
      }
      tally = {
        elapsedMs: [],
        failures: 0,
        statusCodes: {},
        errors: {},
        http: false,
        url: undefined,
        transaction: false,
      };
      this.labels.set(sample.label, tally);
    }
    tally.elapsedMs.push(sample.elapsedMs);
    tally.transaction ||= TRANSACTION_MESSAGE.test(sample.responseMessage);
    tally.http ||= sample.httpElement || /^https?:\/\//i.test(sample.url);
    if (sample.url !== "") tally.url = tally.url === undefined || tally.url === sample.url ? sample.url : null;
    if (sample.responseCode !== "")
      tally.statusCodes[sample.responseCode] = (tally.statusCodes[sample.responseCode] ?? 0) + 1;
    if (!sample.success) {
      tally.failures++;
      const message =
        sample.failureMessage ||
        sample.responseMessage ||
        (sample.responseCode && `response code ${sample.responseCode}`) ||
        "failed (no message)";
      tally.errors[message] = (tally.errors[message] ?? 0) + 1;
    }
    this.firstStartMs = Math.min(this.firstStartMs, sample.timeStampMs);
    this.lastEndMs = Math.max(this.lastEndMs, sample.timeStampMs + sample.elapsedMs);
    if (sample.allThreads !== null) this.peakThreads = Math.max(this.peakThreads ?? 0, sample.allThreads);
    if (sample.hostname !== "")
      this.hostname = this.hostname === undefined || this.hostname === sample.hostname ? sample.hostname : null;
  }

  countSubSample(): void {
    this.subSamples++;
  }

  toRun(format: "jmeter-csv" | "jmeter-xml", source: string, codesKnown: boolean): ParsedRun {
    if (this.labels.size === 0) throw malformed(source, "no samples in the file");
    const span = this.lastEndMs > this.firstStartMs ? (this.lastEndMs - this.firstStartMs) / 1000 : null;
    const endpoints = [...this.labels].map(([label, tally]) => endpointOf(label, [tally], span, codesKnown));
    const transactions = [...this.labels].filter(([, tally]) => tally.transaction).map(([label]) => label);
    const samplers = [...this.labels.values()].filter((tally) => !tally.transaction);
    const aggregate = endpointOf(
      AGGREGATE_NAME,
      samplers.length > 0 ? samplers : [...this.labels.values()],
      span,
      codesKnown,
    );
    aggregate.fullName = null;

    const notes: string[] = [];
    const listed = `${transactions.slice(0, 5).join(", ")}${transactions.length > 5 ? `, and ${transactions.length - 5} more` : ""}`;
    if (transactions.length > 0 && samplers.length > 0) {
      notes.push(
        `${transactions.length} Transaction Controller label(s) (${listed}) are listed as endpoints but left out of "All endpoints": their time is the sum of their samplers', which are counted already.`,
      );
    } else if (transactions.length > 0) {
      notes.push(`The file holds only Transaction Controller samples (${listed}); "All endpoints" is built from them.`);
    }
    if (this.subSamples > 0) {
      notes.push(
        `${this.subSamples} nested sub-sample(s) (embedded resources, redirects or a transaction's children) were not counted: their parent sample's time already covers them.`,
      );
    }
    const run: ParsedRun = {
      ...emptyRun(format, "jmeter"),
      startedAt: Number.isFinite(this.firstStartMs) ? new Date(this.firstStartMs).toISOString() : null,
      durationSeconds: span,
      endpoints,
      aggregate,
      notes,
    };
    const { environment } = run;
    // The peak of active threads the samples saw: measured, so not a load-profile key (a run cut short
    // would look like another load), but worth showing.
    if (this.peakThreads !== null) environment.config.threads = this.peakThreads;
    if (aggregate.protocol !== null) environment.config.protocol = aggregate.protocol;
    if (typeof this.hostname === "string") environment.host.name = this.hostname;
    return run;
  }
}

function endpointOf(
  name: string,
  tallies: readonly LabelTally[],
  spanSeconds: number | null,
  codesKnown: boolean,
): EndpointResult {
  const result = emptyEndpoint(name);
  const elapsed = tallies.flatMap((tally) => tally.elapsedMs);
  result.protocol = tallies.every((tally) => tally.http) ? "http" : null;
  result.fullName = tallies.length === 1 ? (tallies[0]?.url ?? null) : null;
  result.requests = elapsed.length;
  result.failures = tallies.reduce((sum, tally) => sum + tally.failures, 0);
  result.throughput = spanSeconds === null ? null : elapsed.length / spanSeconds;
  result.latency = summarizeSamples(elapsed);
  result.histogram = latencyHistogramOf(elapsed);
  result.statusCodes = codesKnown ? mergeCounts(tallies.map((tally) => tally.statusCodes)) : null;
  result.errors = mergeCounts(tallies.map((tally) => tally.errors));
  return result;
}

function mergeCounts(maps: readonly Record<string, number>[]): Record<string, number> {
  const merged: Record<string, number> = {};
  for (const map of maps) for (const [key, n] of Object.entries(map)) merged[key] = (merged[key] ?? 0) + n;
  return merged;
}

function readHeader(record: readonly string[], where: string): Map<string, number> {
  const columns = new Map(record.map((name, index) => [unquote(name.trim()), index] as const));
  const missing = REQUIRED_COLUMNS.filter((column) => !columns.has(column));
  if (missing.length > 0) {
    const headerless = /^\d+$/.test(record[0]?.trim() ?? "")
      ? " (the file seems to have no header row: set jmeter.save.saveservice.print_field_names=true)"
      : "";
    throw malformed(where, `missing column${missing.length > 1 ? "s" : ""} ${missing.join(", ")}${headerless}`);
  }
  return columns;
}

function sampleOfRow(record: readonly string[], columns: ReadonlyMap<string, number>, where: string): JtlSample {
  const cell = (name: string): string => {
    const index = columns.get(name);
    return index === undefined ? "" : (record[index] ?? "");
  };
  return {
    label: cell("label"),
    timeStampMs: epochMsOf(cell("timeStamp"), "timeStamp", where),
    elapsedMs: wholeNumberOf(cell("elapsed"), "elapsed", where),
    success: successOf(cell("success"), "success", where),
    responseCode: cell("responseCode"),
    responseMessage: cell("responseMessage"),
    failureMessage: cell("failureMessage"),
    url: cell("URL") === "null" ? "" : cell("URL"), // JMeter writes "null" for samplers without a URL
    httpElement: false,
    allThreads: optionalWholeNumberOf(cell("allThreads"), "allThreads", where),
    sampleCount: optionalWholeNumberOf(cell("SampleCount"), "SampleCount", where),
    hostname: cell("Hostname"),
  };
}

function sampleOfElement(element: string, attribute: (name: string) => string | undefined, where: string): JtlSample {
  const required = (name: string, meaning: string): string => {
    const value = attribute(name);
    if (value === undefined) throw malformed(where, `<${element}> without its ${name} attribute (${meaning})`);
    return value;
  };
  return {
    label: required("lb", "label"),
    timeStampMs: epochMsOf(required("ts", "timestamp"), "ts", where),
    elapsedMs: wholeNumberOf(required("t", "elapsed time"), "t", where),
    success: successOf(required("s", "success flag"), "s", where),
    responseCode: attribute("rc") ?? "",
    responseMessage: attribute("rm") ?? "",
    failureMessage: "",
    url: "",
    httpElement: element === "httpSample",
    allThreads: optionalWholeNumberOf(attribute("na") ?? "", "na", where),
    sampleCount: optionalWholeNumberOf(attribute("sc") ?? "", "sc", where),
    hostname: attribute("hn") ?? "",
  };
}

/** Latest instant a JavaScript date holds (year 275760): a later "epoch ms" is not a time. */
const MAX_EPOCH_MS = 8.64e15;

function epochMsOf(value: string, field: string, where: string): number {
  if (/^\d+$/.test(value.trim())) {
    const epochMs = Number(value);
    if (epochMs > MAX_EPOCH_MS)
      throw malformed(where, `${field} ${value.trim().slice(0, 40)} is not a time in epoch milliseconds`);
    return epochMs;
  }
  if (/\d[/:-]\d/.test(value))
    throw malformed(where, `${field} "${value}" is a formatted date, not epoch milliseconds; ${TIMESTAMP_HINT}`);
  throw malformed(where, `${field} must be epoch milliseconds, got "${value}"`);
}

function wholeNumberOf(value: string, field: string, where: string): number {
  if (!/^\d+$/.test(value.trim())) throw malformed(where, `${field} must be a whole number, got "${value}"`);
  const number = Number(value);
  if (number > Number.MAX_SAFE_INTEGER) throw malformed(where, `${field} ${value.trim().slice(0, 40)}… is beyond any count or time JMeter writes`);
  return number;
}

/** An optional count (allThreads, SampleCount): empty when JMeter did not write it. */
function optionalWholeNumberOf(value: string, field: string, where: string): number | null {
  return value.trim() === "" ? null : wholeNumberOf(value, field, where);
}

function successOf(value: string, field: string, where: string): boolean {
  const flag = value.trim().toLowerCase();
  if (flag !== "true" && flag !== "false") throw malformed(where, `${field} must be true or false, got "${value}"`);
  return flag === "true";
}

function unquote(name: string): string {
  return name.replace(/^"(.*)"$/, "$1");
}

function malformed(where: string, message: string): InputError {
  return new InputError("malformed", `Not a valid JMeter results file (${where}): ${message}`, [
    { path: where, message },
  ]);
}
