"use client";

import { useSuspenseQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useMemo, useTransition } from "react";
import { TrendChart } from "@/components/charts/trend-chart";
import type { TrendChartLine } from "@/components/charts/trend-chart";
import { cn } from "@/components/lib/cn";
import { formatMs, formatNumber, formatPct, formatRate } from "@/components/lib/format";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import type { RouterOutputs } from "@/server/api/root";
import {
  AGGREGATE_ENDPOINT,
  availableTrendLines,
  DEFAULT_TREND_LINES,
  hasValues,
  MIN_TREND_RUNS,
  TREND_LINE_FIELD,
  toTrendSeries,
} from "@/server/domain/series/trend-series";
import type { TrendLine, TrendXMode } from "@/server/domain/series/trend-series";
import { LatestRunsTable } from "./latest-runs-table";
import { LineToggles, TrendFilters, XModeToggle } from "./trend-controls";
import { formatMetricValue, TREND_LINE_STYLE } from "./trend-lines";
import {
  endpointTrendsPath,
  parseTrendView,
  runPath,
  serializeTrendView,
  toggleTrendLine,
  trendsQueryInput,
} from "./trend-view";
import type { TrendView } from "./trend-view";

type Trends = RouterOutputs["endpoint"]["trends"];
type MetricTrend = Trends["metrics"][number];

/** Latency, throughput and error-rate charts share this id, so hovering one shows the run in all three. */
const SYNC_ID = "endpoint-trend";
const ERROR_RATE_FLOOR = 0.01;

/**
 * `/projects/{p}/endpoints/{name}`: an endpoint's (or the aggregate's) trends. Data comes prefetched
 * by the page (first paint has it); view state lives in the URL. Lines and x mode only change the
 * drawing (URL replaced in place, no request); range, branch and label read other runs (navigation,
 * so the server prefetches them and the URL is shareable).
 */
export function EndpointTrends({ projectSlug, endpoint }: { projectSlug: string; endpoint: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const view = parseTrendView(new URLSearchParams(searchParams.toString()));
  const [isPending, startTransition] = useTransition();
  const { data } = useSuspenseQuery(trpc.endpoint.trends.queryOptions(trendsQueryInput(projectSlug, endpoint, view)));

  const replaceView = (next: TrendView) => {
    const query = serializeTrendView(next);
    window.history.replaceState(null, "", query === "" ? pathname : `${pathname}?${query}`);
  };
  const navigateTo = (href: string) => startTransition(() => router.push(href, { scroll: false }));
  const navigateView = (next: TrendView) =>
    navigateTo(endpointTrendsPath(projectSlug, data.endpoint.name, serializeTrendView(next)));
  const openRun = (runId: string) => router.push(runPath(projectSlug, runId));

  const title = data.endpoint.isAggregate ? "All endpoints" : data.endpoint.name;
  const hasFilters = view.branch !== null || view.label !== null || view.range !== "all";
  const shown = data.points.length;

  return (
    <div className={cn("space-y-4", isPending && "opacity-70 transition-opacity")} aria-busy={isPending}>
      <PageHeader
        title={title}
        subtitle={
          <span className="flex flex-wrap gap-x-2">
            <span>{data.endpoint.isAggregate ? "The run aggregate" : "Endpoint"} trends</span>
            {data.endpoint.fullName && data.endpoint.fullName !== data.endpoint.name && (
              <span className="font-mono text-xs">{data.endpoint.fullName}</span>
            )}
            {data.endpoint.protocol && <Badge>{data.endpoint.protocol}</Badge>}
          </span>
        }
        actions={
          <EndpointSwitcher
            current={data.endpoint.name}
            endpoints={data.endpoints}
            onChange={(name) => navigateTo(endpointTrendsPath(projectSlug, name, serializeTrendView(view)))}
          />
        }
      />

      <TrendFilters
        range={view.range}
        branch={view.branch}
        label={view.label}
        branches={data.filters.branches}
        labels={data.filters.labels}
        onRange={(range) => navigateView({ ...view, range })}
        onBranch={(branch) => navigateView({ ...view, branch })}
        onLabel={(label) => navigateView({ ...view, label })}
      />

      {data.totalRuns === 0 ? (
        <EmptyState title={hasFilters ? "No runs match these filters" : "No runs measured this endpoint yet"}>
          {hasFilters ? (
            <Link href={endpointTrendsPath(projectSlug, data.endpoint.name)} className="text-accent hover:underline">
              Clear the filters
            </Link>
          ) : (
            "Upload a run that includes it and its trend appears here."
          )}
        </EmptyState>
      ) : data.totalRuns < MIN_TREND_RUNS ? (
        <SingleRun projectSlug={projectSlug} data={data} hasFilters={hasFilters} />
      ) : (
        <>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-text-muted text-sm" data-testid="trend-count">
              {data.isDownsampled
                ? `Showing ${formatNumber(shown, 0)} of ${formatNumber(data.totalRuns, 0)} runs (downsampled to fit the chart; the extremes of every line are kept)`
                : `Showing all ${formatNumber(data.totalRuns, 0)} runs`}
            </p>
            <XModeToggle value={view.x} onChange={(x) => replaceView({ ...view, x })} />
          </div>
          <TrendCharts
            data={data}
            view={view}
            onLinesChange={(lines) => replaceView({ ...view, lines })}
            onSelectRun={openRun}
          />
          <MetricTrends
            metrics={data.metrics}
            xMode={view.x}
            isAggregate={data.endpoint.isAggregate}
            onSelectRun={openRun}
          />
          <Card title={`Latest ${data.latest.length} runs`} className="overflow-hidden" data-testid="latest-runs-card">
            <div className="-m-4">
              <LatestRunsTable projectSlug={projectSlug} runs={data.latest} />
            </div>
          </Card>
        </>
      )}
    </div>
  );
}

function EndpointSwitcher({
  current,
  endpoints,
  onChange,
}: {
  current: string;
  endpoints: readonly string[];
  onChange: (name: string) => void;
}) {
  return (
    <div className="flex min-w-0 items-center gap-1.5 text-xs">
      <label htmlFor="trend-endpoint" className="text-text-muted">
        Endpoint
      </label>
      <select
        id="trend-endpoint"
        value={current}
        onChange={(event) => onChange(event.target.value)}
        className="border-border bg-surface text-text max-w-56 min-w-0 truncate rounded-md border px-2 py-1 text-xs"
      >
        <option value={AGGREGATE_ENDPOINT}>All endpoints</option>
        {endpoints.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The lines to draw: those asked for that have data; else the default ones that do; else any. */
function linesToDraw(requested: readonly TrendLine[], available: readonly TrendLine[]): TrendLine[] {
  const wanted = requested.filter((line) => available.includes(line));
  if (wanted.length > 0) return wanted;
  const defaults = DEFAULT_TREND_LINES.filter((line) => available.includes(line));
  return defaults.length > 0 ? defaults : available.slice(0, 1);
}

function TrendCharts({
  data,
  view,
  onLinesChange,
  onSelectRun,
}: {
  data: Trends;
  view: TrendView;
  onLinesChange: (lines: TrendLine[]) => void;
  onSelectRun: (runId: string) => void;
}) {
  const series = useMemo(() => toTrendSeries(data.points, view.x), [data.points, view.x]);
  const available = useMemo(() => availableTrendLines(data.points), [data.points]);
  const enabled = linesToDraw(view.lines, available);
  const latencyLines: TrendChartLine[] = enabled.map((line) => ({
    dataKey: TREND_LINE_FIELD[line],
    ...TREND_LINE_STYLE[line],
    format: formatMs,
  }));
  const hasThroughput = hasValues(data.points, (point) => point.throughput);
  const hasErrorRate = hasValues(data.points, (point) => point.errorRate);
  // One precision per axis, from its top: "0.30%, 0.60%…" under 5%, "10%, 20%…" from 50%.
  const errorRateTop = Math.max(ERROR_RATE_FLOOR, ...data.points.map((point) => point.errorRate ?? 0));
  const errorRateDigits = errorRateTop < 0.05 ? 2 : errorRateTop < 0.5 ? 1 : 0;
  // Toggle from what is drawn, so a URL naming lines without data never needs two clicks.
  const toggle = (line: TrendLine) => onLinesChange(toggleTrendLine(enabled, line));

  return (
    <div className="space-y-4">
      {available.length > 0 ? (
        <Card title="Latency" actions={<LineToggles available={available} enabled={enabled} onToggle={toggle} />}>
          <TrendChart
            data={series}
            lines={latencyLines}
            xMode={view.x}
            yLabel="Latency (ms)"
            syncId={SYNC_ID}
            height={300}
            title={`Latency ${enabled.join(", ")} in milliseconds, ${series.length} runs`}
            onSelectRun={onSelectRun}
            testId="latency-chart"
            markers={toChartMarkers(data.markers, view.x)}
          />
        </Card>
      ) : (
        <EmptyState title="No latency reported">The tool gave no latency percentiles for this endpoint.</EmptyState>
      )}
      <div className="grid gap-4 lg:grid-cols-2">
        {hasThroughput && (
          <Card title="Throughput">
            <TrendChart
              data={series}
              lines={[{ dataKey: "throughput", name: "throughput", color: "var(--chart-2)", format: formatRate }]}
              xMode={view.x}
              yLabel="req/s"
              syncId={SYNC_ID}
              height={200}
              title={`Throughput in requests per second, ${series.length} runs`}
              onSelectRun={onSelectRun}
              testId="throughput-chart"
              markers={toChartMarkers(data.markers.filter((marker) => marker.kind === "annotation"), view.x)}
            />
          </Card>
        )}
        {hasErrorRate && (
          <Card title="Error rate">
            <TrendChart
              data={series}
              lines={[
                { dataKey: "errorRate", name: "error rate", color: "var(--bad)", format: (value) => formatPct(value) },
              ]}
              xMode={view.x}
              yLabel="errors (%)"
              yTickFormat={(value) => formatPct(value, errorRateDigits)}
              yDomainMax={ERROR_RATE_FLOOR}
              syncId={SYNC_ID}
              height={200}
              title={`Error rate in percent, ${series.length} runs`}
              onSelectRun={onSelectRun}
              testId="error-rate-chart"
            />
          </Card>
        )}
      </div>
    </div>
  );
}

function BetterBadge({ better }: { better: "lower" | "higher" }) {
  return <Badge tone="neutral">{better === "lower" ? "lower is better" : "higher is better"}</Badge>;
}

/** One small chart per custom metric (CPU %, memory MB…); a metric with one run shows its value. */
function MetricTrends({
  metrics,
  xMode,
  isAggregate,
  onSelectRun,
}: {
  metrics: readonly MetricTrend[];
  xMode: TrendXMode;
  isAggregate: boolean;
  onSelectRun: (runId: string) => void;
}) {
  if (metrics.length === 0) return null;
  return (
    <section aria-labelledby="custom-metrics" className="space-y-2">
      <h2 id="custom-metrics" className="text-sm font-semibold">
        {isAggregate ? "Run metrics" : "Custom metrics"}
      </h2>
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {metrics.map((metric) => (
          <MetricCard key={metric.key} metric={metric} xMode={xMode} onSelectRun={onSelectRun} />
        ))}
      </div>
    </section>
  );
}

function MetricCard({
  metric,
  xMode,
  onSelectRun,
}: {
  metric: MetricTrend;
  xMode: TrendXMode;
  onSelectRun: (runId: string) => void;
}) {
  const series = useMemo(() => toTrendSeries(metric.points, xMode), [metric.points, xMode]);
  const last = metric.points[metric.points.length - 1];
  const title = (
    <span>
      {metric.key}
      {metric.unit && <span className="text-text-muted font-normal"> ({metric.unit})</span>}
    </span>
  );
  return (
    <Card title={title} actions={<BetterBadge better={metric.better} />} data-testid={`metric-${metric.key}`}>
      {series.length >= MIN_TREND_RUNS ? (
        <>
          <TrendChart
            data={series}
            lines={[
              {
                dataKey: "value",
                name: metric.key,
                color: "var(--chart-1)",
                format: (value) => formatMetricValue(value, metric.unit),
              },
            ]}
            xMode={xMode}
            yLabel={metric.unit ?? "value"}
            height={160}
            title={`${metric.key} in ${metric.unit ?? "its unit"}, ${series.length} runs, ${metric.better} is better`}
            onSelectRun={onSelectRun}
            testId={`metric-chart-${metric.key}`}
          />
          {metric.isDownsampled && (
            <p className="text-text-muted mt-1 text-xs">
              Showing {formatNumber(series.length, 0)} of {formatNumber(metric.total, 0)} runs (downsampled)
            </p>
          )}
        </>
      ) : (
        <div>
          <p className="text-2xl font-semibold tabular-nums">{formatMetricValue(last?.value ?? null, metric.unit)}</p>
          <p className="text-text-muted mt-1 text-xs">
            A trend needs at least {MIN_TREND_RUNS} runs; this metric has 1.
          </p>
        </div>
      )}
    </Card>
  );
}

function SingleRun({ projectSlug, data, hasFilters }: { projectSlug: string; data: Trends; hasFilters: boolean }) {
  const run = data.latest[0] ?? data.points[0];
  if (!run) return null;
  const values: [string, string][] = [
    ["p50", formatMs(run.p50Ms)],
    ["p90", formatMs(run.p90Ms)],
    ["p95", formatMs(run.p95Ms)],
    ["p99", formatMs(run.p99Ms)],
    ["mean", formatMs(run.meanMs)],
    ["max", formatMs(run.maxMs)],
    ["throughput", formatRate(run.throughput)],
    ["error rate", formatPct(run.errorRate)],
  ];
  return (
    <div className="space-y-4" data-testid="single-run">
      <Card
        title="The only run so far"
        actions={
          <Link href={runPath(projectSlug, run.runId)} className="text-accent text-sm hover:underline">
            Open the run
          </Link>
        }
      >
        <p className="text-text-muted mb-3 text-sm" role="status">
          A trend needs at least {MIN_TREND_RUNS} runs; {hasFilters ? "these filters match" : "this endpoint has"} 1.
          Its values:
        </p>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {values.map(([name, value]) => (
            <div key={name} className="bg-surface-muted rounded-md px-3 py-2">
              <dt className="text-text-muted text-xs">{name}</dt>
              <dd className="font-semibold tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
      </Card>
      <MetricTrends
        metrics={data.metrics}
        xMode="time"
        isAggregate={data.endpoint.isAggregate}
        onSelectRun={() => undefined}
      />
    </div>
  );
}

const MARKER_COLOURS = {
  regression: "var(--bad)",
  improvement: "var(--good)",
  pinned: "var(--accent)",
  annotation: "var(--text-muted)",
} as const;

/** Server markers at the chart's x (time or run order), coloured by kind. */
function toChartMarkers(markers: RouterOutputs["endpoint"]["trends"]["markers"], xMode: "time" | "order") {
  return markers.map((marker) => ({
    x: xMode === "time" ? marker.time : marker.order,
    text: marker.kind === "pinned" ? `📌 ${marker.text}` : marker.kind === "annotation" ? `✎ ${marker.text}` : `◆ ${marker.text}`,
    color: MARKER_COLOURS[marker.kind],
  }));
}
