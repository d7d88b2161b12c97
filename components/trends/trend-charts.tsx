"use client";

import { useMemo } from "react";
import { TrendChart } from "@/components/charts/trend-chart";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { formatPct } from "@/server/domain/format";
import { availableTrendLines, hasValues, toTrendSeries } from "@/server/domain/series/trend-series";
import type { TrendLine } from "@/server/domain/series/trend-series";
import {
  ERROR_RATE_CHART_LINE,
  ERROR_RATE_FLOOR,
  THROUGHPUT_CHART_LINE,
  errorRateTickDigits,
  latencyChartLines,
  linesToDraw,
  toChartMarkers,
} from "./trend-chart-data";
import type { EndpointTrendsData } from "./trend-chart-data";
import { LineToggles } from "./trend-controls";
import { toggleTrendLine } from "./trend-view";
import type { TrendView } from "./trend-view";

/** Latency, throughput and error-rate charts share this id, so hovering one shows the run in all three. */
const SYNC_ID = "endpoint-trend";

/** The endpoint's latency chart (with its line toggles), then its throughput and error-rate charts. */
export function TrendCharts({
  data,
  view,
  onLinesChange,
  onSelectRun,
}: {
  data: EndpointTrendsData;
  view: TrendView;
  onLinesChange: (lines: TrendLine[]) => void;
  onSelectRun: (runId: string) => void;
}) {
  const series = useMemo(() => toTrendSeries(data.points, view.x), [data.points, view.x]);
  const available = useMemo(() => availableTrendLines(data.points), [data.points]);
  const enabled = linesToDraw(view.lines, available);
  const hasThroughput = hasValues(data.points, (point) => point.throughput);
  const hasErrorRate = hasValues(data.points, (point) => point.errorRate);
  const errorRateDigits = errorRateTickDigits(data.points.map((point) => point.errorRate));
  // Toggle from what is drawn, so a URL naming lines without data never needs two clicks.
  const toggle = (line: TrendLine) => onLinesChange(toggleTrendLine(enabled, line));

  return (
    <div className="space-y-4">
      {available.length > 0 ? (
        <Card title="Latency" actions={<LineToggles available={available} enabled={enabled} onToggle={toggle} />}>
          <TrendChart
            data={series}
            lines={latencyChartLines(enabled)}
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
              lines={[THROUGHPUT_CHART_LINE]}
              xMode={view.x}
              yLabel="req/s"
              syncId={SYNC_ID}
              height={200}
              title={`Throughput in requests per second, ${series.length} runs`}
              onSelectRun={onSelectRun}
              testId="throughput-chart"
              markers={toChartMarkers(data.markers, view.x, ["annotation", "deploy", "change"])}
            />
          </Card>
        )}
        {hasErrorRate && (
          <Card title="Error rate">
            <TrendChart
              data={series}
              lines={[ERROR_RATE_CHART_LINE]}
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
