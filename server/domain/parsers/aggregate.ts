/**
 * The "all endpoints" result built from per-endpoint results when a tool does not give one.
 * Only what can be derived exactly is filled: counts add up, throughput of endpoints measured side by
 * side adds up, min/max/weighted mean are exact. Percentiles do NOT combine (the p95 of a union is not
 * a function of the parts' p95s), so they stay empty unless the caller has samples or a histogram.
 */
import { AGGREGATE_NAME, emptyEndpoint, type EndpointResult } from "../run";

export function aggregateEndpoints(endpoints: readonly EndpointResult[]): EndpointResult {
  const aggregate = emptyEndpoint(AGGREGATE_NAME);
  if (endpoints.length === 0) return aggregate;
  aggregate.requests = sumIfAllKnown(endpoints.map((e) => e.requests));
  aggregate.failures = sumIfAllKnown(endpoints.map((e) => e.failures));
  aggregate.throughput = sumIfAllKnown(endpoints.map((e) => e.throughput));
  aggregate.statusCodes = mergeCountsIfAllKnown(endpoints.map((e) => e.statusCodes));
  aggregate.errors = mergeCountsIfAllKnown(endpoints.map((e) => e.errors));
  const protocols = new Set(endpoints.map((e) => e.protocol));
  if (protocols.size === 1) aggregate.protocol = endpoints[0]?.protocol ?? null;

  const mins = endpoints.map((e) => e.latency.minMs);
  const maxes = endpoints.map((e) => e.latency.maxMs);
  aggregate.latency.minMs = mins.every(isNumber) ? minOf(mins) : null;
  aggregate.latency.maxMs = maxes.every(isNumber) ? maxOf(maxes) : null;
  aggregate.latency.meanMs = weightedMean(endpoints);

  // With a single endpoint the aggregate IS that endpoint, so its percentiles are honest.
  const only = endpoints.length === 1 ? endpoints[0] : undefined;
  if (only) {
    aggregate.latency = { ...only.latency, percentiles: { ...only.latency.percentiles } };
    aggregate.histogram = only.histogram ? only.histogram.map((bucket) => ({ ...bucket })) : null;
  }
  return aggregate;
}

/**
 * The smallest and largest of many numbers. `Math.min(...values)` passes every value as an argument and
 * overflows the call stack past ~120,000 of them (a ghz report's details[], a week of Locust history).
 */
export function minOf(values: readonly number[]): number {
  let min = Number.POSITIVE_INFINITY;
  for (const value of values) if (value < min) min = value;
  return min;
}

export function maxOf(values: readonly number[]): number {
  let max = Number.NEGATIVE_INFINITY;
  for (const value of values) if (value > max) max = value;
  return max;
}

function sumIfAllKnown(values: readonly (number | null)[]): number | null {
  if (values.length === 0 || !values.every(isNumber)) return null;
  return values.reduce((sum, value) => sum + value, 0);
}

export function mergeCountsIfAllKnown(
  maps: readonly (Record<string, number> | null)[],
): Record<string, number> | null {
  if (maps.length === 0 || maps.some((map) => map === null)) return null;
  return addCounts(maps.map((map) => map ?? {}));
}

/** Count maps (status code or message → count) added key by key. */
export function addCounts(maps: readonly Readonly<Record<string, number>>[]): Record<string, number> {
  const added: Record<string, number> = {};
  for (const map of maps) for (const [key, count] of Object.entries(map)) added[key] = (added[key] ?? 0) + count;
  return added;
}

/** Every count of a map added up (all status codes' counts: the responses). */
export function sumOfCounts(counts: Readonly<Record<string, number>>): number {
  return Object.values(counts).reduce((sum, count) => sum + count, 0);
}

/** Mean latency over all requests: each endpoint's mean weighted by its request count. */
function weightedMean(endpoints: readonly EndpointResult[]): number | null {
  let weightedSum = 0;
  let totalWeight = 0;
  for (const endpoint of endpoints) {
    const { meanMs } = endpoint.latency;
    if (meanMs === null || endpoint.requests === null) return null;
    weightedSum += meanMs * endpoint.requests;
    totalWeight += endpoint.requests;
  }
  return totalWeight > 0 ? weightedSum / totalWeight : null;
}

function isNumber(value: number | null): value is number {
  return value !== null;
}
