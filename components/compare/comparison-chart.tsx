"use client";

import { Bar, BarChart, CartesianGrid, ErrorBar, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMetricValue } from "@/server/domain/format";
import type { ChartDatum } from "./shape";

/**
 * A CI whisker, drawn without animation and twice. Without animation: Recharts grows error bars from
 * scaleX(0) by a CSS transition, which was seen still at 0 (no whisker at all) on a settled page; the
 * bars are not animated either. Twice: a wide stroke of the card's colour under a
 * thin one of the text's. A whisker mostly lies over its bar's end, and no one colour stands out on both
 * the bars and the card in both themes (dark mode's light text all but vanishes on its light bars); the
 * halo makes it readable on either.
 */
function whiskers(dataKey: "baseError" | "headError") {
  return [
    <ErrorBar key="halo" dataKey={dataKey} width={5} stroke="var(--surface)" strokeWidth={4} direction="x" isAnimationActive={false} />,
    <ErrorBar key="line" dataKey={dataKey} width={5} stroke="var(--text)" strokeWidth={1.5} direction="x" isAnimationActive={false} />,
  ];
}

/** Base vs head per endpoint for one metric: bars are group means, whiskers their 95% CIs. */
export function ComparisonChart({ data, metric, unit }: { data: ChartDatum[]; metric: string; unit: string | null }) {
  const format = (value: number) => formatMetricValue(metric, unit, value);
  const height = Math.max(220, data.length * 44 + 80);
  return (
    <div style={{ height }} role="img" aria-label={`Base and head ${metric} per endpoint, with 95% confidence intervals`}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} layout="vertical" margin={{ top: 8, right: 24, bottom: 8, left: 8 }}>
          <CartesianGrid horizontal={false} stroke="var(--chart-grid)" />
          <XAxis
            type="number"
            tickFormatter={format}
            stroke="var(--text-muted)"
            tick={{ fill: "var(--text-muted)", fontSize: 12 }}
          />
          <YAxis
            type="category"
            dataKey="name"
            width={150}
            stroke="var(--text-muted)"
            tick={{ fill: "var(--text)", fontSize: 12 }}
          />
          <Tooltip
            formatter={(value) => (typeof value === "number" ? format(value) : String(value))}
            contentStyle={{ background: "var(--surface)", border: "1px solid var(--border)", color: "var(--text)" }}
            labelStyle={{ color: "var(--text)" }}
            cursor={{ fill: "var(--surface-muted)" }}
          />
          <Legend wrapperStyle={{ color: "var(--text)" }} />
          <Bar dataKey="base" name="base" fill="var(--chart-2)" isAnimationActive={false}>
            {whiskers("baseError")}
          </Bar>
          <Bar dataKey="head" name="head" fill="var(--chart-1)" isAnimationActive={false}>
            {whiskers("headError")}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
