/**
 * The one normalized shape every parser produces and every later stage (storage, pages, statistics)
 * consumes. Units are fixed here, at the boundary: latency in milliseconds, throughput in requests per
 * second, durations in seconds. Missing numbers are `null`, never invented or zero.
 */

/** Which direction of change is an improvement for a metric. */
export type Better = "lower" | "higher";

/**
 * A measurement other than latency: CPU %, memory MB, messages/s, completion time. `better` is null when
 * nobody said which way is an improvement (a k6 custom Counter with no threshold on it): such a metric is
 * shown and compared, but never judged regressed or improved.
 */
export interface CustomMetric {
  value: number;
  unit: string | null;
  better: Better | null;
  /**
   * A count the tool measured exactly (allocations, bytes allocated, instructions): the same in every
   * repetition of the run (or a count that cannot vary, as an instruction count under Valgrind), so a
   * change between runs is a change of the code, judged without noise (compare/exact-metrics.ts).
   * Absent (false) for everything measured with noise.
   */
  exact?: boolean;
}

/**
 * Latency of one endpoint (or the aggregate) in milliseconds.
 * `percentiles` maps the percentile as written by the tool ("50", "90", "95", "99", "99.9") to its value;
 * only percentiles the tool gave (or that were computed exactly from samples) are present.
 */
export interface LatencySummary {
  minMs: number | null;
  meanMs: number | null;
  maxMs: number | null;
  stdDevMs: number | null;
  percentiles: Record<string, number>;
}

/**
 * A latency histogram as ascending buckets; bucket i covers (upperMs[i-1], upperMs[i]].
 * Tools with exact-value histograms (Locust's rounded ms) give one bucket per value.
 */
export interface HistogramBucket {
  upperMs: number;
  count: number;
}

/**
 * One moment of a run's timeline, as the tool wrote it while the test ran (Locust's per-second history,
 * artillery's 10-second periods): throughput, failures and latency percentiles of that window. Null
 * where the tool gave nothing for the window (Locust writes "N/A" percentiles before the first answer).
 */
export interface TimelinePoint {
  /** End of the window, epoch milliseconds. */
  atMs: number;
  requestsPerSecond: number | null;
  failuresPerSecond: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  /** Concurrent users or VUs at that moment, when the tool says. */
  users: number | null;
}

export interface EndpointResult {
  /** Display name and identity within a project, e.g. "GetListing" or "GET /api/listings/:id". */
  name: string;
  /** The tool's full name when it differs from `name`, e.g. "listings.v1.ListingService.GetListing". */
  fullName: string | null;
  protocol: string | null;
  /** HTTP method when known. */
  method: string | null;
  requests: number | null;
  failures: number | null;
  /** Requests per second. */
  throughput: number | null;
  latency: LatencySummary;
  histogram: HistogramBucket[] | null;
  /** Status code (HTTP "200", gRPC "OK") → count. */
  statusCodes: Record<string, number> | null;
  /** Error message → count, when the tool reports them. */
  errors: Record<string, number> | null;
  metrics: Record<string, CustomMetric>;
  /** Throughput, failures and percentiles over the run, when the tool wrote them as it ran. */
  timeline: TimelinePoint[] | null;
}

export interface RunEnvironment {
  git: { commit: string | null; branch: string | null; pullRequest: number | null; repoUrl: string | null };
  ci: { buildUrl: string | null };
  host: { name: string | null; cpus: number | null; memoryGb: number | null };
  /**
   * The hardware the numbers were measured on, as one string ("linux/amd64 · AMD EPYC"): part of every
   * series' identity, so runs on different testbeds are never one series. From the upload's `testbed`
   * metadata, else what a benchmark file states (Go's cpu line, pytest's machine_info, Google
   * Benchmark's context), else null (one testbed of its own).
   */
  testbed: string | null;
  appVersion: string | null;
  /** Load configuration: vus, concurrency, rate, duration, protocol, target… as the tool states it. */
  config: Record<string, string | number | boolean>;
  /** Free-form key/values for filtering (variant, db, region…). */
  attributes: Record<string, string>;
}

/** A pass/fail criterion the tool itself evaluated (k6 thresholds). */
export interface ToolThreshold {
  metric: string;
  expression: string;
  passed: boolean;
}

/** A named assertion counted by the tool (k6 checks). */
export interface ToolCheck {
  name: string;
  group: string | null;
  passes: number;
  fails: number;
}

/**
 * Every format Benchtrack reads, one id each (what the upload answer's `format` says). What each keeps
 * and drops and the tool command that writes it: parsers/format-list.ts; its aliases for `?format=`:
 * parsers/formats.ts.
 */
const LOAD_FORMAT_IDS = [
  "benchtrack",
  "k6-summary",
  "k6-handle-summary",
  "k6-new-summary",
  "k6-ndjson",
  "locust-json",
  "locust-csv",
  "locust-html",
  "ghz",
  "ghz-csv",
  "vegeta-json",
  "vegeta-text",
  "vegeta-hist",
  "hey-text",
  "hey-csv",
  "wrk-text",
  "autocannon-json",
  "artillery-json",
  "artillery-console",
  "jmeter-csv",
  "jmeter-xml",
] as const;

/** The formats of microbenchmark tools: their runs are benchmarks, not load tests (docs/benchmarks.md). */
const BENCHMARK_FORMAT_IDS = [
  "go-bench-text",
  "go-bench-json",
  "hyperfine-json",
  "hyperfine-csv",
  "hyperfine-markdown",
  "hyperfine-text",
  "pytest-benchmark",
  "pytest-benchmark-text",
  "google-benchmark-json",
  "google-benchmark-console",
  "vitest-bench",
  "vitest-bench-text",
  "benchmarkjs-text",
  "jmh-json",
  "criterion-json",
  "benchmarkdotnet-json",
  "cachegrind",
  "callgrind",
  "custom-smaller-is-better",
  "custom-bigger-is-better",
  "bencher-bmf",
] as const;

export const FORMAT_IDS = [...LOAD_FORMAT_IDS, ...BENCHMARK_FORMAT_IDS] as const;

export type FormatId = (typeof FORMAT_IDS)[number];

export function isBenchmarkFormat(format: string): boolean {
  return (BENCHMARK_FORMAT_IDS as readonly string[]).includes(format);
}

export interface ParsedRun {
  format: FormatId;
  /** The tool that produced the numbers: "k6", "locust", "ghz", or a custom tool's name. */
  tool: string;
  toolVersion: string | null;
  label: string | null;
  round: number | null;
  /** ISO 8601 timestamp, or null when the file does not say. */
  startedAt: string | null;
  durationSeconds: number | null;
  environment: RunEnvironment;
  endpoints: EndpointResult[];
  /** The "all endpoints" result; always present (fields null where the tool gives nothing). */
  aggregate: EndpointResult;
  /** Run-level custom metrics. */
  metrics: Record<string, CustomMetric>;
  thresholds: ToolThreshold[];
  checks: ToolCheck[];
  /** Things the parser noticed and the user should know (e.g. "3 calls cancelled at shutdown"). */
  notes: string[];
}

/**
 * The run aggregate ("all endpoints"), one concept with three spellings, all defined here: its name in a
 * ParsedRun, comparisons and SLA grades; how it is shown; and its name in page URLs. It is stored as
 * `endpoint_id NULL` and sent as `endpoint: null` by the API.
 */
export const AGGREGATE_NAME = "(all)";
export const AGGREGATE_DISPLAY_NAME = "All endpoints";
/** `/projects/{p}/endpoints/_all`; reserved: the aggregate wins over an endpoint literally named "_all". */
export const AGGREGATE_URL_NAME = "_all";

/** `testbed=none` in a page URL: the runs that name no testbed (null is a testbed of its own). */
export const NO_TESTBED = "none";

/** True for the aggregate, however it is spelled here: AGGREGATE_NAME, or null (the database and the API). */
export function isAggregate(name: string | null): boolean {
  return name === null || name === AGGREGATE_NAME;
}

/** An endpoint's name as pages, Markdown and webhooks show it ("All endpoints" for the aggregate). */
export function endpointDisplayName(name: string | null): string {
  return isAggregate(name) ? AGGREGATE_DISPLAY_NAME : (name as string);
}

/**
 * What makes two results the same endpoint within a project: its name and its protocol (docs/statistics.md,
 * "Series"). gRPC `GetListing` and HTTP `GetListing` are two endpoints; a null protocol (a custom upload that
 * does not say) is a value of its own.
 */
export interface EndpointIdentity {
  name: string;
  protocol: string | null;
}

/**
 * The protocol of a microbenchmark's results (docs/benchmarks.md): a benchmark is stored as an endpoint
 * whose latency is its time per operation, whose throughput is operations per second and whose
 * `requests` are its samples (repetitions, rounds or timed runs), so every statistic works on it as on
 * an endpoint. Pages say "benchmark" for these.
 */
export const BENCHMARK_PROTOCOL = "benchmark";

/** Whether a result (or an endpoint identity) is a microbenchmark's. */
export function isBenchmark(endpoint: { protocol: string | null }): boolean {
  return endpoint.protocol === BENCHMARK_PROTOCOL;
}

/** One string per endpoint identity, for maps and sets. */
export function endpointKey(endpoint: EndpointIdentity): string {
  return `${endpoint.protocol ?? ""}\u0000${endpoint.name}`;
}

/**
 * A result as a stored run's numbers are read back for the CI gate (no histogram, status codes, errors or
 * timeline): what the gate's memories of stored runs hold (services/runs/run-numbers.ts, the judge threads').
 */
export function numbersOfResult(result: EndpointResult): EndpointResult {
  return { ...result, histogram: null, statusCodes: null, errors: null, timeline: null };
}

export function emptyLatency(): LatencySummary {
  return { minMs: null, meanMs: null, maxMs: null, stdDevMs: null, percentiles: {} };
}

export function emptyEnvironment(): RunEnvironment {
  return {
    git: { commit: null, branch: null, pullRequest: null, repoUrl: null },
    ci: { buildUrl: null },
    host: { name: null, cpus: null, memoryGb: null },
    testbed: null,
    appVersion: null,
    config: {},
    attributes: {},
  };
}

export function emptyEndpoint(name: string): EndpointResult {
  return {
    name,
    fullName: null,
    protocol: null,
    method: null,
    requests: null,
    failures: null,
    throughput: null,
    latency: emptyLatency(),
    histogram: null,
    statusCodes: null,
    errors: null,
    metrics: {},
    timeline: null,
  };
}

/**
 * A run of `format`, written by `tool`, of which nothing is known yet: no endpoints, an aggregate with
 * every number null, an empty environment. Every parser starts from it and sets only what its file says.
 */
export function emptyRun(format: FormatId, tool: string): ParsedRun {
  return {
    format,
    tool,
    toolVersion: null,
    label: null,
    round: null,
    startedAt: null,
    durationSeconds: null,
    environment: emptyEnvironment(),
    endpoints: [],
    aggregate: emptyEndpoint(AGGREGATE_NAME),
    metrics: {},
    thresholds: [],
    checks: [],
    notes: [],
  };
}

/** Failures / requests, or null when either is unknown or there were no requests. */
export function errorRateOf(result: Pick<EndpointResult, "requests" | "failures">): number | null {
  if (result.requests === null || result.failures === null || result.requests === 0) return null;
  return result.failures / result.requests;
}
