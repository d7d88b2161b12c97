/**
 * k6 `--out json=points.ndjson`: one JSON object per line, `Metric` declarations and `Point` samples.
 * Files reach hundreds of MB, so lines are consumed one at a time and only what the result needs is
 * kept: per endpoint a growable Float64Array of `http_req_duration` values (8 bytes a request), counts,
 * and a few running extremes. Exact percentiles then come from the samples (`stats/percentile.ts`, k6's
 * own interpolation), so they match what k6 prints for the same points, and each endpoint and the
 * aggregate keep an HDR latency histogram of the same samples (`stats/latency-histogram.ts`, built from
 * the sorted samples at finish), so runs can later be compared and pooled as distributions.
 * A negative or non-finite http_req_duration (JSON's 1e999 is Infinity) is refused with its line.
 * The points' times also make the run's timeline, second by second (`k6-timeline.ts`).
 */
import { z } from "zod";
import { InputError } from "../../input-error";
import { AGGREGATE_NAME, emptyEndpoint, emptyRun, type EndpointResult, type ParsedRun } from "../../run";
import { latencyHistogramOf } from "../../stats/latency-histogram";
import { summarizeSortedSamples } from "../../stats/percentile";
import { addCounts } from "../aggregate";
import { isRecord, MAX_NDJSON_FIRST_LINE } from "../markers";
import { MAX_ENDPOINTS, validateParsedRun } from "../validate";
import { thinTimelines } from "../timeline";
import { parseWire } from "../wire";
import { K6TimelineRecorder } from "./k6-timeline";

/** Whether the first line of a body starts k6 `--out json` NDJSON (the service then streams it). */
export function isNdjsonStart(firstLine: string): boolean {
  // A k6 line is a few hundred bytes; a longer "first line" is a one-line document, not worth decoding twice.
  if (firstLine.length > MAX_NDJSON_FIRST_LINE) return false;
  const trimmed = firstLine.trim();
  if (!trimmed.startsWith("{") || !trimmed.endsWith("}")) return false;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isRecord(value) && (value.type === "Metric" || value.type === "Point") && typeof value.metric === "string";
  } catch {
    return false;
  }
}

const tagsSchema = z.record(z.string(), z.string()).nullish();

const metricLineSchema = z.object({
  type: z.literal("Metric"),
  metric: z.string(),
  data: z.object({
    name: z.string(),
    type: z.string(),
    thresholds: z.array(z.string()).nullish(),
  }),
});

const pointLineSchema = z.object({
  type: z.literal("Point"),
  metric: z.string(),
  data: z.object({
    time: z.string(),
    value: z.number(),
    tags: tagsSchema,
  }),
});

export const k6NdjsonLineSchema = z.discriminatedUnion("type", [metricLineSchema, pointLineSchema]);

/** Tags that vary per request; the others, when constant over the run, become run attributes. */
const PER_REQUEST_TAGS = new Set([
  "name", "url", "method", "status", "expected_response", "proto", "group", "scenario", "error", "error_code",
  "tls_version", "check", "ocsp_status", "ip",
]);

class SampleBuffer {
  private values = new Float64Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }

  sorted(): Float64Array {
    return this.values.subarray(0, this.length).sort();
  }
}

interface EndpointAccumulator {
  method: string | null;
  durations: SampleBuffer;
  /** Sum of `http_reqs` point values; null until the first such point. */
  requests: number | null;
  failures: number | null;
  statusCodes: Record<string, number>;
}

/**
 * Accumulates k6 NDJSON lines. `parseK6Ndjson` drives it from a stream; `parseUpload` drives it from
 * text already in memory. Line numbers are 1-based and count every line, blank ones included.
 */
export class K6NdjsonAccumulator {
  private lineNumber = 0;
  private sawContent = false;
  private readonly endpoints = new Map<string, EndpointAccumulator>();
  private firstTimeMs = Number.POSITIVE_INFINITY;
  private lastTimeMs = Number.NEGATIVE_INFINITY;
  private readonly checks = new Map<string, { name: string; group: string | null; passes: number; fails: number }>();
  private iterations = 0;
  private vusMax: number | null = null;
  private declaredThresholds = 0;
  /** Global tags seen with one value on every request so far; `null` marks a tag that varied. */
  private readonly constantTags = new Map<string, string | null>();
  private sawRequestTags = false;
  private readonly timeline = new K6TimelineRecorder();

  addLine(text: string): void {
    this.lineNumber++;
    // A byte-order mark (Windows editors, PowerShell's Out-File) is not part of the first line's JSON.
    const line = this.lineNumber === 1 ? text.replace(/^\uFEFF/, "") : text;
    if (line.trim() === "") return;
    const where = `line ${this.lineNumber}`;
    let decoded: unknown;
    try {
      decoded = JSON.parse(line) as unknown;
    } catch (error) {
      const reason = error instanceof Error ? error.message : "invalid JSON";
      throw new InputError("malformed", `Invalid JSON on ${where} of the k6 NDJSON: ${reason}`, [
        { path: where, message: reason },
      ]);
    }
    const entry = parseWire(k6NdjsonLineSchema, decoded, `k6 NDJSON line (${where})`, `${where}: `);
    this.sawContent = true;
    if (entry.type === "Metric") {
      this.declaredThresholds += entry.data.thresholds?.length ?? 0;
      return;
    }
    this.addPoint(entry.metric, entry.data, where);
  }

  private addPoint(metric: string, data: z.infer<typeof pointLineSchema>["data"], where: string): void {
    const timeMs = Date.parse(data.time);
    if (Number.isNaN(timeMs)) {
      throw new InputError("malformed", `Invalid time "${data.time}" on ${where}`, [
        { path: `${where}: data.time`, message: "not an ISO 8601 timestamp" },
      ]);
    }
    if (timeMs < this.firstTimeMs) this.firstTimeMs = timeMs;
    if (timeMs > this.lastTimeMs) this.lastTimeMs = timeMs;
    this.timeline.observe(timeMs);
    const tags = data.tags ?? {};

    switch (metric) {
      case "http_req_duration": {
        if (!(Number.isFinite(data.value) && data.value >= 0)) {
          throw new InputError("malformed", `Invalid http_req_duration ${data.value} on ${where}`, [
            { path: `${where}: data.value`, message: "a request duration must be a finite number of ms, 0 or more" },
          ]);
        }
        const endpoint = this.endpointFor(tags, where);
        endpoint.durations.push(data.value);
        this.timeline.recordDuration(endpointNameOf(tags), timeMs, data.value);
        const status = tags.status;
        if (status !== undefined) endpoint.statusCodes[status] = (endpoint.statusCodes[status] ?? 0) + 1;
        this.trackConstantTags(tags);
        return;
      }
      case "http_reqs": {
        const endpoint = this.endpointFor(tags, where);
        endpoint.requests = (endpoint.requests ?? 0) + data.value;
        this.timeline.recordRequests(endpointNameOf(tags), timeMs, data.value);
        return;
      }
      case "http_req_failed": {
        // A rate metric: 1 for a failed request, 0 for a good one.
        const endpoint = this.endpointFor(tags, where);
        endpoint.failures = (endpoint.failures ?? 0) + (data.value !== 0 ? 1 : 0);
        this.timeline.recordFailed(endpointNameOf(tags), timeMs, data.value !== 0);
        return;
      }
      case "checks": {
        const name = tags.check ?? "(unnamed check)";
        const group = tags.group ? tags.group : null;
        const key = `${group ?? ""}\u0000${name}`;
        const check = this.checks.get(key) ?? { name, group, passes: 0, fails: 0 };
        if (data.value !== 0) check.passes++;
        else check.fails++;
        this.checks.set(key, check);
        return;
      }
      case "iterations":
        this.iterations += data.value;
        return;
      case "vus":
        this.timeline.recordUsers(timeMs, data.value);
        return;
      case "vus_max":
        this.vusMax = Math.max(this.vusMax ?? 0, data.value);
        return;
      default:
        return;
    }
  }

  /** The accumulator of a request's endpoint (endpointNameOf), made the first time it is seen. */
  private endpointFor(tags: Record<string, string>, where: string): EndpointAccumulator {
    const name = endpointNameOf(tags);
    let endpoint = this.endpoints.get(name);
    if (!endpoint) {
      // Refuse early: unnamed requests to unique URLs would otherwise grow without bound.
      if (this.endpoints.size >= MAX_ENDPOINTS) {
        throw new InputError("too_large", `More than ${MAX_ENDPOINTS} distinct endpoints (at ${where})`, [
          { path: where, message: `endpoint #${MAX_ENDPOINTS + 1} "${name.slice(0, 80)}"; tag requests with a name` },
        ]);
      }
      endpoint = { method: tags.method ?? null, durations: new SampleBuffer(), requests: null, failures: null, statusCodes: {} };
      this.endpoints.set(name, endpoint);
    }
    return endpoint;
  }

  private trackConstantTags(tags: Record<string, string>): void {
    if (!this.sawRequestTags) {
      this.sawRequestTags = true;
      for (const [key, value] of Object.entries(tags)) if (!PER_REQUEST_TAGS.has(key)) this.constantTags.set(key, value);
      return;
    }
    for (const [key, value] of this.constantTags) {
      if (value !== null && tags[key] !== value) this.constantTags.set(key, null);
    }
  }

  finish(): ParsedRun {
    if (!this.sawContent) {
      throw new InputError("malformed", "The k6 NDJSON input has no lines", [{ path: "line 1", message: "empty input" }]);
    }
    const spanSeconds = this.lastTimeMs > this.firstTimeMs ? (this.lastTimeMs - this.firstTimeMs) / 1000 : null;
    const allDurations = new SampleBuffer();
    const endpoints: EndpointResult[] = [];
    for (const [name, accumulator] of this.endpoints) {
      if (accumulator.durations.length === 0 && accumulator.requests === null) continue;
      const sorted = accumulator.durations.sorted();
      for (const value of sorted) allDurations.push(value);
      endpoints.push(this.toResult(name, accumulator, sorted, spanSeconds));
    }
    const timelines = this.timeline.finish(this.firstTimeMs, this.lastTimeMs);
    for (const endpoint of endpoints) endpoint.timeline = timelines.endpoints.get(endpoint.name) ?? null;
    const aggregate = emptyEndpoint(AGGREGATE_NAME);
    aggregate.timeline = timelines.aggregate;
    aggregate.protocol = endpoints.length > 0 ? "http" : null;
    const allSorted = allDurations.sorted();
    aggregate.latency = summarizeSortedSamples(allSorted);
    aggregate.histogram = latencyHistogramOf(allSorted);
    aggregate.requests = endpoints.length > 0 ? endpoints.reduce((sum, e) => sum + (e.requests ?? 0), 0) : null;
    aggregate.failures = endpoints.every((e) => e.failures !== null) && endpoints.length > 0
      ? endpoints.reduce((sum, e) => sum + (e.failures ?? 0), 0)
      : null;
    aggregate.throughput = aggregate.requests !== null && spanSeconds !== null ? aggregate.requests / spanSeconds : null;
    const statusCodes = addCounts(endpoints.map((endpoint) => endpoint.statusCodes ?? {}));
    aggregate.statusCodes = Object.keys(statusCodes).length > 0 ? statusCodes : null;

    const run: ParsedRun = {
      ...emptyRun("k6-ndjson", "k6"),
      startedAt: Number.isFinite(this.firstTimeMs) ? new Date(this.firstTimeMs).toISOString() : null,
      durationSeconds: spanSeconds,
      endpoints,
      aggregate,
      checks: [...this.checks.values()],
    };
    if (this.vusMax !== null) run.environment.config.vus_max = this.vusMax;
    for (const [key, value] of this.constantTags) if (value !== null) run.environment.attributes[key] = value;

    if (endpoints.length === 0) run.notes.push("The k6 NDJSON has no http_req_duration points: no HTTP results to show.");
    if (this.declaredThresholds > 0) {
      run.notes.push(
        `k6 declares ${this.declaredThresholds} threshold(s) in the NDJSON but does not write their results there; ` +
          "upload the --summary-export or handleSummary JSON to keep pass/fail.",
      );
    }
    if (this.iterations > 0) run.metrics.iterations = { value: this.iterations, unit: "iterations", better: "higher" };
    run.notes.push(...timelines.notes);
    // The endpoints' timelines thinned as every tool's are (the aggregate's was, as it was made).
    return validateParsedRun(thinTimelines(run));
  }

  private toResult(name: string, accumulator: EndpointAccumulator, sorted: Float64Array, spanSeconds: number | null): EndpointResult {
    const result = emptyEndpoint(name);
    result.protocol = "http";
    result.method = accumulator.method;
    result.latency = summarizeSortedSamples(sorted);
    result.histogram = latencyHistogramOf(sorted);
    // Every request has one http_reqs point; fall back to duration points if the output was filtered.
    result.requests = accumulator.requests ?? accumulator.durations.length;
    result.failures = accumulator.failures;
    // Throughput over the whole run's span (not the endpoint's own first..last), as k6 reports rates.
    result.throughput = spanSeconds !== null ? result.requests / spanSeconds : null;
    result.statusCodes = Object.keys(accumulator.statusCodes).length > 0 ? { ...accumulator.statusCodes } : null;
    return result;
  }
}

/** Requests are grouped by k6's `name` tag (which defaults to the URL), else by method + URL. */
function endpointNameOf(tags: Record<string, string>): string {
  return tags.name ?? `${tags.method ?? "?"} ${tags.url ?? "?"}`;
}

/**
 * Parses k6 NDJSON from a stream of lines (without their line breaks) in batches, as they arrive,
 * holding only the reduced data.
 */
export async function parseK6Ndjson(lines: AsyncIterable<readonly string[]>): Promise<ParsedRun> {
  const accumulator = new K6NdjsonAccumulator();
  for await (const batch of lines) for (const line of batch) accumulator.addLine(line);
  return accumulator.finish();
}
