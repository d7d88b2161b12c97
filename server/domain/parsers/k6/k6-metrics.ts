/**
 * What the three k6 summary files have in common (`k6-summary.ts`, `k6-handle-summary.ts`,
 * `k6-new-summary.ts`): the shape of a check, and once their wire shapes are read, metrics by key,
 * threshold results and checks. Each parser turns its file into a `K6SummaryView`, then
 * `buildK6SummaryRun` maps it to a `ParsedRun` the same way, so the formats cannot drift apart.
 *
 * Mapping:
 * - Endpoints come only from request-name sub-metrics, `http_req_duration{name:X}` (+ `http_reqs{name:X}`,
 *   `http_req_failed{name:X}`); a name that is a URL gives its path+query as the name, the URL as fullName.
 *   Group sub-metrics (`{group:::browse}`) are NOT endpoints: a group holds other requests (browse holds
 *   GetListing…), so endpoints and the aggregate would count them twice. They become run metrics.
 * - The plain http_req_duration/http_reqs/http_req_failed are the aggregate; iterations, vus, vus_max and
 *   checks are kept as before (metrics, load config, `checks`).
 * - Run metrics (`ParsedRun.metrics`), one scheme for every file:
 *   Trend `<key> <stat>` (stats as k6 writes them: `browse_flow_duration p(95)`,
 *   `http_req_duration{group:::browse} avg`): `avg`, `p(95)` and every stat a threshold on it names;
 *   Counter `<key>` = count and `<key> rate` = count per second; Rate `<key>` = the rate 0..1 ("ratio");
 *   Gauge `<key>` = its last value. `<key>` is k6's own metric key, sub-metric tags included.
 *   Kept: every metric k6 does not map elsewhere (custom metrics, and built-ins of other protocols such as
 *   grpc_req_duration) and every sub-metric, as k6 only writes sub-metrics a threshold names — except the
 *   `http_req_duration{expected_response:true}` k6 always adds, kept only when a threshold names it.
 *   Dropped unless a threshold names them: k6's HTTP timing breakdown (http_req_blocked … _receiving),
 *   data_sent/received, group_duration, iteration_duration (nobody compares them across runs by default).
 * - Units: "ms" for time (`contains: "time"`), "B" for data, null otherwise. The legacy --summary-export
 *   does not say which metrics hold times: its built-in time metrics are known to be ms, but a custom
 *   Trend's unit is left null (k6 writes raw numbers for non-time trends) and a note says so.
 * - Direction: from the metric's thresholds (`<`/`<=` → lower is better, `>`/`>=` → higher); else "lower"
 *   for time trends; else null (shown, never judged). Thresholds pointing both ways give null.
 * - At most MAX_ATTRIBUTES metrics: threshold-named ones first, then custom ones, by key; a note names
 *   the rest. Keys longer than MAX_METRIC_NAME_LENGTH are left out with a note.
 */
import { z } from "zod";
import {
  AGGREGATE_NAME,
  emptyEndpoint,
  emptyRun,
  type Better,
  type CustomMetric,
  type EndpointResult,
  type FormatId,
  type LatencySummary,
  type ParsedRun,
  type ToolCheck,
  type ToolThreshold,
} from "../../run";
import { pathAndQueryOf } from "../url-path";
import { MAX_ATTRIBUTES } from "../validate";

/** A check as all three files write it (grouped differently: see each parser). */
export const k6CheckSchema = z.object({
  name: z.string(),
  path: z.string().optional(),
  passes: z.number().int().nonnegative(),
  fails: z.number().int().nonnegative(),
});
export type K6Check = z.infer<typeof k6CheckSchema>;

export function toToolCheck(check: K6Check, groupPath: string): ToolCheck {
  return { name: check.name, group: groupPath === "" ? null : groupPath, passes: check.passes, fails: check.fails };
}

export type K6MetricType = "counter" | "gauge" | "rate" | "trend";

export interface K6MetricView {
  /** null when the file does not say and the stats fit no type (legacy export). */
  type: K6MetricType | null;
  /** k6's value kind ("time", "data", "default"); null in the legacy export, which does not say. */
  contains: string | null;
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

export const MAX_METRIC_NAME_LENGTH = 200;
const ENDPOINT_BASES = { http_req_duration: "duration", http_reqs: "reqs", http_req_failed: "failed" } as const;
/** Plain metrics the run already holds elsewhere: the aggregate, iterations, VUs (load config), checks. */
const REPRESENTED = new Set([...Object.keys(ENDPOINT_BASES), "iterations", "vus", "vus_max", "checks"]);
const DROPPED_UNLESS_THRESHOLD = new Set([
  "http_req_blocked", "http_req_connecting", "http_req_tls_handshaking", "http_req_sending", "http_req_waiting",
  "http_req_receiving", "data_sent", "data_received", "group_duration", "iteration_duration",
]);
/** The sub-metric k6 adds on its own (no threshold asked for it). */
const AUTOMATIC_SUBMETRICS = new Set(["http_req_duration{expected_response:true}"]);
/** Built-in metrics whose unit k6 fixes, for the legacy export that does not say. */
const LEGACY_TIME_BASES = new Set([
  "http_req_duration", "http_req_blocked", "http_req_connecting", "http_req_tls_handshaking", "http_req_sending",
  "http_req_waiting", "http_req_receiving", "iteration_duration", "group_duration", "grpc_req_duration",
  "ws_connecting", "ws_ping", "ws_session_duration",
]);
const LEGACY_DATA_BASES = new Set(["data_sent", "data_received"]);
/** k6 threshold syntax: `<aggregation> <operator> <value>`, e.g. `p(95)<35`, `rate>0.99`, `avg<=15`. */
const THRESHOLD_PATTERN = /^\s*([a-z]+(?:\(\s*\d+(?:\.\d+)?\s*\))?)\s*(<=|>=|<|>|===|==|!=)\s*\S+\s*$/i;

type EndpointMetrics = Partial<Record<(typeof ENDPOINT_BASES)[keyof typeof ENDPOINT_BASES], K6MetricView>>;

function isEndpointBase(base: string): base is keyof typeof ENDPOINT_BASES {
  return Object.hasOwn(ENDPOINT_BASES, base);
}

/** `http_req_duration{name:GetListing}` → base metric and tags; a plain metric has no tags. */
function splitMetricKey(key: string): { base: string; tags: Record<string, string> } {
  const open = key.indexOf("{");
  if (open < 0 || !key.endsWith("}")) return { base: key, tags: {} };
  const tags: Record<string, string> = {};
  for (const pair of key.slice(open + 1, -1).split(",")) {
    const colon = pair.indexOf(":");
    if (colon > 0) tags[pair.slice(0, colon).trim()] = pair.slice(colon + 1).trim();
  }
  return { base: key.slice(0, open), tags };
}

/** `p( 99.90 )` → `p(99.9)`; other stats as written. */
function normalizeStat(stat: string): string {
  const match = /^p\(\s*(\d+(?:\.\d+)?)\s*\)$/.exec(stat);
  return match?.[1] === undefined ? stat : `p(${Number(match[1])})`;
}

/** The stat a threshold tests and the direction it asks for; null for an expression k6 syntax does not match. */
function parseThresholdExpression(expression: string): { stat: string; better: Better | null } | null {
  const match = THRESHOLD_PATTERN.exec(expression);
  if (match?.[1] === undefined || match[2] === undefined) return null;
  const better = match[2].startsWith("<") ? "lower" : match[2].startsWith(">") ? "higher" : null;
  return { stat: normalizeStat(match[1]), better };
}

/** k6 trend stats → latency in ms (k6 writes times in ms in every file): `med` is p50, `p(99.9)` is "99.9". */
function latencyFromTrend(values: Record<string, number>): LatencySummary {
  const percentiles: Record<string, number> = {};
  for (const [stat, value] of Object.entries(values)) {
    if (stat === "med") percentiles["50"] = value;
    const match = /^p\((\d+(?:\.\d+)?)\)$/.exec(stat);
    if (match?.[1] !== undefined) percentiles[String(Number(match[1]))] = value;
  }
  return { minMs: values.min ?? null, meanMs: values.avg ?? null, maxMs: values.max ?? null, stdDevMs: null, percentiles };
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

/** A `name` tag that is a URL (k6's default name) → its path+query as the name, the URL as fullName. */
function endpointNames(requestNames: readonly string[]): Map<string, { name: string; fullName: string | null }> {
  // Only `scheme://…` names: "GetListing:v2" would parse as a URL of scheme "getlisting".
  const pathOf = (name: string): string | null => (/^[a-z][a-z0-9+.-]*:\/\//i.test(name) ? pathAndQueryOf(name) : null);
  const paths = requestNames.map(pathOf);
  const named = new Map<string, { name: string; fullName: string | null }>();
  for (const [index, requestName] of requestNames.entries()) {
    const path = paths[index] ?? null;
    // Two hosts with one path (or a request already named by that path) keep their whole URLs apart.
    const unique = path !== null && paths.filter((other) => other === path).length === 1 && !requestNames.includes(path);
    named.set(requestName, unique ? { name: path, fullName: requestName } : { name: requestName, fullName: null });
  }
  return named;
}

export function buildK6SummaryRun(view: K6SummaryView): ParsedRun {
  const byEndpoint = new Map<string, EndpointMetrics>();
  const overall: EndpointMetrics = {};
  const thresholds: ToolThreshold[] = [];

  for (const [key, metric] of view.metrics) {
    for (const threshold of metric.thresholds) thresholds.push({ metric: key, ...threshold });
    const { base, tags } = splitMetricKey(key);
    if (!isEndpointBase(base)) continue;
    const slot = ENDPOINT_BASES[base];
    const tagNames = Object.keys(tags);
    if (tagNames.length === 0) overall[slot] = metric;
    else if (tagNames.length === 1 && tags.name) byEndpoint.set(tags.name, { ...byEndpoint.get(tags.name), [slot]: metric });
  }

  // Sorted: k6 writes metrics in map order, which differs run to run.
  const requestNames = [...byEndpoint.entries()]
    .filter(([, m]) => m.duration !== undefined || m.reqs !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
  const names = endpointNames(requestNames.map(([name]) => name));
  const endpoints = requestNames.map(([requestName, metrics]) => {
    const { name, fullName } = names.get(requestName) ?? { name: requestName, fullName: null };
    return { ...toEndpointResult(name, metrics), fullName };
  });
  const aggregate = toEndpointResult(AGGREGATE_NAME, overall);
  if (!overall.duration && !overall.reqs) aggregate.protocol = null;

  const run: ParsedRun = {
    ...emptyRun(view.format, "k6"),
    durationSeconds: view.durationSeconds ?? durationFromCounter(view.metrics.get("http_reqs")),
    endpoints,
    aggregate,
    // k6 writes metrics in map order, which differs run to run; sort so equal runs compare equal.
    thresholds: thresholds.sort((a, b) => a.metric.localeCompare(b.metric) || a.expression.localeCompare(b.expression)),
    checks: view.checks,
  };
  const vus = view.metrics.get("vus")?.values.max;
  const vusMax = view.metrics.get("vus_max")?.values.max;
  if (vus !== undefined) run.environment.config.vus = vus;
  if (vusMax !== undefined) run.environment.config.vus_max = vusMax;

  if (endpoints.length === 0) {
    run.notes.push(
      "This k6 summary has no per-endpoint submetrics, so only the aggregate is available. k6 exports a " +
        "submetric per request name only when a threshold names it, e.g. 'http_req_duration{name:GetListing}'; " +
        "or upload the --out json points instead.",
    );
  }
  run.metrics = runMetricsOf(view, run.notes);
  return run;
}

interface Candidate {
  key: string;
  /** 0: a threshold names it; 1: a custom metric; sorted by priority, then key. */
  priority: number;
  entries: [string, CustomMetric][];
}

/** The run metrics of a summary (scheme in the header), appending what it noticed to `notes`. */
function runMetricsOf(view: K6SummaryView, notes: string[]): Record<string, CustomMetric> {
  const metrics: Record<string, CustomMetric> = {};
  const iterations = view.metrics.get("iterations")?.values;
  if (iterations?.count !== undefined) metrics.iterations = { value: iterations.count, unit: "iterations", better: "higher" };
  if (iterations?.rate !== undefined) metrics.iterations_per_second = { value: iterations.rate, unit: "/s", better: "higher" };

  const candidates: Candidate[] = [];
  const unknownUnits: string[] = [];
  const missingStats: string[] = [];
  const tooLong: string[] = [];
  const groups: string[] = [];
  for (const [key, metric] of view.metrics) {
    const { base, tags } = splitMetricKey(key);
    const isSubmetric = Object.keys(tags).length > 0;
    const thresholdStats = metric.thresholds.flatMap(({ expression }) => parseThresholdExpression(expression) ?? []);
    if (metric.type === "trend") {
      const given = new Set(Object.keys(metric.values).map(normalizeStat));
      for (const { stat } of thresholdStats) if (!given.has(stat)) missingStats.push(`${key} ${stat}`);
    }
    const namedByThreshold = metric.thresholds.length > 0 || (isSubmetric && !AUTOMATIC_SUBMETRICS.has(key));
    const isEndpointPart = isEndpointBase(base) && (!isSubmetric || (Object.keys(tags).length === 1 && tags.name));
    if (isEndpointPart || (!isSubmetric && REPRESENTED.has(base))) continue;
    if (!namedByThreshold && (isSubmetric || DROPPED_UNLESS_THRESHOLD.has(base))) continue;
    if (metric.type === null) continue;
    if (tags.group !== undefined) groups.push(key);
    const unit = unitOf(base, metric);
    if (metric.type === "trend" && unit === null && metric.contains === null) unknownUnits.push(key);
    const directions = new Set(thresholdStats.map((t) => t.better));
    const fromThresholds = directions.size === 1 ? [...directions][0] ?? null : null;
    const better = fromThresholds ?? (metric.type === "trend" && unit === "ms" && directions.size === 0 ? "lower" : null);
    const statsNamed = thresholdStats.map((t) => t.stat);
    candidates.push({ key, priority: namedByThreshold ? 0 : 1, entries: entriesOf(key, metric, unit, better, statsNamed) });
  }

  candidates.sort((a, b) => a.priority - b.priority || a.key.localeCompare(b.key));
  const leftOut: string[] = [];
  for (const { entries } of candidates) {
    for (const [name, value] of entries) {
      if (name.length > MAX_METRIC_NAME_LENGTH) tooLong.push(`${name.slice(0, 60)}…`);
      else if (Object.keys(metrics).length < MAX_ATTRIBUTES) metrics[name] = value;
      else leftOut.push(name);
    }
  }

  const said: [string[], string][] = [
    [groups, "k6 group sub-metrics are kept as run metrics, not endpoints (a group holds other requests, which would count twice)"],
    [unknownUnits, "The --summary-export does not say which custom trends hold times, so their unit is left unknown (handleSummary's JSON says)"],
    [missingStats, "k6 evaluated thresholds on stats this summary does not hold (add them to summaryTrendStats to keep them)"],
    [tooLong, `k6 metric values with names over ${MAX_METRIC_NAME_LENGTH} characters are left out`],
    [leftOut, `${leftOut.length} k6 metric value(s) left out (at most ${MAX_ATTRIBUTES} per run)`],
  ];
  for (const [names, sentence] of said) if (names.length > 0) notes.push(`${sentence}: ${listOf(names)}.`);
  return metrics;
}

/** Up to 10 names, sorted, so a note stays short (and equal runs give equal notes). */
function listOf(names: string[]): string {
  const sorted = [...names].sort();
  return `${sorted.slice(0, 10).join(", ")}${sorted.length > 10 ? `, … (${sorted.length} in all)` : ""}`;
}

function unitOf(base: string, metric: K6MetricView): string | null {
  if (metric.contains === "time" || (metric.contains === null && LEGACY_TIME_BASES.has(base))) return "ms";
  if (metric.contains === "data" || (metric.contains === null && LEGACY_DATA_BASES.has(base))) return "B";
  return null;
}

function entriesOf(key: string, metric: K6MetricView, unit: string | null, better: Better | null, statsNamed: readonly string[]): [string, CustomMetric][] {
  const { values } = metric;
  const entry = (name: string, value: number | undefined, entryUnit: string | null): [string, CustomMetric][] =>
    value === undefined ? [] : [[name, { value, unit: entryUnit, better }]];
  switch (metric.type) {
    case "trend": {
      const byStat = new Map(Object.entries(values).map(([stat, value]) => [normalizeStat(stat), value]));
      const preferred = byStat.has("avg") || byStat.has("p(95)") ? ["avg", "p(95)"] : ["med"];
      const stats = [...new Set([...preferred, ...statsNamed])];
      return stats.flatMap((stat) => entry(`${key} ${stat}`, byStat.get(stat), unit));
    }
    case "counter":
      return [...entry(key, values.count, unit), ...entry(`${key} rate`, values.rate, unit === null ? "/s" : `${unit}/s`)];
    case "rate":
      return entry(key, values.rate, "ratio");
    case "gauge":
      return entry(key, values.value, unit);
    default:
      return [];
  }
}

/** k6 computes a counter's rate as count / test-run duration, so the duration can be read back from it. */
function durationFromCounter(counter: K6MetricView | undefined): number | null {
  const count = counter?.values.count;
  const rate = counter?.values.rate;
  if (count === undefined || rate === undefined || rate <= 0) return null;
  return count / rate;
}
