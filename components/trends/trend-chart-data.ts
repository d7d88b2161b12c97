/**
 * What the trend page's charts and cards draw, shaped from the `endpoint.trends` answer by pure
 * functions (tested in trend-chart-data.test.ts): the charts only draw what they are given. Names,
 * fields and formats come from the metric registry (server/domain/metrics.ts); colours from ./trend-lines.
 */
import type { TrendChartLine, TrendChartMarker } from "@/components/charts/trend-chart";
import type { RouterOutputs } from "@/server/api/root";
import { formatNumber } from "@/server/domain/format";
import { METRICS, customMetric } from "@/server/domain/metrics";
import type { MetricDefinition } from "@/server/domain/metrics";
import { formatResultMetric, metricShortName } from "@/server/domain/result-kind";
import type { ResultKinds } from "@/server/domain/result-kind";
import { DEFAULT_TREND_LINES, TREND_LINE_FIELD, TREND_LINES } from "@/server/domain/series/trend-series";
import { pagePaths } from "@/server/domain/urls";
import type { TrendLine, TrendValues, TrendXMode } from "@/server/domain/series/trend-series";
import {
  CUSTOM_METRIC_COLOR,
  ERROR_RATE_COLOR,
  GATE_THRESHOLD_COLOR,
  NOISE_BAND_COLOR,
  OVERLAY_COLOR,
  THROUGHPUT_COLOR,
  TREND_LINE_STYLE,
  TREND_MARKER_STYLE,
} from "./trend-lines";

export type EndpointTrendsData = RouterOutputs["endpoint"]["trends"];
export type MetricTrend = EndpointTrendsData["metrics"][number];
type TrendMarker = EndpointTrendsData["markers"][number];

/** The error rate as the page writes it in a legend or a value list (the registry's name is "errorRate"). */
const ERROR_RATE_NAME = "error rate";
/** The error-rate axis reaches at least 1%, so a flat series of zeros still reads as "0% of something". */
export const ERROR_RATE_FLOOR = 0.01;

/** A metric's values as its tooltips and value lists show them: the one formatter, by the metric's unit (a benchmark's throughput in ops/s). */
function formatterOf(metric: MetricDefinition, kind: ResultKinds = "endpoint"): (value: number | null) => string {
  return (value) => formatResultMetric(metric.name, metric.unit, value, kind);
}

/** The lines to draw: those asked for that have data; else the default ones that do; else any. */
export function linesToDraw(requested: readonly TrendLine[], available: readonly TrendLine[]): TrendLine[] {
  const wanted = requested.filter((line) => available.includes(line));
  if (wanted.length > 0) return wanted;
  const defaults = DEFAULT_TREND_LINES.filter((line) => available.includes(line));
  return defaults.length > 0 ? defaults : available.slice(0, 1);
}

/** The overlaid branch's or PR's p95 line ("feature/x p95", "PR #12 p95"), dotted at every run. */
export function overlayChartLine(overlay: NonNullable<EndpointTrendsData["overlay"]>): TrendChartLine {
  const who = overlay.target.kind === "branch" ? overlay.target.branch : `PR #${overlay.target.pullRequest}`;
  return {
    dataKey: "overlayP95Ms",
    name: `${who} p95`,
    color: OVERLAY_COLOR,
    format: formatterOf(METRICS.p95),
    hasDots: true,
  };
}

/** The base branch's p95 noise band behind the overlay. */
export function noiseBandOf(overlay: NonNullable<EndpointTrendsData["overlay"]>) {
  return { dataKey: "noiseBandMs", name: `${overlay.baseBranch} p95 noise band`, color: NOISE_BAND_COLOR };
}

/** The default branch's p95 noise band, drawn behind its own runs. */
export function defaultBranchBandOf(defaultBranch: string) {
  return { dataKey: "noiseBandMs", name: `${defaultBranch} p95 noise band`, color: NOISE_BAND_COLOR };
}

type DrawnThreshold = Extract<NonNullable<EndpointTrendsData["gate"]>["threshold"], { metric: TrendLine }>;

/** The gate's threshold as a labelled line: "gate: p95 +5% = 12.6 ms". */
export function gateThresholdLine(threshold: DrawnThreshold) {
  const value = formatterOf(METRICS[threshold.metric])(threshold.value);
  return { y: threshold.value, label: `gate: ${threshold.metric} +${formatNumber(threshold.minEffectPct)}% = ${value}`, color: GATE_THRESHOLD_COLOR };
}

/** The threshold in words under the chart: where it comes from, and what crossing it means. */
export function describeGateThreshold(threshold: DrawnThreshold, defaultBranch: string): string {
  const format = formatterOf(METRICS[threshold.metric]);
  const runs = `${formatNumber(threshold.baselineRuns, 0)} ${threshold.baselineRuns === 1 ? "run" : "runs"}`;
  return (
    `Gate threshold on ${defaultBranch}: the ${threshold.metric}${threshold.isAuto ? " (the gate's auto metric)" : ""} mean of the baseline a next run is judged against ` +
    `(${runs}, ${format(threshold.baselineMean)}) + the project's minimum effect of ${formatNumber(threshold.minEffectPct)}% = ${format(threshold.value)}. ` +
    "A run above it fails the gate only if the slowdown is also significant; below it, never."
  );
}

/** The latency chart's lines: each one's field, name, colour and format, in the given order. */
export function latencyChartLines(lines: readonly TrendLine[]): TrendChartLine[] {
  return lines.map((line) => ({
    dataKey: TREND_LINE_FIELD[line],
    name: METRICS[line].name,
    ...TREND_LINE_STYLE[line],
    format: formatterOf(METRICS[line]),
  }));
}

/** The throughput chart's line, in the kind's unit: req/s for an endpoint, ops/s for a benchmark. */
export function throughputChartLine(kind: ResultKinds): TrendChartLine {
  return {
    dataKey: METRICS.throughput.column,
    name: metricShortName(METRICS.throughput.name, kind),
    color: THROUGHPUT_COLOR,
    format: formatterOf(METRICS.throughput, kind),
  };
}

export const ERROR_RATE_CHART_LINE: TrendChartLine = {
  dataKey: METRICS.errorRate.column,
  name: ERROR_RATE_NAME,
  color: ERROR_RATE_COLOR,
  format: formatterOf(METRICS.errorRate),
};

/** A custom metric's one line, formatted in the unit its runs report. */
export function metricChartLine(metric: Pick<MetricTrend, "key" | "unit" | "better">): TrendChartLine {
  const definition = customMetric(metric.key, metric);
  return { dataKey: "value", name: definition.label, color: CUSTOM_METRIC_COLOR, format: formatterOf(definition) };
}

/** A custom metric's latest value, as its card shows it when there is no trend yet. */
export function formatCustomMetricValue(metric: Pick<MetricTrend, "key" | "unit" | "better">, value: number | null) {
  return formatterOf(customMetric(metric.key, metric))(value);
}

/**
 * Decimals of the error-rate axis ticks, one precision per axis from its top (at least the floor):
 * 2 under 5% ("0.30%, 0.60%…"), 1 under 50%, 0 from 50% ("10%, 20%…").
 */
export function errorRateTickDigits(errorRates: readonly (number | null)[]): number {
  const top = Math.max(ERROR_RATE_FLOOR, ...errorRates.map((errorRate) => errorRate ?? 0));
  return top < 0.05 ? 2 : top < 0.5 ? 1 : 0;
}

/**
 * Server markers at the chart's x (time or run order), coloured by kind; `kinds` keeps only those. A
 * marker on a drawn run stands where that run is drawn (`drawn`: the chart's points, whose x in time
 * mode may be spread by commit); one between runs at its time or its run's number. With the project's
 * `slug`, a change point of an incident links to the incident's page.
 */
export function toChartMarkers(
  markers: readonly TrendMarker[],
  xMode: TrendXMode,
  drawn: readonly { runId: string; x: number }[],
  { kinds, slug }: { kinds?: readonly TrendMarker["kind"][]; slug?: string } = {},
): TrendChartMarker[] {
  const drawnAt = new Map(drawn.map((point) => [point.runId, point.x]));
  return markers
    .filter((marker) => kinds === undefined || kinds.includes(marker.kind))
    .map((marker) => ({
      x: (marker.runId === null ? undefined : drawnAt.get(marker.runId)) ?? (xMode === "time" ? marker.time : marker.order),
      text: `${TREND_MARKER_STYLE[marker.kind].glyph} ${marker.text}`,
      color: TREND_MARKER_STYLE[marker.kind].color,
      ...(slug !== undefined && marker.incidentNumber !== undefined && { href: pagePaths.incident(slug, marker.incidentNumber) }),
    }));
}

/** "Showing all 6 runs", or how many of how many were drawn when the history was thinned. */
export function describeShownRuns(shown: number, total: number, isDownsampled: boolean): string {
  return isDownsampled
    ? `Showing ${formatNumber(shown, 0)} of ${formatNumber(total, 0)} runs (downsampled to fit the chart; the extremes of every line are kept)`
    : `Showing all ${formatNumber(total, 0)} runs`;
}

/**
 * A single run's values, as name → formatted value: every latency line, then throughput and error rate;
 * a benchmark's in its words (time/op, ops/s), without the error rate unless a sample failed.
 */
export function singleRunValues(run: TrendValues, kind: ResultKinds = "endpoint"): { name: string; value: string }[] {
  const hasErrorRate = kind !== "benchmark" || (run.errorRate ?? 0) > 0;
  return [
    ...TREND_LINES.map((line) => ({
      name: metricShortName(METRICS[line].name, kind),
      value: formatterOf(METRICS[line], kind)(run[TREND_LINE_FIELD[line]]),
    })),
    { name: metricShortName(METRICS.throughput.name, kind), value: formatterOf(METRICS.throughput, kind)(run.throughput) },
    ...(hasErrorRate ? [{ name: ERROR_RATE_NAME, value: formatterOf(METRICS.errorRate)(run.errorRate) }] : []),
  ];
}
