"use client";

import { useMemo } from "react";
import { TrendChart } from "@/components/charts/trend-chart";
import type { TrendChartDatum } from "@/components/charts/trend-chart";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { withoutUnit } from "@/components/runs/display";
import { formatMs, formatOpsRate, formatPct } from "@/server/domain/format";
import { wordsOf } from "@/server/domain/result-kind";
import type { ResultKinds } from "@/server/domain/result-kind";
import { toOverlaySeries } from "@/server/domain/series/trend-overlay";
import { availableTrendLines, hasValues, toTrendSeries, TREND_LINE_FIELD, TREND_LINES } from "@/server/domain/series/trend-series";
import { MIN_NOISE_HISTORY, NOISE_HISTORY_RUNS } from "@/server/domain/stats/noise-band";
import type { TrendLine } from "@/server/domain/series/trend-series";
import {
  ERROR_RATE_CHART_LINE,
  ERROR_RATE_FLOOR,
  errorRateTickDigits,
  latencyChartLines,
  defaultBranchBandOf,
  gateThresholdLine,
  linesToDraw,
  noiseBandOf,
  overlayChartLine,
  throughputChartLine,
  toChartMarkers,
} from "./trend-chart-data";
import type { EndpointTrendsData } from "./trend-chart-data";
import { LineToggles } from "./trend-controls";
import { branchChartLines, splitByBranch } from "./branch-lines";
import { BranchLegend, GateGuides } from "./gate-guides";
import { branchName } from "@/server/domain/series/trend-branches";
import type { TrendChartLine } from "@/components/charts/trend-chart";
import { METRICS } from "@/server/domain/metrics";
import { NOISE_BAND_COLOR, OVERLAY_COLOR } from "./trend-lines";
import { toggleTrendLine } from "./trend-view";
import type { TrendView } from "./trend-view";

/** A time per operation axis tick in the unit that fits it ("4 µs"); the axis' 0 needs none. */
const formatTimeTick = (value: number) => (value === 0 ? "0" : formatMs(value));
/** An ops/s axis tick, its unit said by the axis label: "210,000", "42.7M". */
const formatOpsTick = (value: number) => (value === 0 ? "0" : withoutUnit(formatOpsRate(value), "ops/s"));

/** Several branches draw p95 alone by default: one line per branch, told apart by colour. */
const BRANCH_DEFAULT_LINES: readonly TrendLine[] = ["p95"];
/** The fields a branch's lines read: every latency line, throughput and error rate. */
const BRANCH_SPLIT_FIELDS = [...TREND_LINES.map((line) => TREND_LINE_FIELD[line]), METRICS.throughput.column, METRICS.errorRate.column];

/** Latency, throughput and error-rate charts share this id, so hovering one shows the run in all three. */
const SYNC_ID = "endpoint-trend";

/**
 * The endpoint's latency chart (with its line toggles), then its throughput and error-rate charts; a
 * benchmark's time per operation (its axis in ns, µs or ms as fits) and ops/s, and its error rate only
 * when a sample failed.
 */
export function TrendCharts({
  data,
  kind,
  view,
  isDefaultLines,
  onLinesChange,
  onSelectRun,
}: {
  data: EndpointTrendsData;
  kind: ResultKinds;
  view: TrendView;
  /** Whether the URL names no lines (several branches then draw p95 only: one line per branch). */
  isDefaultLines: boolean;
  onLinesChange: (lines: TrendLine[]) => void;
  onSelectRun: (runId: string) => void;
}) {
  const overlay = data.overlay;
  const gate = data.gate;
  // Several branches: one line per branch, each joining its own runs only (branch-lines.ts).
  const drawnBranches = data.branches.kind === "some" && data.branches.branches.length > 1 ? data.branches.branches : null;
  const series = useMemo(() => {
    const base = toTrendSeries(data.points, view.x);
    return drawnBranches ? splitByBranch(base, drawnBranches, BRANCH_SPLIT_FIELDS) : base;
  }, [data.points, view.x, drawnBranches]);
  const latencySeries = useMemo<readonly TrendChartDatum[]>(
    () =>
      overlay
        ? toOverlaySeries(data.points, overlay.band, overlay.points, view.x)
        : gate
          ? toOverlaySeries(data.points, gate.band, [], view.x)
          : series,
    [overlay, gate, data.points, view.x, series],
  );
  // Time mode moves rounds of one commit apart (trend-series.ts, spreadCommitRounds): the chart says so.
  const hasSpreadRounds = view.x === "time" && latencySeries.some((point) => point.x !== point.time);
  const available = useMemo(() => availableTrendLines(data.points), [data.points]);
  const enabled = linesToDraw(drawnBranches && isDefaultLines ? BRANCH_DEFAULT_LINES : view.lines, available);
  const latencyLines = drawnBranches ? branchChartLines(drawnBranches, latencyChartLines(enabled)) : latencyChartLines(enabled);
  const perBranch = (line: TrendChartLine) => (drawnBranches ? branchChartLines(drawnBranches, [line]) : [line]);
  const threshold = gate?.threshold.metric ? gate.threshold : null;
  const words = wordsOf(kind);
  const isBenchmark = kind === "benchmark";
  const hasThroughput = hasValues(data.points, (point) => point.throughput);
  // A benchmark's error rate is 0 unless a sample failed (hyperfine's non-zero exits): a flat 0 says nothing.
  const hasErrorRate = hasValues(data.points, (point) =>
    isBenchmark && point.errorRate === 0 ? null : point.errorRate,
  );
  const errorRateDigits = errorRateTickDigits(data.points.map((point) => point.errorRate));
  // Toggle from what is drawn, so a URL naming lines without data never needs two clicks.
  const toggle = (line: TrendLine) => onLinesChange(toggleTrendLine(enabled, line));

  return (
    <div className="space-y-4">
      {available.length > 0 ? (
        <Card
          title={words.latencyTitle}
          actions={<LineToggles available={available} enabled={enabled} onToggle={toggle} />}
        >
          <TrendChart
            data={latencySeries}
            lines={overlay ? [...latencyLines, overlayChartLine(overlay)] : latencyLines}
            band={overlay ? noiseBandOf(overlay) : gate && !isBenchmark ? defaultBranchBandOf(data.defaultBranch) : undefined}
            thresholds={threshold ? [gateThresholdLine(threshold)] : []}
            xMode={view.x}
            yLabel={isBenchmark ? "time/op" : "Latency (ms)"}
            yTickFormat={isBenchmark ? formatTimeTick : undefined}
            // Hover is synced by index: the overlay's runs make this chart's indexes differ from the others'.
            syncId={overlay ? undefined : SYNC_ID}
            height={300}
            title={`${isBenchmark ? "Time per operation" : "Latency"} ${enabled.join(", ")} in ${isBenchmark ? "ns, µs or ms" : "milliseconds"}, ${series.length} runs${drawnBranches ? `, one line per branch: ${drawnBranches.map(branchName).join(", ")}` : ""}${overlay ? `, with ${overlay.name}'s ${overlay.points.length} runs over ${overlay.baseBranch}'s noise band` : ""}`}
            onSelectRun={onSelectRun}
            testId="latency-chart"
            markers={toChartMarkers(data.markers, view.x, latencySeries, { slug: data.project.slug })}
          />
          {hasSpreadRounds && (
            <p className="text-text-muted mt-1 text-xs" data-testid="trend-rounds-note">
              Runs of one commit are drawn side by side in run order until the next commit&apos;s first run; hover a
              point for its own start time and round.
            </p>
          )}
          {drawnBranches && <BranchLegend branches={drawnBranches} points={data.points} />}
          {gate && <GateGuides defaultBranch={data.defaultBranch} gate={gate} kind={kind} />}
          {overlay && (
            <div className="mt-2 space-y-1 text-xs" data-testid="trend-overlay">
              <ul className="text-text-muted flex flex-wrap gap-x-4 gap-y-1" aria-label="Overlay legend">
                <li className="flex items-center gap-1.5">
                  <span
                    aria-hidden
                    className="inline-block h-[3px] w-3.5 rounded"
                    style={{ background: OVERLAY_COLOR }}
                  />
                  {overlayChartLine(overlay).name} ({overlay.points.length}{" "}
                  {overlay.points.length === 1 ? "run" : "runs"})
                </li>
                <li className="flex items-center gap-1.5">
                  <span
                    aria-hidden
                    className="inline-block h-2.5 w-3.5 rounded-sm opacity-60"
                    style={{ background: NOISE_BAND_COLOR }}
                  />
                  {overlay.baseBranch}&apos;s p95 noise band: median ± 3 × run-to-run noise of its last{" "}
                  {NOISE_HISTORY_RUNS} runs since its last change (none until {MIN_NOISE_HISTORY} runs after it), never
                  below 0 ms
                </li>
              </ul>
              <p className="text-text font-medium" data-testid="trend-overlay-caption">
                {overlay.caption}
              </p>
            </div>
          )}
        </Card>
      ) : (
        <EmptyState title={`No ${words.latency} reported`}>
          The tool gave no {words.latency} percentiles for this {words.noun}.
        </EmptyState>
      )}
      <div className="grid gap-4 lg:grid-cols-2">
        {hasThroughput && (
          <Card title="Throughput">
            <TrendChart
              data={series}
              lines={perBranch(throughputChartLine(kind))}
              xMode={view.x}
              yLabel={words.throughputUnit}
              yTickFormat={isBenchmark ? formatOpsTick : undefined}
              syncId={SYNC_ID}
              height={200}
              title={`Throughput in ${isBenchmark ? "operations" : "requests"} per second, ${series.length} runs`}
              onSelectRun={onSelectRun}
              testId="throughput-chart"
              markers={toChartMarkers(data.markers, view.x, series, { kinds: ["annotation", "deploy", "change"] })}
            />
          </Card>
        )}
        {hasErrorRate && (
          <Card title="Error rate">
            <TrendChart
              data={series}
              lines={perBranch(ERROR_RATE_CHART_LINE)}
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
