/**
 * ghz `-O json` reports. One report measures one gRPC method, so it becomes one endpoint; an array of
 * reports (one per method, as CI usually runs them) becomes one run. Times are nanoseconds on the wire
 * (histogram marks are seconds) and milliseconds here.
 *
 * What ghz counts where (checked on the fixtures): `count` and `details[]` include calls that ended in
 * an error; `fastest/slowest`, `latencyDistribution` and `histogram` cover only the OK calls (ghz's
 * default without `--count-errors`); but `average` is the mean over ALL calls (it equals the mean of
 * every `details[]` latency to the nanosecond, not the mean of the OK ones). ghz's own percentiles are
 * nearest-rank over the OK calls (runner/reporter.go `latencies`) and are kept as ghz wrote them.
 *
 * Histograms: ghz's `histogram` has 11 linear buckets between that report's fastest and slowest call, so
 * two reports' buckets never line up and rounds cannot be pooled. When `details[]` is complete (it holds
 * every call; ghz caps it), the endpoint's histogram is instead the HDR histogram of its OK calls
 * (`stats/latency-histogram.ts`, fixed log-spaced edges), and a multi-report aggregate gets the HDR
 * histogram of every report's OK calls; ghz's linear one is kept only when details are incomplete.
 */
import { z } from "zod";
import { AGGREGATE_NAME, emptyEndpoint, emptyRun, type EndpointResult, type ParsedRun } from "../../run";
import { latencyHistogramOf } from "../../stats/latency-histogram";
import { summarizeSamples } from "../../stats/percentile";
import { aggregateEndpoints, maxOf, minOf, sumOfCounts } from "../aggregate";
import { GHZ_SAMPLE_PERCENTILES, shutdownNoteOf } from "./ghz-calls";
import { parseWire } from "../wire";

const NS_PER_MS = 1e6;
const nanoseconds = z.number().nonnegative();
const count = z.number().int().nonnegative();

export const ghzReportSchema = z.object({
  date: z.string(),
  name: z.string().optional(),
  endReason: z.string().optional(),
  options: z.object({
    call: z.string().min(1),
    host: z.string().optional(),
    concurrency: z.number().optional(),
    connections: z.number().optional(),
    rps: z.number().optional(),
    /** Run duration (`-z`), ns. */
    duration: z.number().optional(),
  }),
  count,
  total: nanoseconds,
  average: nanoseconds,
  fastest: nanoseconds,
  slowest: nanoseconds,
  rps: z.number().nonnegative(),
  errorDistribution: z.record(z.string(), count).nullish(),
  statusCodeDistribution: z.record(z.string(), count).nullish(),
  latencyDistribution: z.array(z.object({ percentage: z.number().min(0).max(100), latency: nanoseconds })).nullish(),
  histogram: z.array(z.object({ mark: z.number().nonnegative(), count, frequency: z.number() })).nullish(),
  details: z
    .array(z.object({ timestamp: z.string(), latency: nanoseconds, error: z.string(), status: z.string() }))
    .nullish(),
  tags: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullish(),
});
type GhzReport = z.infer<typeof ghzReportSchema>;

export const ghzInputSchema = z.union([ghzReportSchema, z.array(ghzReportSchema).min(1)]);

export function parseGhz(document: unknown): ParsedRun {
  const parsed = parseWire(ghzInputSchema, document, "ghz JSON report");
  const reports = Array.isArray(parsed) ? parsed : [parsed];
  const endpoints = reports.map(toEndpointResult);
  const windows = reports.map(runWindowOf);
  const startMs = minOf(windows.map((w) => w.startMs));
  const endMs = maxOf(windows.map((w) => w.endMs));
  const durationSeconds = Number.isFinite(endMs - startMs) && endMs > startMs ? (endMs - startMs) / 1000 : null;

  const run: ParsedRun = {
    ...emptyRun("ghz", "ghz"),
    startedAt: Number.isFinite(startMs) ? new Date(startMs).toISOString() : null,
    durationSeconds,
    endpoints,
    aggregate: aggregateOf(reports, endpoints, durationSeconds),
    notes: reports.flatMap((report) =>
      shutdownNoteOf(methodNameOf(report.options.call), report.statusCodeDistribution ?? {}, report.endReason ?? null),
    ),
  };
  const { environment } = run;
  const agreedConfig = {
    name: agreed(reports.map((r) => r.name)),
    call: agreed(reports.map((r) => r.options.call)),
    host: agreed(reports.map((r) => r.options.host)),
    concurrency: agreed(reports.map((r) => r.options.concurrency)),
    connections: agreed(reports.map((r) => r.options.connections)),
    rps: agreed(reports.map((r) => r.options.rps)),
    durationSeconds: agreed(reports.map((r) => (r.options.duration === undefined ? undefined : r.options.duration / 1e9))),
  };
  for (const [key, value] of Object.entries(agreedConfig)) if (value !== undefined) environment.config[key] = value;
  environment.config.protocol = "grpc";
  const tagKeys = new Set(reports.flatMap((r) => Object.keys(r.tags ?? {})));
  for (const key of tagKeys) {
    const value = agreed(reports.map((r) => r.tags?.[key]));
    if (value !== undefined) environment.attributes[key] = String(value);
  }
  return run;
}

function toEndpointResult(report: GhzReport): EndpointResult {
  const call = report.options.call;
  const result = emptyEndpoint(methodNameOf(call));
  result.fullName = call;
  result.protocol = "grpc";
  result.requests = report.count;
  const okCalls = okCallsOf(report);
  result.failures = report.count - okCalls;
  result.throughput = report.rps;
  result.statusCodes = report.statusCodeDistribution ? { ...report.statusCodeDistribution } : null;
  result.errors = report.errorDistribution ? { ...report.errorDistribution } : null;
  if (okCalls === 0) return result; // ghz reports zeros for latency when nothing succeeded

  const percentiles: Record<string, number> = {};
  for (const { percentage, latency } of report.latencyDistribution ?? []) percentiles[String(percentage)] = latency / NS_PER_MS;
  const okLatencies = hasAllDetails(report) ? okLatenciesMs(report) : null;
  result.latency = {
    minMs: report.fastest / NS_PER_MS,
    meanMs: report.average / NS_PER_MS,
    maxMs: report.slowest / NS_PER_MS,
    // ghz gives no spread; the per-call details (when complete) give it exactly.
    stdDevMs: okLatencies ? summarizeSamples(okLatencies, []).stdDevMs : null,
    percentiles,
  };
  // Complete details give the HDR histogram (poolable across rounds); else ghz's linear one, as written.
  result.histogram = okLatencies
    ? latencyHistogramOf(okLatencies)
    : (report.histogram?.map((bucket) => ({ upperMs: bucket.mark * 1000, count: bucket.count })) ?? null);
  return result;
}

/** `listings.v1.ListingService.GetListing` (or `…ListingService/GetListing`) → `GetListing`. */
function methodNameOf(call: string): string {
  const parts = call.split(/[./]/).filter((part) => part !== "");
  return parts[parts.length - 1] ?? call;
}

function okCallsOf(report: GhzReport): number {
  if (report.statusCodeDistribution) return report.statusCodeDistribution.OK ?? 0;
  const errors = sumOfCounts(report.errorDistribution ?? {});
  return Math.max(0, report.count - errors);
}

/** ghz may cap `details[]`; only a complete list stands in for the whole run. */
function hasAllDetails(report: GhzReport): boolean {
  return report.details !== null && report.details !== undefined && report.details.length === report.count;
}

function okLatenciesMs(report: GhzReport): number[] {
  return (report.details ?? []).filter((d) => d.status === "OK").map((d) => d.latency / NS_PER_MS);
}

/**
 * ghz writes `date` when the report is finalised, i.e. at the END of the run (the fixtures' first call
 * is ~10 s before it, and `date` is truncated to the second). The start is the earliest call's
 * timestamp when details exist, else `date − total`.
 */
function runWindowOf(report: GhzReport): { startMs: number; endMs: number } {
  const totalMs = report.total / NS_PER_MS;
  const detailStarts = (report.details ?? []).map((d) => Date.parse(d.timestamp)).filter((t) => !Number.isNaN(t));
  const dateMs = Date.parse(report.date);
  if (detailStarts.length > 0) {
    const startMs = minOf(detailStarts);
    return { startMs, endMs: startMs + totalMs };
  }
  if (Number.isNaN(dateMs)) return { startMs: Number.NaN, endMs: Number.NaN };
  return { startMs: dateMs - totalMs, endMs: dateMs };
}

function aggregateOf(reports: readonly GhzReport[], endpoints: readonly EndpointResult[], spanSeconds: number | null): EndpointResult {
  const aggregate = aggregateEndpoints(endpoints);
  aggregate.name = AGGREGATE_NAME;
  if (reports.length === 1) return aggregate;
  // Reports are often run one after another, so their rps do not add up; count over the shared span.
  aggregate.throughput = aggregate.requests !== null && spanSeconds !== null ? aggregate.requests / spanSeconds : null;
  // Percentiles of a union cannot be derived from each report's percentiles or from histograms with
  // different bucket edges. They are exact only from every OK call's latency, i.e. when each report's
  // details[] is complete; otherwise they stay empty rather than approximated.
  const okTotal = reports.reduce((sum, report) => sum + okCallsOf(report), 0);
  if (reports.every(hasAllDetails) && okTotal > 0) {
    const okLatencies = reports.flatMap(okLatenciesMs);
    const { meanMs } = aggregate.latency; // count-weighted `average`s: over all calls, as ghz's own mean
    aggregate.latency = { ...summarizeSamples(okLatencies, GHZ_SAMPLE_PERCENTILES), meanMs };
    aggregate.histogram = latencyHistogramOf(okLatencies);
  }
  return aggregate;
}

/** The value every report agrees on, or undefined when they differ or none has it. */
function agreed<T extends string | number | boolean>(values: readonly (T | null | undefined)[]): T | undefined {
  const first = values[0];
  if (first === undefined || first === null) return undefined;
  return values.every((value) => value === first) ? first : undefined;
}
