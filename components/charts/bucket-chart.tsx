"use client";

import { Area, CartesianGrid, ComposedChart, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { TooltipContentProps } from "recharts";
import { formatNumber } from "@/server/domain/format";
import { timeTickFormatter, timeTicks } from "./time-axis";
import type { TrendChartBand, TrendChartLine, TrendChartMarker } from "./trend-chart";

/** What every point of a bucket chart carries: the bucket's span and how many runs it summarises. */
export interface BucketChartDatum {
  /** The bucket's start (epoch ms): its x. */
  time: number;
  /** Its end, exclusive (epoch ms). */
  endTime: number;
  runs: number;
}

const AXIS_TICK = { fill: "var(--text-muted)", fontSize: 11 };

/**
 * A chart of buckets (days or weeks of runs) over time: lines, a band behind them, markers at
 * their time. Dumb like TrendChart: the points come shaped (server/domain/series/trend-rollup.ts); the
 * tooltip gives the bucket's span, its run count and what each line means (`describe`). A click on a
 * bucket calls `onSelectBucket` with it (the page opens its runs).
 */
export function BucketChart<P extends BucketChartDatum>({
  data,
  lines,
  band,
  yLabel,
  yTickFormat = (value) => formatNumber(value),
  height = 260,
  title,
  testId,
  markers = [],
  describe,
  onSelectBucket,
}: {
  data: readonly P[];
  lines: readonly TrendChartLine[];
  band?: TrendChartBand & { format: (range: [number, number]) => string };
  yLabel: string;
  yTickFormat?: (value: number) => string;
  height?: number;
  title: string;
  testId?: string;
  markers?: readonly TrendChartMarker[];
  /** The tooltip's heading for a bucket ("Week of 2026-11-16 · 912 runs"). */
  describe: (point: P) => string;
  onSelectBucket?: (point: P) => void;
}) {
  const first = data[0]?.time ?? 0;
  const last = data[data.length - 1]?.time ?? 0;
  const formatTime = timeTickFormatter(last - first);
  return (
    <div role="figure" aria-label={title} data-testid={testId} style={{ height }} className="w-full min-w-0">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart
          data={data}
          margin={{ top: 8, right: 12, bottom: 4, left: 4 }}
          cursor={onSelectBucket ? "pointer" : undefined}
          onClick={(state) => {
            const datum = data[Number(state.activeTooltipIndex)];
            if (datum && onSelectBucket) onSelectBucket(datum);
          }}
        >
          <CartesianGrid stroke="var(--chart-grid)" strokeDasharray="3 3" vertical={false} />
          <XAxis
            dataKey="time"
            type="number"
            domain={["dataMin", "dataMax"]}
            ticks={timeTicks(first, last)}
            tickFormatter={(value: number) => formatTime(value)}
            tick={AXIS_TICK}
            stroke="var(--border)"
            padding={{ left: 8, right: 8 }}
            minTickGap={16}
          />
          <YAxis
            width={62}
            tick={AXIS_TICK}
            stroke="var(--border)"
            tickFormatter={yTickFormat}
            domain={[0, "auto"]}
            label={{ value: yLabel, angle: -90, position: "insideLeft", offset: 6, style: { fill: "var(--text-muted)", fontSize: 11, textAnchor: "middle" } }}
          />
          {markers.map((marker) => (
            <ReferenceLine key={`${marker.x}-${marker.text}`} x={marker.x} stroke={marker.color} strokeDasharray="4 3" className="trend-marker" />
          ))}
          <Tooltip
            content={(props) => <BucketTooltip {...props} lines={lines} band={band} describe={describe as (point: BucketChartDatum) => string} />}
            cursor={{ stroke: "var(--text-muted)", strokeDasharray: "3 3" }}
            isAnimationActive={false}
          />
          {band && (
            <Area
              className="bucket-band"
              type="linear"
              dataKey={band.dataKey}
              name={band.name}
              stroke="none"
              fill={band.color}
              fillOpacity={0.22}
              activeDot={false}
              connectNulls={false}
              isAnimationActive={false}
            />
          )}
          {lines.map((line) => (
            <Line
              key={line.dataKey}
              className={`bucket-line bucket-line-${line.dataKey}`}
              type="linear"
              dataKey={line.dataKey}
              name={line.name}
              stroke={line.color}
              strokeWidth={1.75}
              strokeDasharray={line.dashed ? "5 4" : undefined}
              dot={false}
              activeDot={{ r: 4, stroke: "var(--surface)", strokeWidth: 1.5 }}
              connectNulls
              isAnimationActive={false}
            />
          ))}
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}

function BucketTooltip({
  active,
  payload,
  lines,
  band,
  describe,
}: Pick<TooltipContentProps, "active" | "payload"> & {
  lines: readonly TrendChartLine[];
  band?: TrendChartBand & { format: (range: [number, number]) => string };
  describe: (point: BucketChartDatum) => string;
}) {
  const datum = payload[0]?.payload as (BucketChartDatum & Record<string, unknown>) | undefined;
  if (!active || !datum) return null;
  const range = band ? datum[band.dataKey] : null;
  return (
    <div className="border-border bg-surface text-text max-w-72 rounded-md border px-3 py-2 text-xs shadow-lg" data-testid="bucket-tooltip">
      <p className="font-semibold">{describe(datum)}</p>
      <table className="mt-1.5 w-full">
        <tbody>
          {lines.map((line) => {
            const value = datum[line.dataKey];
            return (
              <tr key={line.dataKey}>
                <td className="pr-3">
                  <span aria-hidden className="mr-1.5 inline-block h-2 w-2 rounded-full" style={{ background: line.color }} />
                  {line.name}
                </td>
                <td className="text-right tabular-nums">{line.format(typeof value === "number" ? value : null)}</td>
              </tr>
            );
          })}
          {band && Array.isArray(range) && (
            <tr>
              <td className="pr-3">{band.name}</td>
              <td className="text-right tabular-nums">{band.format(range as [number, number])}</td>
            </tr>
          )}
        </tbody>
      </table>
      <p className="text-text-muted mt-1.5">Click to list this bucket&apos;s runs</p>
    </div>
  );
}
