"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMs, formatNumber, formatPct } from "@/server/domain/format";

/** One bar: the calls whose latency fell in (lowerMs, upperMs]; `lowerMs` null for the first bucket. */
export interface LatencyHistogramBar {
  lowerMs: number | null;
  upperMs: number;
  count: number;
  /** count / total, 0..1. */
  share: number;
}

/** The bar's range as text: "≤ 1.71 ms" for the first bucket, else "1.71 ms – 3.26 ms". */
function describeBucket(bar: Pick<LatencyHistogramBar, "lowerMs" | "upperMs">): string {
  return bar.lowerMs === null ? `≤ ${formatMs(bar.upperMs)}` : `${formatMs(bar.lowerMs)} – ${formatMs(bar.upperMs)}`;
}

/** An axis tick: the bucket's upper edge without the axis's unit ("3.26"), or with another ("1.2 s"). */
function tickOf(upperMs: number): string {
  const text = formatMs(upperMs);
  return text.endsWith(" ms") ? text.slice(0, -3) : text;
}

function HistogramTooltip({ active, payload }: { active?: boolean; payload?: readonly { payload?: unknown }[] }) {
  const bar = payload?.[0]?.payload as LatencyHistogramBar | undefined;
  if (!active || !bar) return null;
  return (
    <div className="rounded-md border border-border bg-surface px-3 py-2 text-xs shadow-md">
      <p className="font-semibold">{describeBucket(bar)}</p>
      <p className="mt-0.5 text-text-muted tabular-nums">
        {formatNumber(bar.count, 0)} {bar.count === 1 ? "call" : "calls"} ({formatPct(bar.share, 1)})
      </p>
    </div>
  );
}

/**
 * A latency distribution as bars, fed pre-shaped buckets (ascending). Colours come from the theme's
 * CSS variables, so dark mode needs nothing here.
 */
export function LatencyHistogram({ bars, label, height = 260 }: { bars: readonly LatencyHistogramBar[]; label: string; height?: number }) {
  return (
    <figure aria-label={label} style={{ height }} className="w-full" data-testid="latency-histogram">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart accessibilityLayer data={bars} margin={{ top: 8, right: 8, bottom: 20, left: 0 }} barCategoryGap={1}>
          <CartesianGrid vertical={false} stroke="var(--chart-grid)" />
          <XAxis
            dataKey="upperMs"
            tickFormatter={(value: number) => tickOf(value)}
            tick={{ fill: "var(--text-muted)", fontSize: 11 }}
            tickLine={false}
            axisLine={{ stroke: "var(--border)" }}
            interval="preserveStartEnd"
            minTickGap={12}
            label={{ value: "Latency, bucket upper edge (ms)", position: "insideBottom", offset: -12, fill: "var(--text-muted)", fontSize: 11 }}
          />
          <YAxis
            allowDecimals={false}
            tickFormatter={(value: number) => formatNumber(value, 0)}
            tick={{ fill: "var(--text-muted)", fontSize: 11 }}
            tickLine={false}
            axisLine={false}
            width={48}
            label={{ value: "Calls", angle: -90, position: "insideLeft", offset: 12, fill: "var(--text-muted)", fontSize: 11 }}
          />
          <Tooltip content={<HistogramTooltip />} cursor={{ fill: "var(--surface-muted)" }} isAnimationActive={false} />
          <Bar dataKey="count" fill="var(--chart-1)" radius={[2, 2, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
