/**
 * Locust `--json`: an array of per-endpoint stats entries (Locust's `StatsEntry.serialize()`), with no
 * "Aggregated" entry. The aggregate is rebuilt the way Locust builds its own: counts summed, histograms
 * merged, percentiles from the merged histogram (`locust-histogram.ts`), throughput over the run's span.
 * Times are milliseconds; timestamps are unix seconds.
 */
import { z } from "zod";
import { AGGREGATE_NAME, emptyEndpoint, emptyRun, type EndpointResult, type ParsedRun } from "../../run";
import { maxOf, minOf } from "../aggregate";
import { addLocustHistograms, locustPercentiles, toHistogram } from "./locust-histogram";
import { parseWire } from "../wire";

const countSchema = z.number().int().nonnegative();

export const locustStatsEntrySchema = z.object({
  name: z.string(),
  method: z.string().nullable(),
  last_request_timestamp: z.number().nullable(),
  start_time: z.number(),
  num_requests: countSchema,
  num_none_requests: countSchema.optional(),
  num_failures: countSchema,
  total_response_time: z.number().nonnegative(),
  max_response_time: z.number().nonnegative(),
  min_response_time: z.number().nonnegative().nullable(),
  total_content_length: z.number().nonnegative().optional(),
  response_times: z.record(z.string().regex(/^\d+(\.\d+)?$/, "a response time in ms"), countSchema),
  num_reqs_per_sec: z.record(z.string(), countSchema).optional(),
  num_fail_per_sec: z.record(z.string(), countSchema).optional(),
});
type LocustStatsEntry = z.infer<typeof locustStatsEntrySchema>;

export const locustJsonSchema = z.array(locustStatsEntrySchema);

export function parseLocustJson(document: unknown): ParsedRun {
  const entries = parseWire(locustJsonSchema, document, "Locust --json output");
  // Locust divides every entry's count by the whole run's span (first start → last request), not the
  // entry's own, for its "Requests/s" column; the JSON has no run-level times, so take the extremes.
  const startSeconds = entries.length > 0 ? minOf(entries.map((e) => e.start_time)) : null;
  const lastTimes = entries.map((e) => e.last_request_timestamp).filter((t): t is number => t !== null);
  const lastSeconds = lastTimes.length > 0 ? maxOf(lastTimes) : null;
  const spanSeconds =
    startSeconds !== null && lastSeconds !== null && lastSeconds > startSeconds ? lastSeconds - startSeconds : null;

  const endpoints = entries.map((entry) => toEndpointResult(entry, spanSeconds));
  const aggregate = aggregateOf(entries, endpoints, spanSeconds);

  return {
    ...emptyRun("locust-json", "locust"),
    startedAt: startSeconds !== null ? new Date(startSeconds * 1000).toISOString() : null,
    durationSeconds: spanSeconds,
    endpoints,
    aggregate,
  };
}

function toEndpointResult(entry: LocustStatsEntry, spanSeconds: number | null): EndpointResult {
  const result = emptyEndpoint(entry.name);
  result.method = entry.method;
  result.protocol = "http";
  result.requests = entry.num_requests;
  result.failures = entry.num_failures;
  result.throughput = spanSeconds !== null ? entry.num_requests / spanSeconds : null;
  const histogram = toHistogram(entry.response_times);
  result.histogram = histogram;
  const timed = entry.num_requests - (entry.num_none_requests ?? 0);
  result.latency = {
    minMs: entry.min_response_time,
    meanMs: timed > 0 ? entry.total_response_time / timed : null,
    maxMs: timed > 0 ? entry.max_response_time : null,
    stdDevMs: null,
    percentiles: locustPercentiles(histogram),
  };
  return result;
}

function aggregateOf(
  entries: readonly LocustStatsEntry[],
  endpoints: readonly EndpointResult[],
  spanSeconds: number | null,
): EndpointResult {
  const aggregate = emptyEndpoint(AGGREGATE_NAME);
  if (entries.length === 0) return aggregate;
  aggregate.protocol = "http";
  const requests = sum(entries.map((e) => e.num_requests));
  const timed = requests - sum(entries.map((e) => e.num_none_requests ?? 0));
  aggregate.requests = requests;
  aggregate.failures = sum(entries.map((e) => e.num_failures));
  aggregate.throughput = spanSeconds !== null ? requests / spanSeconds : null;
  const histogram = addLocustHistograms(endpoints.map((e) => e.histogram ?? []));
  aggregate.histogram = histogram;
  const mins = entries.map((e) => e.min_response_time).filter((m): m is number => m !== null);
  aggregate.latency = {
    minMs: mins.length > 0 ? minOf(mins) : null,
    meanMs: timed > 0 ? sum(entries.map((e) => e.total_response_time)) / timed : null,
    maxMs: timed > 0 ? maxOf(entries.map((e) => e.max_response_time)) : null,
    stdDevMs: null,
    percentiles: locustPercentiles(histogram),
  };
  return aggregate;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
