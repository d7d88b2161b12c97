"use client";

import { useMemo } from "react";
import { TrendChart } from "@/components/charts/trend-chart";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { formatNumber } from "@/server/domain/format";
import { MIN_TREND_RUNS, toTrendSeries } from "@/server/domain/series/trend-series";
import type { TrendXMode } from "@/server/domain/series/trend-series";
import { formatCustomMetricValue, metricChartLine } from "./trend-chart-data";
import type { MetricTrend } from "./trend-chart-data";

/** One small chart per custom metric (CPU %, memory MB…); a metric with one run shows its value. */
export function MetricTrends({
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

function BetterBadge({ better }: { better: "lower" | "higher" | null }) {
  return <Badge tone="neutral">{better === null ? "direction unknown" : better === "lower" ? "lower is better" : "higher is better"}</Badge>;
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
      {/* A benchmark's metric is keyed by its unit ("B/op"): said once. */}
      {metric.unit && metric.unit !== metric.key && <span className="text-text-muted font-normal"> ({metric.unit})</span>}
    </span>
  );
  return (
    <Card title={title} actions={<BetterBadge better={metric.better} />} data-testid={`metric-${metric.key}`}>
      {series.length >= MIN_TREND_RUNS ? (
        <>
          <TrendChart
            data={series}
            lines={[metricChartLine(metric)]}
            xMode={xMode}
            yLabel={metric.unit ?? "value"}
            height={160}
            title={`${metric.key} in ${metric.unit ?? "its unit"}, ${series.length} runs, ${metric.better === null ? "direction unknown" : `${metric.better} is better`}`}
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
          <p className="text-2xl font-semibold tabular-nums">{formatCustomMetricValue(metric, last?.value ?? null)}</p>
          <p className="text-text-muted mt-1 text-xs">
            A trend needs at least {MIN_TREND_RUNS} runs; this metric has 1.
          </p>
        </div>
      )}
    </Card>
  );
}
