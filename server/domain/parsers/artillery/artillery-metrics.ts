/**
 * What artillery 2.x's two outputs have in common once read (`artillery-json.ts`, `artillery-console.ts`):
 * counters, rates and summaries of the run or of one window (`MetricView`), mapped to a run the same way.
 *
 * Endpoints are the metrics-by-endpoint plugin's (default namespace): summaries
 * `plugins.metrics-by-endpoint.response_time.<Name>`, counters `….<Name>.codes.<status>` and, from its
 * onError hook, `….<Name>.errors.<code>`. Name as the plugin writes it (the request's `name` with
 * useOnlyRequestNames, else its path); method unknown. Without the plugin: the aggregate only.
 * - requests: an endpoint's responses (summary count; the console has none, so its codes' sum) plus its
 *   errors (no response); the aggregate's `http.requests` (else its codes' and errors' sum).
 * - failures: responses with status ≥ 400 plus errors (`errors.<code>` for the aggregate, where artillery
 *   also counts e.g. failed captures: failures of the scenario step too).
 * - throughput (JSON): requests / the run's span, firstMetricAt → lastMetricAt. artillery's own
 *   `http.request_rate` is the mean of its per-window rates (SSMS `pack`), pulled down by the partial
 *   windows (48/s for 600 requests in 11.9 s); the console gives no span, so its throughput stays null and
 *   that rate is kept as the run metric `http.request_rate` (what it is, not the run's throughput).
 * Percentiles are DDSketch estimates (1 % relative accuracy) rounded to 0.1 ms; no stdDev. Run metrics:
 * vusers created/completed/failed and the mean session length. Dropped: the `.2xx`/`.5xx` splits, bytes
 * downloaded, server-timing summaries, other plugins' metrics, the console's intermediate blocks.
 */
import {
  AGGREGATE_NAME,
  emptyEndpoint,
  emptyRun,
  endpointDisplayName,
  type Better,
  type CustomMetric,
  type EndpointResult,
  type FormatId,
  type LatencySummary,
  type ParsedRun,
} from "../../run";
import { sumOfCounts } from "../aggregate";

const ENDPOINT_TIME_PREFIX = "plugins.metrics-by-endpoint.response_time.";
const ENDPOINT_COUNTER = /^plugins\.metrics-by-endpoint\.(.+)\.(codes|errors)\.([^.]+)$/;

/** What both formats give for the run or one window. */
export interface MetricView {
  counters: Record<string, number>;
  rates: Record<string, number>;
  summaries: Record<string, Record<string, number>>;
}

/** One endpoint's (or the aggregate's) counts in a view. */
export interface Tally {
  requests: number | null;
  failures: number | null;
  summary: Record<string, number> | undefined;
  codes: Record<string, number>;
  errors: Record<string, number>;
}

export function buildArtilleryRun(format: FormatId, view: MetricView, spanMs: number | null): ParsedRun {
  const endpoints = [...endpointTallies(view)].map(([name, tally]) => resultOf(name, tally, spanMs));
  const tally = aggregateTally(view);
  const hasHttp = "http.requests" in view.counters || (tally.requests ?? 0) > 0; // not a websocket-only run
  const aggregate = resultOf(AGGREGATE_NAME, hasHttp ? tally : { ...tally, requests: null, failures: null }, spanMs);
  const run: ParsedRun = { ...emptyRun(format, "artillery"), endpoints, aggregate, metrics: runMetricsOf(view) };
  run.environment.config.protocol = "http";
  if (endpoints.length === 0)
    run.notes.push("No metrics-by-endpoint data in this artillery output: only the all-endpoints numbers are kept.");
  for (const result of [...endpoints, aggregate]) {
    if (result.requests === null || result.failures === null || result.failures <= result.requests) continue;
    run.notes.push(
      `${endpointDisplayName(result.name)}: artillery counted ${result.failures} failures (error responses plus errors such as failed captures, which can fall on the same responses) for ${result.requests} requests; failures are capped at the requests.`,
    );
    result.failures = result.requests;
  }
  const errorTotal = sumOfCounts(tally.errors);
  if (errorTotal > 0) {
    const listed = Object.entries(tally.errors)
      .map(([code, n]) => `${code} ×${n}`)
      .join(", ");
    run.notes.push(`artillery recorded ${errorTotal} error(s) (${listed}); counted as failures.`);
  }
  return run;
}

export function aggregateTally(view: MetricView): Tally {
  const codes = countersUnder(view.counters, "http.codes.");
  const errors = countersUnder(view.counters, "errors.");
  const requests = view.counters["http.requests"] ?? sumOfCounts(codes) + sumOfCounts(errors); // a window of no requests has no counter
  return {
    requests,
    failures: failuresOf(codes, errors),
    summary: view.summaries["http.response_time"],
    codes,
    errors,
  };
}

/** The plugin's endpoints in order of appearance, from its summaries and its counters. */
export function endpointTallies(view: MetricView): Map<string, Tally> {
  const names = new Set<string>();
  for (const key of Object.keys(view.summaries))
    if (key.startsWith(ENDPOINT_TIME_PREFIX)) names.add(key.slice(ENDPOINT_TIME_PREFIX.length));
  const counts = new Map<string, { codes: Record<string, number>; errors: Record<string, number> }>();
  for (const [key, value] of Object.entries(view.counters)) {
    const [, name, kind, code] = ENDPOINT_COUNTER.exec(key) ?? [];
    if (name === undefined || code === undefined) continue;
    names.add(name);
    const entry = counts.get(name) ?? { codes: {}, errors: {} };
    entry[kind === "codes" ? "codes" : "errors"][code] = value;
    counts.set(name, entry);
  }
  const tallies = new Map<string, Tally>();
  for (const name of names) {
    const { codes, errors } = counts.get(name) ?? { codes: {}, errors: {} };
    const summary = view.summaries[`${ENDPOINT_TIME_PREFIX}${name}`];
    const responses = summary?.count ?? sumOfCounts(codes);
    tallies.set(name, {
      requests: responses + sumOfCounts(errors),
      failures: failuresOf(codes, errors),
      summary,
      codes,
      errors,
    });
  }
  return tallies;
}

function resultOf(name: string, tally: Tally, spanMs: number | null): EndpointResult {
  const result = emptyEndpoint(name);
  result.protocol = "http";
  result.requests = tally.requests;
  result.failures = tally.failures;
  result.throughput = tally.requests === null || spanMs === null ? null : tally.requests / (spanMs / 1000);
  result.latency = latencyOf(tally.summary);
  result.statusCodes = { ...tally.codes };
  result.errors = { ...tally.errors };
  return result;
}

function latencyOf(summary: Record<string, number> | undefined): LatencySummary {
  const percentiles: Record<string, number> = {};
  for (const [stat, value] of Object.entries(summary ?? {})) {
    const key = percentileKeyOf(stat);
    if (key !== null && !(stat === "median" && "p50" in (summary ?? {}))) percentiles[key] = value;
  }
  return {
    minMs: summary?.min ?? null,
    meanMs: summary?.mean ?? null,
    maxMs: summary?.max ?? null,
    stdDevMs: null,
    percentiles,
  };
}

/** artillery's stat names: `median`/`p50` → "50", `p95` → "95", `p999` → "99.9". */
function percentileKeyOf(stat: string): string | null {
  if (stat === "median") return "50";
  const digits = /^p(\d+)$/.exec(stat)?.[1];
  if (digits === undefined) return null;
  return String(
    digits.length <= 2 || digits === "100" ? Number(digits) : Number(`${digits.slice(0, 2)}.${digits.slice(2)}`),
  );
}

function countersUnder(counters: Record<string, number>, prefix: string): Record<string, number> {
  const found: Record<string, number> = {};
  for (const [key, value] of Object.entries(counters))
    if (key.startsWith(prefix) && key.length > prefix.length) found[key.slice(prefix.length)] = value;
  return found;
}

function failuresOf(codes: Record<string, number>, errors: Record<string, number>): number {
  return Object.entries(codes).reduce((total, [code, n]) => total + (Number(code) >= 400 ? n : 0), 0) + sumOfCounts(errors);
}

const VUSER_COUNTERS: readonly (readonly [string, Better | null])[] = [
  ["vusers.created", null],
  ["vusers.completed", null],
  ["vusers.failed", "lower"],
];

function runMetricsOf(view: MetricView): Record<string, CustomMetric> {
  const metrics: Record<string, CustomMetric> = {};
  for (const [name, better] of VUSER_COUNTERS) {
    const value = view.counters[name];
    if (value !== undefined) metrics[name] = { value, unit: "vusers", better };
  }
  const sessionMean = view.summaries["vusers.session_length"]?.mean;
  if (sessionMean !== undefined)
    metrics["vusers.session_length mean"] = { value: sessionMean, unit: "ms", better: null };
  return metrics;
}
