/**
 * `autocannon --json` output (autocannon 9): one JSON object for one target URL. Latency figures are
 * milliseconds (`min`, `mean`, `stddev`, `max` and `p0_001` … `p99_999`, read from autocannon's HDR
 * histogram: whole milliseconds, so a 0.4 ms answer shows as 0 or 1); `requests` and `throughput` are
 * statistics of per-second samples (requests/s and bytes/s), not of requests.
 *
 * What autocannon counts where (mcollina/autocannon lib/run.js, lib/aggregateResult.js):
 * - `requests.total` is `totalCompletedRequests`, incremented on every response whatever its status;
 *   `latency.totalCount` counts recorded latencies, which is NOT the same: with a rate limit (`-R`) the
 *   coordinated-omission correction records synthetic values, and `--excludeErrorStats` records 2xx
 *   only. So responses = `requests.total`. `requests.sent` also counts requests still in flight at the
 *   stop, which never completed.
 * - `errors` are connection errors INCLUDING timeouts: its `onTimeout` does `errors++; timeouts++`
 *   (README: "errors: the number of connection errors (including timeouts)"). They got no response, so
 *   they are not in `requests.total`. Here requests = responses + errors (every request that ended, as
 *   in the other parsers), failures = errors + `non2xx` (timeouts are not added again).
 * - `mismatches` (responses whose body differs from `--expectBody`) are responses already counted,
 *   possibly also as non-2xx; they are not added to failures but noted.
 * - Latency covers every response, errors included, unless `--excludeErrorStats` was given (the file
 *   does not say).
 *
 * Kept: the URL as the one endpoint (name = path + query, full URL as fullName; the aggregate is the
 * same), requests, failures, throughput = requests / `duration` (the measured seconds), latency with
 * every percentile autocannon wrote, status codes, errors/timeouts as error counts, start time and
 * duration, the stated load (connections, pipelining, workers) as config, and the bytes read per second
 * as a run metric (direction unknown: more bytes follow from more requests or bigger bodies).
 * Dropped: the per-second sample statistics of `requests` and `throughput` (spread of a 1 s counter),
 * `resets`, `sampleInt`. The configured `-d` is not in the file (only the measured `duration`), so
 * config holds no duration. Several URLs (the programmatic API) share one set of counts: aggregate only.
 */
import { z } from "zod";
import { InputError } from "../../input-error";
import {
  AGGREGATE_NAME,
  emptyEndpoint,
  emptyLatency,
  emptyRun,
  type CustomMetric,
  type EndpointResult,
  type LatencySummary,
  type ParsedRun,
} from "../../run";
import { aggregateEndpoints } from "../aggregate";
import { pathAndQueryOf } from "../url-path";
import { parseWire } from "../wire";

const count = z.number().int().nonnegative();
/** hdr-histogram-percentiles-obj writes NaN (JSON null) for the mean and stddev of an empty histogram. */
const stat = z.number().nullable();
/** `p2_5` → 2.5: every percentile key of an hdr-histogram-percentiles-obj object. */
const PERCENTILE_KEY = /^p(\d+)(?:_(\d+))?$/;

export const autocannonResultSchema = z.object({
  title: z.string().optional(),
  url: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  connections: count,
  pipelining: count.optional(),
  workers: count.optional(),
  duration: z.number().nonnegative(),
  start: z.iso.datetime({ offset: true }),
  finish: z.iso.datetime({ offset: true }).optional(),
  errors: count,
  timeouts: count,
  mismatches: count.optional(),
  non2xx: count,
  statusCodeStats: z
    .record(z.string().regex(/^\d{3}$/, "expected an HTTP status code"), z.object({ count }))
    .optional(),
  latency: z
    .object({ mean: stat, stddev: stat, min: stat, max: stat, totalCount: count.optional() })
    .catchall(z.number().nullable()),
  requests: z.object({ total: count, sent: count.optional() }).catchall(z.number().nullable()),
  throughput: z.object({ total: z.number().nonnegative() }).catchall(z.number().nullable()).optional(),
});
type AutocannonResult = z.infer<typeof autocannonResultSchema>;

export function parseAutocannonJson(document: unknown): ParsedRun {
  const result = parseWire(autocannonResultSchema, document, "autocannon --json result");
  const urls = Array.isArray(result.url) ? result.url : [result.url];
  const measured = measuredResultOf(result);
  const [onlyUrl] = urls;
  const endpoints = urls.length === 1 && onlyUrl !== undefined ? [endpointOf(onlyUrl, measured)] : [];
  const aggregate = endpoints.length > 0 ? aggregateEndpoints(endpoints) : measured;

  const run: ParsedRun = {
    ...emptyRun("autocannon-json", "autocannon"),
    startedAt: new Date(result.start).toISOString(),
    durationSeconds: result.duration,
    endpoints,
    aggregate,
    metrics: runMetricsOf(result),
    notes: notesOf(result, urls),
  };
  const { config } = run.environment;
  config.protocol = "http";
  config.connections = result.connections;
  if (result.pipelining !== undefined) config.pipelining = result.pipelining;
  if (result.workers !== undefined && result.workers > 0) config.workers = result.workers;
  if (urls.length === 1 && onlyUrl !== undefined) config.url = onlyUrl;
  return run;
}

/** The numbers of the whole file, under the aggregate's name (the endpoint copies them). */
function measuredResultOf(result: AutocannonResult): EndpointResult {
  const measured = emptyEndpoint(AGGREGATE_NAME);
  measured.protocol = "http";
  measured.requests = result.requests.total + result.errors;
  measured.failures = result.errors + result.non2xx;
  measured.throughput = result.duration > 0 ? measured.requests / result.duration : null;
  measured.statusCodes = result.statusCodeStats
    ? Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count: n }]) => [code, n]))
    : null;
  const errors: Record<string, number> = {};
  // Timeouts are part of `errors`: split them out so the two counts add up to `errors`.
  if (result.timeouts > 0) errors.timeout = result.timeouts;
  if (result.errors - result.timeouts > 0) errors["connection error"] = result.errors - result.timeouts;
  measured.errors = errors;
  measured.latency = latencyOf(result);
  return measured;
}

function latencyOf(result: AutocannonResult): LatencySummary {
  const { latency } = result;
  // No response at all: autocannon writes min 0 and NaN means, which are not measurements.
  if (result.requests.total === 0 || latency.totalCount === 0)
    return emptyLatency();
  const percentiles: Record<string, number> = {};
  for (const [key, value] of Object.entries(latency)) {
    const match = PERCENTILE_KEY.exec(key);
    if (!match || typeof value !== "number") continue;
    percentiles[String(Number(`${match[1]}.${match[2] ?? "0"}`))] = value;
  }
  return { minMs: latency.min, meanMs: latency.mean, maxMs: latency.max, stdDevMs: latency.stddev, percentiles };
}

function endpointOf(url: string, measured: EndpointResult): EndpointResult {
  const endpoint: EndpointResult = { ...measured, name: pathOf(url), fullName: url };
  endpoint.latency = { ...measured.latency, percentiles: { ...measured.latency.percentiles } };
  return endpoint;
}

/** The URL's path and query; an autocannon result always names an absolute URL. */
function pathOf(url: string): string {
  const path = pathAndQueryOf(url);
  if (path !== null) return path;
  throw new InputError(
    "malformed",
    `Not a valid autocannon --json result (url: "${url.slice(0, 200)}" is not a URL)`,
    [{ path: "url", message: "expected an absolute URL such as http://host/path" }],
  );
}

function runMetricsOf(result: AutocannonResult): Record<string, CustomMetric> {
  const metrics: Record<string, CustomMetric> = {};
  if (result.throughput && result.duration > 0) {
    metrics.bytes_read_per_second = { value: result.throughput.total / result.duration, unit: "B/s", better: null };
  }
  return metrics;
}

function notesOf(result: AutocannonResult, urls: readonly string[]): string[] {
  const notes: string[] = [];
  if (urls.length > 1) {
    notes.push(
      `autocannon spread its connections over ${urls.length} URLs and counts them together: kept as the all-endpoints result only.`,
    );
  }
  if (result.errors > 0) {
    const timeouts = result.timeouts > 0 ? ` (${result.timeouts} of them timeouts)` : "";
    notes.push(
      `${result.errors} request(s) ended in a connection error${timeouts} without a response; counted as requests and failures.`,
    );
  }
  if ((result.mismatches ?? 0) > 0) {
    notes.push(
      `${result.mismatches} response(s) did not match the expected body (--expectBody); they may also be non-2xx, so they are not added to failures.`,
    );
  }
  return notes;
}
