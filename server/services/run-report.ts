import { AGGREGATE_NAME, errorRateOf } from "../domain/run";
import type { Better, EndpointResult, HistogramBucket, ParsedRun, ToolThreshold } from "../domain/run";
import type { PrismaClient } from "../generated/prisma/client";
import type { SlaGrade } from "../domain/sla/grade";
import { pinnedRunIds } from "./baselines";
import { gradeParsedRun, getSlaPolicy } from "./sla";
import { loadParsedRun } from "./stored-runs";

/**
 * The run report page's data, shaped for display: one call returns everything the page renders, so
 * components only format numbers (components/lib/format.ts) and never reshape. Numbers stay numbers
 * (in ms, req/s, 0..1) and missing ones stay null; links are built here, and only from http(s) URLs.
 */

export const AGGREGATE_DISPLAY_NAME = "All endpoints";
/** Above this many buckets (Locust's one-per-rounded-value histograms), buckets merge into equal-width bins. */
export const MAX_HISTOGRAM_BARS = 40;

export interface EndpointRow {
  /** Identity within the project ("(all)" for the aggregate). */
  name: string;
  displayName: string;
  fullName: string | null;
  method: string | null;
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

export interface HistogramBar {
  /** Exclusive lower edge; null for the first bucket, which counts everything up to `upperMs`. */
  lowerMs: number | null;
  upperMs: number;
  count: number;
  /** count / total of the histogram, 0..1. */
  share: number;
}

export interface EndpointHistogram {
  endpoint: string;
  displayName: string;
  total: number;
  bars: HistogramBar[];
}

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
  better: Better;
}

export interface CheckRow {
  name: string;
  group: string | null;
  passes: number;
  fails: number;
  /** passes / (passes + fails), 0..1; null when the check never ran. */
  passRate: number | null;
}

export interface KeyValue {
  key: string;
  value: string | number | boolean;
}

export interface RunReport {
  project: { slug: string; name: string; repoUrl: string | null };
  run: {
    id: string;
    /** "baseline #1", or the tool's name when the run has no label. */
    title: string;
    label: string | null;
    round: number | null;
    tool: string;
    toolVersion: string | null;
    format: string;
    protocol: string | null;
    /** ISO 8601 (UTC). */
    startedAt: string | null;
    uploadedAt: string;
    durationSeconds: number | null;
    git: {
      commit: string | null;
      commitShort: string | null;
      commitUrl: string | null;
      branch: string | null;
      pullRequest: number | null;
      pullRequestUrl: string | null;
    };
    buildUrl: string | null;
    host: { name: string | null; cpus: number | null; memoryGb: number | null };
    appVersion: string | null;
    config: KeyValue[];
    attributes: KeyValue[];
    notes: string[];
  };
  links: { raw: string; json: string };
  endpoints: EndpointRow[];
  aggregate: EndpointRow;
  metrics: MetricRow[];
  histograms: EndpointHistogram[];
  statusCodes: EndpointStatusCodes[];
  errors: ErrorRow[];
  thresholds: ToolThreshold[];
  checks: CheckRow[];
  /** Against the project's current SLA policy; null when it has none. */
  grade: SlaGrade | null;
  /** Ready-made comparison links for the "compare with…" control. */
  compare: CompareLinks;
  /** Notes on this run ("deployed v2.3"), oldest first. */
  annotations: { id: string; text: string; createdAt: string }[];
  /** This run is (part of) a pinned baseline. */
  isPinnedBaseline: boolean;
}

export interface CompareLinks {
  /** The previous run with the same label on the same branch, vs this one. */
  previous: { href: string; title: string } | null;
  /** The newest 5 runs of a label vs this run, one per label in the project. */
  byLabel: { label: string; href: string }[];
}

export async function getRunReport(db: PrismaClient, projectSlug: string, runId: string): Promise<RunReport | null> {
  const project = await db.project.findUnique({
    where: { slug: projectSlug },
    select: { id: true, slug: true, name: true, repoUrl: true },
  });
  if (!project) return null;
  const [loaded, policy] = await Promise.all([loadParsedRun(db, project.id, runId), getSlaPolicy(db, project.id)]);
  if (!loaded) return null;
  const [previous, labels, annotations, pinned] = await Promise.all([
    db.run.findFirst({
      where: {
        projectId: project.id,
        label: loaded.run.label,
        gitBranch: loaded.run.environment.git.branch,
        startedAt: { lt: loaded.stored.startedAt },
      },
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
      select: { id: true, label: true, round: true, tool: true },
    }),
    db.run.groupBy({ by: ["label"], where: { projectId: project.id, label: { not: null } }, orderBy: { label: "asc" }, take: 12 }),
    db.annotation.findMany({ where: { projectId: project.id, runId: loaded.stored.id }, orderBy: { createdAt: "asc" }, select: { id: true, text: true, createdAt: true } }),
    pinnedRunIds(db, project.id),
  ]);
  const comparePath = `/projects/${encodeURIComponent(project.slug)}/compare`;
  const compare: CompareLinks = {
    previous: previous
      ? {
          href: `${comparePath}?${new URLSearchParams({ base: previous.id, head: loaded.stored.id })}`,
          title: runTitle({ label: previous.label, round: previous.round, tool: previous.tool }),
        }
      : null,
    byLabel: labels.flatMap(({ label }) =>
      label ? [{ label, href: `${comparePath}?${new URLSearchParams({ base: `label:${label}`, head: loaded.stored.id, last: "5" })}` }] : [],
    ),
  };
  return toRunReport(
    project,
    { id: loaded.stored.id, uploadedAt: loaded.stored.uploadedAt },
    loaded.run,
    {
      grade: gradeParsedRun(policy, loaded.run),
      compare,
      annotations: annotations.map((annotation) => ({ ...annotation, createdAt: annotation.createdAt.toISOString() })),
      isPinnedBaseline: pinned.has(loaded.stored.id),
    },
  );
}

/** Pure: a loaded run → the report. */
export function toRunReport(
  project: { slug: string; name: string; repoUrl: string | null },
  stored: { id: string; uploadedAt: Date },
  run: ParsedRun,
  extras: Pick<RunReport, "grade" | "compare" | "annotations" | "isPinnedBaseline"> = {
    grade: null,
    compare: { previous: null, byLabel: [] },
    annotations: [],
    isPinnedBaseline: false,
  },
): RunReport {
  const projectPath = `/projects/${encodeURIComponent(project.slug)}`;
  const apiPath = `/api/v1/projects/${encodeURIComponent(project.slug)}/runs/${encodeURIComponent(stored.id)}`;
  const repoUrl = safeHttpUrl(project.repoUrl)?.replace(/\/+$/, "") ?? null;
  const { git, ci, host, appVersion, config, attributes } = run.environment;
  const protocol = run.aggregate.protocol ?? (typeof config.protocol === "string" ? config.protocol : null);
  const compliance = new Map(extras.grade?.byEndpoint.map((entry) => [entry.endpoint, entry.isCompliant]) ?? []);
  const endpoints = run.endpoints.map((endpoint) => toEndpointRow(endpoint, projectPath, compliance));
  const aggregate = toEndpointRow(run.aggregate, projectPath, compliance);

  return {
    project: { slug: project.slug, name: project.name, repoUrl },
    run: {
      id: stored.id,
      title: runTitle(run),
      label: run.label,
      round: run.round,
      tool: run.tool,
      toolVersion: run.toolVersion,
      format: run.format,
      protocol,
      startedAt: run.startedAt,
      uploadedAt: stored.uploadedAt.toISOString(),
      durationSeconds: run.durationSeconds,
      git: {
        commit: git.commit,
        commitShort: git.commit ? git.commit.slice(0, 7) : null,
        commitUrl: git.commit && repoUrl ? `${repoUrl}/commit/${encodeURIComponent(git.commit)}` : null,
        branch: git.branch,
        pullRequest: git.pullRequest,
        pullRequestUrl: git.pullRequest !== null && repoUrl ? pullRequestUrl(repoUrl, git.pullRequest) : null,
      },
      buildUrl: safeHttpUrl(ci.buildUrl),
      host: { ...host },
      appVersion,
      // The protocol has its own place in the header; repeating it among the config adds nothing.
      config: toKeyValues(config).filter((entry) => !(entry.key === "protocol" && entry.value === protocol)),
      attributes: toKeyValues(attributes),
      notes: run.notes,
    },
    links: { raw: `${apiPath}/raw`, json: apiPath },
    endpoints,
    aggregate,
    metrics: toMetricRows(run),
    histograms: toHistograms(run),
    statusCodes: toStatusCodes(run),
    errors: toErrorRows(run),
    thresholds: run.thresholds,
    checks: run.checks.map((check) => {
      const total = check.passes + check.fails;
      return { ...check, passRate: total > 0 ? check.passes / total : null };
    }),
    ...extras,
  };
}

/** "baseline #1", "baseline", "ghz #2" (no label), or "ghz run". */
export function runTitle(run: Pick<ParsedRun, "label" | "round" | "tool">): string {
  const name = run.label ?? run.tool;
  if (run.round !== null) return `${name} #${run.round}`;
  return run.label ?? `${run.tool} run`;
}

function toEndpointRow(
  result: EndpointResult,
  projectPath: string,
  compliance: ReadonlyMap<string, boolean | null>,
): EndpointRow {
  const isAggregate = result.name === AGGREGATE_NAME;
  const percentile = (key: string) => result.latency.percentiles[key] ?? null;
  return {
    name: result.name,
    displayName: isAggregate ? AGGREGATE_DISPLAY_NAME : result.name,
    fullName: result.fullName !== result.name ? result.fullName : null,
    method: result.method,
    isAggregate,
    href: isAggregate ? null : `${projectPath}/endpoints/${encodeURIComponent(result.name)}`,
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

function displayNameOf(result: EndpointResult): string {
  return result.name === AGGREGATE_NAME ? AGGREGATE_DISPLAY_NAME : result.name;
}

function toKeyValues(record: Record<string, string | number | boolean>): KeyValue[] {
  return Object.entries(record)
    .map(([key, value]) => ({ key, value }))
    .sort((a, b) => a.key.localeCompare(b.key, "en"));
}

function toMetricRows(run: ParsedRun): MetricRow[] {
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
function toHistograms(run: ParsedRun): EndpointHistogram[] {
  return [...run.endpoints, run.aggregate].flatMap((result) => {
    if (!result.histogram) return [];
    const bars = toHistogramBars(result.histogram);
    if (bars.length === 0) return [];
    const total = bars.reduce((sum, bar) => sum + bar.count, 0);
    return [{ endpoint: result.name, displayName: displayNameOf(result), total, bars }];
  });
}

/**
 * Histogram buckets (ascending upper edges, bucket i covering (upper[i-1], upper[i]]) → chart bars with
 * each bar's range and share. Up to `maxBars` buckets are kept as they are; more (Locust gives one
 * bucket per rounded millisecond value) are merged into equal-width bins on a 1-2-5 step, empty bins
 * included, so the axis stays linear and readable.
 */
export function toHistogramBars(buckets: readonly HistogramBucket[], maxBars = MAX_HISTOGRAM_BARS): HistogramBar[] {
  const valid = buckets
    .filter((bucket) => Number.isFinite(bucket.upperMs) && Number.isFinite(bucket.count) && bucket.count >= 0)
    .slice()
    .sort((a, b) => a.upperMs - b.upperMs);
  const total = valid.reduce((sum, bucket) => sum + bucket.count, 0);
  if (valid.length === 0 || total === 0) return [];

  if (valid.length <= maxBars) {
    return valid.map((bucket, index) => ({
      lowerMs: index === 0 ? null : (valid[index - 1]?.upperMs ?? null),
      upperMs: bucket.upperMs,
      count: bucket.count,
      share: bucket.count / total,
    }));
  }

  const min = valid[0]?.upperMs ?? 0;
  const max = valid[valid.length - 1]?.upperMs ?? 0;
  const width = niceStep((max - min) / maxBars);
  const start = Math.floor(min / width) * width;
  const binCount = Math.max(1, Math.ceil((max - start) / width));
  const counts = new Array<number>(binCount).fill(0);
  for (const bucket of valid) {
    const index = Math.min(binCount - 1, Math.max(0, Math.ceil((bucket.upperMs - start) / width) - 1));
    counts[index] = (counts[index] ?? 0) + bucket.count;
  }
  return counts.map((count, index) => ({
    lowerMs: roundEdge(start + index * width),
    upperMs: roundEdge(start + (index + 1) * width),
    count,
    share: count / total,
  }));
}

/** The smallest 1, 2 or 5 × 10^n at least `raw` (a positive width; 1 when there is no spread). */
export function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  for (const factor of [1, 2, 5, 10]) {
    if (factor * magnitude >= raw * (1 - 1e-12)) return factor * magnitude;
  }
  return 10 * magnitude;
}

/** Undo floating-point noise from repeated additions (0.30000000000000004 → 0.3). */
function roundEdge(value: number): number {
  return Number(value.toPrecision(12));
}

/** OK and HTTP 1xx-3xx read as good; HTTP 4xx/5xx and other gRPC statuses as bad; anything else neutral. */
export function statusToneOf(code: string): StatusTone {
  if (code === "OK") return "good";
  if (/^[1-3]\d\d$/.test(code)) return "good";
  if (/^[45]\d\d$/.test(code)) return "bad";
  if (/^[A-Z][A-Za-z]+$/.test(code)) return "bad"; // gRPC status names other than OK
  return "neutral";
}

function toStatusCodes(run: ParsedRun): EndpointStatusCodes[] {
  const sources = run.endpoints.some((endpoint) => endpoint.statusCodes) ? run.endpoints : [run.aggregate];
  return sources.flatMap((result) => {
    const entries = Object.entries(result.statusCodes ?? {});
    if (entries.length === 0) return [];
    const codes = entries
      .map(([code, count]) => ({ code, count, tone: statusToneOf(code) }))
      .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code, "en"));
    return [{ endpoint: result.name, displayName: displayNameOf(result), codes }];
  });
}

/** Error messages by endpoint (the aggregate's only when no endpoint has any), most frequent first. */
function toErrorRows(run: ParsedRun): ErrorRow[] {
  const sources = run.endpoints.some((endpoint) => endpoint.errors) ? run.endpoints : [run.aggregate];
  return sources
    .flatMap((result) =>
      Object.entries(result.errors ?? {}).map(([message, count]) => ({
        endpoint: result.name,
        displayName: displayNameOf(result),
        message,
        count,
      })),
    )
    .sort((a, b) => b.count - a.count || a.endpoint.localeCompare(b.endpoint, "en"));
}

/** The URL when it is http(s); anything else (javascript:, data:, junk) is not linked. */
export function safeHttpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? value : null;
  } catch {
    return null;
  }
}

/** GitHub's and Gitea's /pull/N; GitLab's /-/merge_requests/N; unknown hosts are not guessed at. */
function pullRequestUrl(repoUrl: string, pullRequest: number): string | null {
  const host = new URL(repoUrl).hostname;
  if (host.includes("gitlab")) return `${repoUrl}/-/merge_requests/${pullRequest}`;
  if (host === "github.com" || host.includes("gitea") || host.includes("github")) return `${repoUrl}/pull/${pullRequest}`;
  return null;
}
