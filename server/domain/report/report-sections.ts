import { pagePaths } from "../urls";
import { branchUrlValue } from "../series/trend-branches";
import { endpointDisplayName, errorRateOf, isAggregate } from "../run";
import type { Better, EndpointResult, ParsedRun, ToolCheck } from "../run";
import { resultDisplayName, resultKindOf } from "../result-kind";
import type { ResultKind } from "../result-kind";
import { toHistogramBars } from "../series/histogram-bars";
import type { HistogramBar } from "../series/histogram-bars";

/**
 * The run report's sections below its header, shaped from a parsed run: the endpoint table's rows,
 * the latency histograms, status codes, errors, custom metrics and the tool's checks. Numbers stay
 * numbers (ms, req/s, 0..1) and missing ones stay null; pages only format them (server/domain/format.ts).
 */

export interface EndpointRow {
  /** Identity within the project (AGGREGATE_NAME for the aggregate). */
  name: string;
  displayName: string;
  fullName: string | null;
  method: string | null;
  /** An endpoint of a load test or a benchmark (../result-kind.ts): which words and units its row uses. */
  kind: ResultKind;
  isAggregate: boolean;
  /** The endpoint's trend page; null for the aggregate. */
  href: string | null;
  requests: number | null;
  failures: number | null;
  /** failures / requests, 0..1. */
  errorRate: number | null;
  requestsPerSecond: number | null;
  meanMs: number | null;
  p50Ms: number | null;
  p90Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  /** All of this endpoint's SLA checks passed (true), one failed (false), none had data or no policy (null). */
  slaCompliant: boolean | null;
}

export interface EndpointHistogram {
  endpoint: string;
  displayName: string;
  total: number;
  bars: HistogramBar[];
}

/** One drawn moment of a timeline: seconds since the run began (timelineOriginMs), and the figures of the window ending then. */
export interface TimelineRow {
  seconds: number;
  atMs: number;
  requestsPerSecond: number | null;
  failuresPerSecond: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  users: number | null;
}

export interface EndpointTimeline {
  endpoint: string;
  displayName: string;
  /** Points the tool wrote, and the ones drawn (every `step`-th when there are more than MAX_TIMELINE_ROWS). */
  total: number;
  step: number;
  rows: TimelineRow[];
  hasLatency: boolean;
  hasUsers: boolean;
  /**
   * Whose windows the points are: the tool's (Locust's history, artillery's periods), or Benchtrack's
   * one-second windows over the samples the tool wrote (k6 NDJSON: parsers/k6/k6-timeline.ts).
   */
  windows: "tool" | "per-second";
}

/** A chart draws this many moments at most; a longer timeline shows every n-th point the tool wrote. */
export const MAX_TIMELINE_ROWS = 600;

export type StatusTone = "good" | "bad" | "neutral";

export interface EndpointStatusCodes {
  endpoint: string;
  displayName: string;
  codes: { code: string; count: number; tone: StatusTone }[];
}

export interface ErrorRow {
  endpoint: string;
  displayName: string;
  message: string;
  count: number;
}

export interface MetricRow {
  /** null: a run-level metric. */
  endpoint: string | null;
  key: string;
  value: number;
  unit: string | null;
  better: Better | null;
}

export interface CheckRow {
  name: string;
  group: string | null;
  passes: number;
  fails: number;
  /** passes / (passes + fails), 0..1; null when the check never ran. */
  passRate: number | null;
}

/** One row of the endpoint table; `compliance` is the SLA grade's verdict per endpoint name. */
export function toEndpointRow(
  result: EndpointResult,
  projectSlug: string,
  compliance: ReadonlyMap<string, boolean | null>,
  /** The run's branch: its trend link draws that branch (null: the runs naming none). */
  branch: string | null = null,
): EndpointRow {
  const aggregate = isAggregate(result.name);
  const percentile = (key: string) => result.latency.percentiles[key] ?? null;
  const kind = resultKindOf(result);
  return {
    name: result.name,
    displayName: resultDisplayName(result.name, kind),
    fullName: result.fullName !== result.name ? result.fullName : null,
    method: result.method,
    kind,
    isAggregate: aggregate,
    href: aggregate ? null : pagePaths.endpoint(projectSlug, result, new URLSearchParams({ branch: branchUrlValue(branch) })),
    requests: result.requests,
    failures: result.failures,
    errorRate: errorRateOf(result),
    requestsPerSecond: result.throughput,
    meanMs: result.latency.meanMs,
    p50Ms: percentile("50"),
    p90Ms: percentile("90"),
    p95Ms: percentile("95"),
    p99Ms: percentile("99"),
    maxMs: result.latency.maxMs,
    slaCompliant: compliance.get(result.name) ?? null,
  };
}

/** Run-level metrics (the aggregate's and the run's own) first, then each endpoint's, by key. */
export function toMetricRows(run: ParsedRun): MetricRow[] {
  const rowsOf = (endpoint: string | null, metrics: EndpointResult["metrics"]) =>
    Object.entries(metrics)
      .map(([key, metric]) => ({ endpoint, key, value: metric.value, unit: metric.unit, better: metric.better }))
      .sort((a, b) => a.key.localeCompare(b.key, "en"));
  return [
    ...rowsOf(null, { ...run.aggregate.metrics, ...run.metrics }),
    ...run.endpoints.flatMap((endpoint) => rowsOf(endpoint.name, endpoint.metrics)),
  ];
}

/** Endpoints with a non-empty histogram, then the aggregate's when it has one. */
export function toHistograms(run: ParsedRun): EndpointHistogram[] {
  return [...run.endpoints, run.aggregate].flatMap((result) => {
    if (!result.histogram) return [];
    const bars = toHistogramBars(result.histogram);
    if (bars.length === 0) return [];
    const total = bars.reduce((sum, bar) => sum + bar.count, 0);
    return [{ endpoint: result.name, displayName: resultDisplayName(result.name, resultKindOf(result)), total, bars }];
  });
}

/**
 * When the run began, on its timelines' clock: the end of its last window less the run's duration (a
 * tool's timeline ends where its run ends). A point marks the END of its window, so the first one lies
 * a window into the run: artillery's first 10 s window, clipped to the run, ends 4.4 s after its first
 * request; Locust's HTML history starts 5 s in. Counting from the first point drew a 12 s run as 7.5 s.
 * The run's startedAt is no help here: upload metadata (`started_at`) may set it on another clock.
 * Without a duration, or with one shorter than the timeline, the first point is the origin.
 */
export function timelineOriginMs(run: Pick<ParsedRun, "aggregate" | "endpoints" | "durationSeconds">): number | null {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const result of [run.aggregate, ...run.endpoints]) {
    for (const point of result.timeline ?? []) {
      first = Math.min(first, point.atMs);
      last = Math.max(last, point.atMs);
    }
  }
  if (first > last) return null; // no timeline
  if (run.durationSeconds === null) return first;
  return Math.min(first, last - run.durationSeconds * 1000);
}

/**
 * The run's timelines (the aggregate's first, then each endpoint's), as rows to draw, each at its time
 * into the run (one origin for all, so an endpoint's chart lines up with the aggregate's). Long ones are
 * thinned to every n-th point the tool wrote (never averaged: each drawn value is one the tool gave),
 * and the caption says so.
 */
export function toTimelines(run: ParsedRun): EndpointTimeline[] {
  const origin = timelineOriginMs(run);
  const windows = run.format === "k6-ndjson" ? "per-second" : "tool";
  return [run.aggregate, ...run.endpoints].flatMap((result) => {
    const points = result.timeline ?? [];
    if (origin === null || points.length === 0) return [];
    const step = Math.ceil(points.length / MAX_TIMELINE_ROWS);
    const kept = points.filter((_, index) => index % step === 0 || index === points.length - 1);
    return [
      {
        endpoint: result.name,
        displayName: endpointDisplayName(result.name),
        total: points.length,
        step,
        rows: kept.map((point) => ({ ...point, seconds: (point.atMs - origin) / 1000 })),
        hasLatency: points.some((point) => point.p50Ms !== null || point.p95Ms !== null),
        hasUsers: points.some((point) => point.users !== null),
        windows,
      },
    ];
  });
}

/** OK and HTTP 1xx-3xx read as good; HTTP 4xx/5xx and other gRPC statuses as bad; anything else neutral. */
export function statusToneOf(code: string): StatusTone {
  if (code === "OK") return "good";
  if (/^[1-3]\d\d$/.test(code)) return "good";
  if (/^[45]\d\d$/.test(code)) return "bad";
  if (/^[A-Z][A-Za-z]+$/.test(code)) return "bad"; // gRPC status names other than OK
  return "neutral";
}

/** Status codes by endpoint (the aggregate's only when no endpoint has any), most frequent first. */
export function toStatusCodes(run: ParsedRun): EndpointStatusCodes[] {
  const sources = run.endpoints.some((endpoint) => endpoint.statusCodes) ? run.endpoints : [run.aggregate];
  return sources.flatMap((result) => {
    const entries = Object.entries(result.statusCodes ?? {});
    if (entries.length === 0) return [];
    const codes = entries
      .map(([code, count]) => ({ code, count, tone: statusToneOf(code) }))
      .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code, "en"));
    return [{ endpoint: result.name, displayName: endpointDisplayName(result.name), codes }];
  });
}

/** Error messages by endpoint (the aggregate's only when no endpoint has any), most frequent first. */
export function toErrorRows(run: ParsedRun): ErrorRow[] {
  const sources = run.endpoints.some((endpoint) => endpoint.errors) ? run.endpoints : [run.aggregate];
  return sources
    .flatMap((result) =>
      Object.entries(result.errors ?? {}).map(([message, count]) => ({
        endpoint: result.name,
        displayName: endpointDisplayName(result.name),
        message,
        count,
      })),
    )
    .sort((a, b) => b.count - a.count || a.endpoint.localeCompare(b.endpoint, "en"));
}

/** The tool's checks with their pass rates. */
export function toCheckRows(checks: readonly ToolCheck[]): CheckRow[] {
  return checks.map((check) => {
    const total = check.passes + check.fails;
    return { ...check, passRate: total > 0 ? check.passes / total : null };
  });
}
