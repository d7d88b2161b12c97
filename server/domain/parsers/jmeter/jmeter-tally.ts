/**
 * What JMeter's two results files (JTL, `jmeter-csv.ts` and `jmeter-xml.ts`) share: one sample per request,
 * tallied per label into a run. Built from JMeter's documentation, not from a real file (none could be
 * produced here): the user manual's "Listeners" chapter (jmeter.apache.org/usermanual/listeners.html: 12.4
 * CSV Log format, 12.5 XML Log format 2.1, 12.7 Sample Attributes) and apache/jmeter CSVSaveService.java
 * (column names and order).
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
import { InputError } from "../../input-error";
import { AGGREGATE_NAME, emptyEndpoint, emptyRun, type EndpointResult, type ParsedRun } from "../../run";
import { latencyHistogramOf } from "../../stats/latency-histogram";
import { summarizeSamples } from "../../stats/percentile";
import { addCounts } from "../aggregate";
import { MAX_ENDPOINTS } from "../validate";

/** TransactionController's parent sample message (NUMBER_OF_SAMPLES_IN_TRANSACTION_PREFIX). */
const TRANSACTION_MESSAGE = /^Number of samples in transaction : \d+, number of failing samples : \d+/;
const TIMESTAMP_HINT = "set jmeter.save.saveservice.timestamp_format=ms (JMeter's default) and run again";

/** One sample, as a CSV row or an XML element states it. */
export interface JtlSample {
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

export class JtlTally {
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
  result.statusCodes = codesKnown ? addCounts(tallies.map((tally) => tally.statusCodes)) : null;
  result.errors = addCounts(tallies.map((tally) => tally.errors));
  return result;
}

/** Latest instant a JavaScript date holds (year 275760): a later "epoch ms" is not a time. */
const MAX_EPOCH_MS = 8.64e15;

export function epochMsOf(value: string, field: string, where: string): number {
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

export function wholeNumberOf(value: string, field: string, where: string): number {
  if (!/^\d+$/.test(value.trim())) throw malformed(where, `${field} must be a whole number, got "${value}"`);
  const number = Number(value);
  if (number > Number.MAX_SAFE_INTEGER)
    throw malformed(where, `${field} ${value.trim().slice(0, 40)}… is beyond any count or time JMeter writes`);
  return number;
}

/** An optional count (allThreads, SampleCount): empty when JMeter did not write it. */
export function optionalWholeNumberOf(value: string, field: string, where: string): number | null {
  return value.trim() === "" ? null : wholeNumberOf(value, field, where);
}

export function successOf(value: string, field: string, where: string): boolean {
  const flag = value.trim().toLowerCase();
  if (flag !== "true" && flag !== "false") throw malformed(where, `${field} must be true or false, got "${value}"`);
  return flag === "true";
}

export function malformed(where: string, message: string): InputError {
  return new InputError("malformed", `Not a valid JMeter results file (${where}): ${message}`, [
    { path: where, message },
  ]);
}
