"use client";

import Link from "next/link";
import { Fragment } from "react";
import { numberMarkers } from "./markers";
import type { ChartMarker } from "./markers";
import {
  Area,
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { TooltipContentProps } from "recharts";
import { formatNumber } from "@/server/domain/format";
import type { RunPoint } from "@/server/domain/series/run-point";
import { formatRunTime, timeTickFormatter, timeTicks } from "./time-axis";

/** What every point of a trend chart carries: its x, and the run it stands for (tooltip, click). */
export type TrendChartDatum = RunPoint & {
  /** Start time (epoch ms) in time mode, the run number in order mode. */
  x: number;
};

/** A vertical mark at a run: a change point, a pinned baseline, an annotation. */
export type TrendChartMarker = ChartMarker;

export interface TrendChartLine {
  /** The field of the datum the line draws. */
  dataKey: string;
  name: string;
  /** A CSS colour, normally `var(--chart-n)`, so dark mode follows the theme. */
  color: string;
  dashed?: boolean;
  /** The value as the tooltip shows it (formatMs, formatRate, formatPct…). */
  format: (value: number | null) => string;
  /** Dots on every point, however many (a line of few runs over a long one). */
  hasDots?: boolean;
}

/** A shaded range behind the lines: the field holds [low, high], or null where there is none (drawn as a gap). */
export interface TrendChartBand {
  dataKey: string;
  name: string;
  color: string;
}

/** A horizontal line at a value, labelled on the chart (the gate's threshold). */
export interface TrendChartThreshold {
  y: number;
  label: string;
  color: string;
}

/** Dots are drawn while the points are few enough to tell apart. */
const MAX_POINTS_WITH_DOTS = 60;
const AXIS_TICK = { fill: "var(--text-muted)", fontSize: 11 };

/**
 * A line chart of runs over time (or run order). Dumb by design: it receives shaped, typed series
 * (server/domain/series/trend-series.ts) and only draws them. Charts given the same `syncId` share
 * their hover. Clicking anywhere selects the run under the tooltip.
 */
export function TrendChart<P extends TrendChartDatum>({
  data,
  lines,
  xMode,
  yLabel,
  yTickFormat = (value) => formatNumber(value),
  yDomainMax,
  syncId,
  height = 260,
  title,
  onSelectRun,
  testId,
  markers = [],
  band,
  thresholds = [],
}: {
  data: readonly P[];
  lines: readonly TrendChartLine[];
  xMode: "time" | "order";
  /** The y axis's unit, e.g. "ms", "req/s", "%". */
  yLabel: string;
  yTickFormat?: (value: number) => string;
  /** The least upper bound of the y axis, so a flat series of zeros still reads as zero. */
  yDomainMax?: number;
  syncId?: string;
  height?: number;
  /** A text alternative for screen readers. */
  title: string;
  onSelectRun?: (runId: string) => void;
  testId?: string;
  markers?: readonly TrendChartMarker[];
  band?: TrendChartBand;
  thresholds?: readonly TrendChartThreshold[];
}) {
  const first = data[0]?.x ?? 0;
  const last = data[data.length - 1]?.x ?? 0;
  const ticks = xMode === "time" ? timeTicks(first, last) : undefined;
  const formatTime = timeTickFormatter(last - first);
  const hasDots = data.length <= MAX_POINTS_WITH_DOTS;
  const numbered = numberMarkers(markers);

  return (
    <div className="w-full min-w-0">
      <div role="figure" aria-label={title} data-testid={testId} style={{ height }} className="w-full min-w-0">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart
            data={data}
            syncId={syncId}
            margin={{ top: 8, right: 12, bottom: 4, left: 4 }}
            cursor={onSelectRun ? "pointer" : undefined}
            onClick={(state) => {
              const datum = data[Number(state.activeTooltipIndex)];
              if (datum && onSelectRun) onSelectRun(datum.runId);
            }}
          >
            <CartesianGrid stroke="var(--chart-grid)" strokeDasharray="3 3" vertical={false} />
            <XAxis
              dataKey="x"
              type="number"
              domain={["dataMin", "dataMax"]}
              ticks={ticks}
              allowDecimals={false}
              tickFormatter={(value: number) => (xMode === "time" ? formatTime(value) : `#${formatNumber(value, 0)}`)}
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
              // "auto" lets Recharts round the top to a nice tick (30 ms, not 27.36 ms).
              domain={[0, "auto"]}
              label={{
                value: yLabel,
                angle: -90,
                position: "insideLeft",
                offset: 6,
                style: { fill: "var(--text-muted)", fontSize: 11, textAnchor: "middle" },
              }}
            />
            {yDomainMax !== undefined && (
              // Invisible: only stretches the axis so an all-zero series reads as 0 of something.
              <ReferenceLine y={yDomainMax} stroke="none" ifOverflow="extendDomain" />
            )}
            {numbered.map((marker) => (
              <ReferenceLine
                key={marker.x}
                x={marker.x}
                stroke={marker.color}
                strokeDasharray="4 3"
                ifOverflow="extendDomain"
                label={{
                  value: String(marker.number),
                  position: "insideTopLeft",
                  fill: marker.color,
                  fontSize: 11,
                  fontWeight: 600,
                }}
                className="trend-marker"
              />
            ))}
            {thresholds.map((threshold) => (
              <ReferenceLine
                key={threshold.label}
                y={threshold.y}
                stroke={threshold.color}
                strokeDasharray="6 3"
                strokeWidth={1.5}
                ifOverflow="extendDomain"
                className="trend-threshold"
                label={{ value: threshold.label, position: "insideBottomRight", fill: threshold.color, fontSize: 11, fontWeight: 600 }}
              />
            ))}
            <Tooltip
              content={(props) => <TrendTooltip {...props} lines={lines} />}
              cursor={{ stroke: "var(--text-muted)", strokeDasharray: "3 3" }}
              isAnimationActive={false}
            />
            {band && (
              <Area
                className="trend-band"
                type="linear"
                dataKey={band.dataKey}
                name={band.name}
                stroke="none"
                fill={band.color}
                fillOpacity={0.22}
                activeDot={false}
                // A null is a run without a band (right after a change): a gap, never a bridge across it.
                connectNulls={false}
                isAnimationActive={false}
              />
            )}
            {lines.map((line) => (
              <Line
                key={line.dataKey}
                className={`trend-line trend-line-${line.dataKey}`}
                type="linear"
                dataKey={line.dataKey}
                name={line.name}
                stroke={line.color}
                strokeWidth={1.75}
                strokeDasharray={line.dashed ? "5 4" : undefined}
                dot={
                  hasDots || line.hasDots ? { r: line.hasDots ? 3.5 : 2.5, fill: line.color, strokeWidth: 0 } : false
                }
                activeDot={{ r: 4.5, stroke: "var(--surface)", strokeWidth: 1.5 }}
                connectNulls
                isAnimationActive={false}
              />
            ))}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      {numbered.length > 0 && (
        <ol
          aria-label="Markers on the chart"
          className="text-text-muted mt-1 flex flex-wrap gap-x-4 gap-y-0.5 text-xs"
          data-testid="trend-marker-legend"
        >
          {numbered.map((marker) => (
            <li key={marker.x}>
              <span className="font-semibold" style={{ color: marker.color }}>
                {marker.number}
              </span>{" "}
              {marker.items.map((item, index) => (
                <Fragment key={item.text}>
                  {index > 0 && " · "}
                  {item.href ? (
                    <Link href={item.href} className="text-accent hover:underline" data-testid="trend-marker-link">
                      {item.text}
                    </Link>
                  ) : (
                    item.text
                  )}
                </Fragment>
              ))}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

/** The hovered run: when, which, and the chart's values, each formatted in its unit. */
function TrendTooltip({
  active,
  payload,
  lines,
}: Pick<TooltipContentProps, "active" | "payload"> & { lines: readonly TrendChartLine[] }) {
  const datum = payload[0]?.payload as TrendChartDatum | undefined;
  if (!active || !datum) return null;
  const run = [datum.label, datum.round !== null ? `round ${datum.round}` : null].filter(Boolean).join(" · ");
  const source = [datum.branch, datum.commitShort].filter(Boolean).join(" @ ");
  return (
    <div className="border-border bg-surface text-text max-w-64 rounded-md border px-3 py-2 text-xs shadow-lg">
      <p className="font-semibold">
        {Number.isInteger(datum.order)
          ? `Run #${formatNumber(datum.order, 0)}`
          : `After run #${formatNumber(Math.floor(datum.order), 0)}`}{" "}
        · {formatRunTime(datum.time)}
      </p>
      {run !== "" && <p className="text-text-muted">{run}</p>}
      {source !== "" && <p className="text-text-muted font-mono">{source}</p>}
      <table className="mt-1.5 w-full">
        <tbody>
          {lines.map((line) => {
            const value = (datum as unknown as Record<string, unknown>)[line.dataKey];
            return (
              <tr key={line.dataKey}>
                <td className="pr-3">
                  <span
                    aria-hidden
                    className="mr-1.5 inline-block h-2 w-2 rounded-full"
                    style={{ background: line.color }}
                  />
                  {line.name}
                </td>
                <td className="text-right tabular-nums">{line.format(typeof value === "number" ? value : null)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="text-text-muted mt-1.5">Click to open the run</p>
    </div>
  );
}
