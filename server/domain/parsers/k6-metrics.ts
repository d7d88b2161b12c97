/**
 * What the two k6 summary files have in common once their wire shapes are read: metrics by key (with
 * submetrics such as `http_req_duration{name:GetListing}`), threshold results and checks. Both
 * `k6-summary.ts` parsers turn their file into a `K6SummaryView`, then `buildK6SummaryRun` maps it to a
 * `ParsedRun` the same way, so the two formats cannot drift apart.
 */
import {
  AGGREGATE_NAME,
  emptyEndpoint,
  emptyEnvironment,
  type EndpointResult,
  type FormatId,
  type LatencySummary,
  type ParsedRun,
  type ToolCheck,
  type ToolThreshold,
} from "../run";

export interface K6MetricView {
  /** Trend stats (avg, min, med, max, p(95), count), counter (count, rate), rate (rate, passes, fails), gauge (value, min, max). */
  values: Record<string, number>;
  thresholds: { expression: string; passed: boolean }[];
}

export interface K6SummaryView {
  format: Extract<FormatId, "k6-summary" | "k6-handle-summary" | "k6-new-summary">;
  metrics: Map<string, K6MetricView>;
  checks: ToolCheck[];
  durationSeconds: number | null;
}

/** `http_req_duration{name:GetListing}` → base metric and tags; a plain metric has no tags. */
export function splitMetricKey(key: string): { base: string; tags: Record<string, string> } {
  const open = key.indexOf("{");
  if (open < 0 || !key.endsWith("}")) return { base: key, tags: {} };
  const tags: Record<string, string> = {};
  for (const pair of key.slice(open + 1, -1).split(",")) {
    const colon = pair.indexOf(":");
    if (colon > 0) tags[pair.slice(0, colon).trim()] = pair.slice(colon + 1).trim();
  }
  return { base: key.slice(0, open), tags };
}

/**
 * The endpoint a submetric describes: a `name` tag (k6's request name), or a `group` tag (`::Checkout`
 * → "Checkout"). Submetrics filtered on anything else (`expected_response:true`, `status:500`) describe
 * a slice of all requests, not an endpoint.
 */
function endpointNameOf(tags: Record<string, string>): string | null {
  const keys = Object.keys(tags);
  if (keys.length !== 1) return null;
  if (tags.name !== undefined && tags.name !== "") return tags.name;
  if (tags.group !== undefined && tags.group !== "") return tags.group.replace(/^::/, "");
  return null;
}

/** k6 trend stats → latency in ms (k6 writes times in ms in both files): `med` is p50, `p(99.9)` is "99.9". */
export function latencyFromTrend(values: Record<string, number>): LatencySummary {
  const percentiles: Record<string, number> = {};
  for (const [stat, value] of Object.entries(values)) {
    if (stat === "med") percentiles["50"] = value;
    const match = /^p\((\d+(?:\.\d+)?)\)$/.exec(stat);
    if (match?.[1] !== undefined) percentiles[String(Number(match[1]))] = value;
  }
  return {
    minMs: values.min ?? null,
    meanMs: values.avg ?? null,
    maxMs: values.max ?? null,
    stdDevMs: null,
    percentiles,
  };
}

interface EndpointMetrics {
  duration?: K6MetricView;
  reqs?: K6MetricView;
  failed?: K6MetricView;
}

function toEndpointResult(name: string, metrics: EndpointMetrics): EndpointResult {
  const result = emptyEndpoint(name);
  result.protocol = "http";
  if (metrics.duration) result.latency = latencyFromTrend(metrics.duration.values);
  result.requests = metrics.reqs?.values.count ?? metrics.duration?.values.count ?? null;
  result.throughput = metrics.reqs?.values.rate ?? null;
  // http_req_failed is a rate metric whose "true" samples are failed requests, and k6 counts true
  // samples as `passes`: e.g. passes 1, fails 1124, rate 1/1125 in baseline round 1.
  result.failures = metrics.failed?.values.passes ?? null;
  return result;
}

export function buildK6SummaryRun(view: K6SummaryView): ParsedRun {
  const byEndpoint = new Map<string, EndpointMetrics>();
  const overall: EndpointMetrics = {};
  const slotOf = { http_req_duration: "duration", http_reqs: "reqs", http_req_failed: "failed" } as const;
  const thresholds: ToolThreshold[] = [];

  for (const [key, metric] of view.metrics) {
    for (const threshold of metric.thresholds) thresholds.push({ metric: key, ...threshold });
    const { base, tags } = splitMetricKey(key);
    if (!(base === "http_req_duration" || base === "http_reqs" || base === "http_req_failed")) continue;
    const slot = slotOf[base];
    if (Object.keys(tags).length === 0) {
      overall[slot] = metric;
      continue;
    }
    const endpointName = endpointNameOf(tags);
    if (endpointName === null) continue;
    const entry = byEndpoint.get(endpointName) ?? {};
    entry[slot] = metric;
    byEndpoint.set(endpointName, entry);
  }

  const endpoints = [...byEndpoint.entries()]
    .filter(([, metrics]) => metrics.duration !== undefined || metrics.reqs !== undefined)
    .map(([name, metrics]) => toEndpointResult(name, metrics));
  const aggregate = toEndpointResult(AGGREGATE_NAME, overall);
  if (!overall.duration && !overall.reqs) aggregate.protocol = null;

  const environment = emptyEnvironment();
  const vus = view.metrics.get("vus")?.values.max;
  const vusMax = view.metrics.get("vus_max")?.values.max;
  if (vus !== undefined) environment.config.vus = vus;
  if (vusMax !== undefined) environment.config.vus_max = vusMax;

  const metrics: ParsedRun["metrics"] = {};
  const iterations = view.metrics.get("iterations")?.values;
  if (iterations?.count !== undefined) metrics.iterations = { value: iterations.count, unit: "iterations", better: "higher" };
  if (iterations?.rate !== undefined) metrics.iterations_per_second = { value: iterations.rate, unit: "/s", better: "higher" };

  const notes: string[] = [];
  if (endpoints.length === 0) {
    notes.push(
      "This k6 summary has no per-endpoint submetrics, so only the aggregate is available. k6 exports a " +
        "submetric per request name only when a threshold names it, e.g. 'http_req_duration{name:GetListing}'; " +
        "or upload the --out json points instead.",
    );
  }

  return {
    format: view.format,
    tool: "k6",
    toolVersion: null,
    label: null,
    round: null,
    startedAt: null,
    durationSeconds: view.durationSeconds ?? durationFromCounter(view.metrics.get("http_reqs")),
    environment,
    endpoints,
    aggregate,
    metrics,
    // k6 writes metrics in map order, which differs run to run; sort so equal runs compare equal.
    thresholds: thresholds.sort((a, b) => a.metric.localeCompare(b.metric) || a.expression.localeCompare(b.expression)),
    checks: view.checks,
    notes,
  };
}

/** k6 computes a counter's rate as count / test-run duration, so the duration can be read back from it. */
function durationFromCounter(counter: K6MetricView | undefined): number | null {
  const count = counter?.values.count;
  const rate = counter?.values.rate;
  if (count === undefined || rate === undefined || rate <= 0) return null;
  return count / rate;
}
