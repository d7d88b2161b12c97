"use client";

import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMs, formatPct } from "@/server/domain/format";
import { logTicks } from "./log-ticks";

/** One x of the chart: the share of requests at or below `ms` on each side, 0..1 (compare/distributions.ts). */
export interface LatencyCdfPoint {
  ms: number;
  base: number;
  head: number;
}

/**
 * Base and head latency distributions overlaid as two step CDFs on a log latency axis, fed pre-shaped
 * points. Why a CDF rather than two density/area curves: HDR buckets are 1% wide, so a per-bucket density
 * is spiky and needs a re-binning choice to read, while the CDF needs none, reads percentiles straight
 * off the y axis (y = 95% is p95), and its largest vertical gap is exactly the KS statistic D we report
 * (marked by the dashed line). Log x because latency tails span decades.
 */
export function LatencyCdfChart({
  points,
  gapAtMs,
  label,
  axisTitle = "Latency",
  height = 300,
}: {
  points: readonly LatencyCdfPoint[];
  /** Where the two CDFs are furthest apart (the KS D), drawn as a reference line. */
  gapAtMs: number | null;
  label: string;
  /** What the x axis measures: "Latency", or a benchmark's "Time per operation". */
  axisTitle?: string;
  height?: number;
}) {
  const min = points[0]?.ms ?? 1;
  const max = points[points.length - 1]?.ms ?? 10;
  return (
    <figure aria-label={label} style={{ height }} className="w-full" data-testid="latency-cdf-chart">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart accessibilityLayer data={points} margin={{ top: 8, right: 16, bottom: 20, left: 0 }}>
          <CartesianGrid stroke="var(--chart-grid)" />
          <XAxis
            dataKey="ms"
            type="number"
            scale="log"
            domain={[min, max]}
            allowDataOverflow
            ticks={logTicks(min, max)}
            tickFormatter={(value: number) => formatMs(value)}
            tick={{ fill: "var(--text-muted)", fontSize: 11 }}
            tickLine={false}
            axisLine={{ stroke: "var(--border)" }}
            label={{ value: `${axisTitle} (log scale)`, position: "insideBottom", offset: -12, fill: "var(--text-muted)", fontSize: 11 }}
          />
          <YAxis
            domain={[0, 1]}
            ticks={[0, 0.25, 0.5, 0.75, 0.9, 1]}
            tickFormatter={(value: number) => formatPct(value, 0)}
            tick={{ fill: "var(--text-muted)", fontSize: 11 }}
            tickLine={false}
            axisLine={false}
            width={44}
          />
          <Tooltip
            labelFormatter={(value) => `≤ ${formatMs(Number(value))}`}
            formatter={(value, name) => [typeof value === "number" ? formatPct(value, 1) : String(value), `${String(name)}: requests at or below`]}
            contentStyle={{ background: "var(--surface)", border: "1px solid var(--border)", color: "var(--text)", fontSize: 12 }}
            labelStyle={{ color: "var(--text)" }}
            isAnimationActive={false}
          />
          <Legend wrapperStyle={{ color: "var(--text)", fontSize: 12 }} verticalAlign="top" height={24} />
          {gapAtMs !== null && <ReferenceLine x={gapAtMs} stroke="var(--text-muted)" strokeDasharray="4 3" />}
          <Line type="stepAfter" dataKey="base" name="base" stroke="var(--chart-2)" strokeWidth={2} dot={false} isAnimationActive={false} />
          <Line type="stepAfter" dataKey="head" name="head" stroke="var(--chart-1)" strokeWidth={2} dot={false} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
