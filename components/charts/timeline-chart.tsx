"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { TooltipContentProps } from "recharts";
import { formatDuration, formatNumber } from "@/server/domain/format";

/** One moment of a run: seconds into the run, and the figures of the window ending then. */
export interface TimelineChartRow {
  seconds: number;
  [field: string]: number | null;
}

export interface TimelineChartLine {
  dataKey: string;
  name: string;
  /** A CSS colour, normally `var(--chart-n)`, so dark mode follows the theme. */
  color: string;
  /** "left" or "right" axis. */
  axis: "left" | "right";
  dashed?: boolean;
  format: (value: number | null) => string;
}

const AXIS_TICK = { fill: "var(--text-muted)", fontSize: 11 };
const RIGHT_AXIS_WIDTH = 44;

function TimelineTooltip({
  active,
  payload,
  lines,
}: Partial<TooltipContentProps<number, string>> & { lines: readonly TimelineChartLine[] }) {
  const row = payload?.[0]?.payload as TimelineChartRow | undefined;
  if (!active || !row) return null;
  return (
    <div className="border-border bg-surface rounded-md border px-3 py-2 text-xs shadow-md">
      <p className="font-semibold">{formatDuration(row.seconds)} into the run</p>
      {lines.map((line) => (
        <p key={line.dataKey} className="mt-0.5 tabular-nums">
          <span style={{ color: line.color }}>●</span> {line.name}: {line.format(row[line.dataKey] ?? null)}
        </p>
      ))}
    </div>
  );
}

/**
 * A run's course over time (throughput, failures, latency), fed pre-shaped rows
 * (server/domain/report/report-sections.ts:toTimelines). Up to two y axes, each with its unit.
 */
export function TimelineChart({
  rows,
  lines,
  leftLabel,
  rightLabel,
  label,
  height = 220,
  alignRightAxis = false,
  testId,
}: {
  rows: readonly TimelineChartRow[];
  lines: readonly TimelineChartLine[];
  leftLabel: string;
  rightLabel?: string;
  label: string;
  height?: number;
  /** Leave the right axis's room empty, so this chart's time axis lines up with one that has a right axis. */
  alignRightAxis?: boolean;
  testId?: string;
}) {
  const hasRight = lines.some((line) => line.axis === "right");
  const rightMargin = hasRight ? 0 : alignRightAxis ? RIGHT_AXIS_WIDTH : 8;
  return (
    <figure aria-label={label} style={{ height }} className="w-full" data-testid={testId}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart accessibilityLayer data={[...rows]} margin={{ top: 8, right: rightMargin, bottom: 20, left: 0 }}>
          <CartesianGrid vertical={false} stroke="var(--chart-grid)" />
          <XAxis
            type="number"
            dataKey="seconds"
            domain={[0, "dataMax"]}
            tickFormatter={(value: number) => formatDuration(value)}
            tick={AXIS_TICK}
            tickLine={false}
            axisLine={{ stroke: "var(--border)" }}
            minTickGap={24}
            label={{
              value: "Time into the run",
              position: "insideBottom",
              offset: -12,
              fill: "var(--text-muted)",
              fontSize: 11,
            }}
          />
          <YAxis
            yAxisId="left"
            tickFormatter={(value: number) => formatNumber(value)}
            tick={AXIS_TICK}
            tickLine={false}
            axisLine={false}
            width={52}
            label={{
              value: leftLabel,
              angle: -90,
              position: "insideLeft",
              offset: 12,
              fill: "var(--text-muted)",
              fontSize: 11,
            }}
          />
          {hasRight && (
            <YAxis
              yAxisId="right"
              orientation="right"
              allowDecimals={false}
              tickFormatter={(value: number) => formatNumber(value, 0)}
              tick={AXIS_TICK}
              tickLine={false}
              axisLine={false}
              width={RIGHT_AXIS_WIDTH}
              label={{
                value: rightLabel ?? "",
                angle: 90,
                position: "insideRight",
                offset: 12,
                fill: "var(--text-muted)",
                fontSize: 11,
              }}
            />
          )}
          <Tooltip content={<TimelineTooltip lines={lines} />} isAnimationActive={false} />
          <Legend
            verticalAlign="top"
            height={24}
            iconType="plainline"
            wrapperStyle={{ fontSize: 12, color: "var(--text-muted)" }}
          />
          {lines.map((line) => (
            <Line
              key={line.dataKey}
              yAxisId={line.axis}
              type="linear"
              dataKey={line.dataKey}
              name={line.name}
              stroke={line.color}
              strokeWidth={1.5}
              strokeDasharray={line.dashed ? "4 3" : undefined}
              dot={rows.length <= 60 ? { r: 2 } : false}
              connectNulls={false}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
