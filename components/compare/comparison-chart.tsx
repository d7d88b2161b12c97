"use client";

import { Bar, BarChart, CartesianGrid, Cell, ErrorBar, Legend, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatDeltaPct } from "@/server/domain/format";
import { formatSeriesMetric, metricShortName, wordsOf } from "@/server/domain/series-kind";
import type { SeriesKinds } from "@/server/domain/series-kind";
import type { ChangeDatum, ChartDatum } from "./shape";

/**
 * A CI whisker, drawn without animation and twice. Without animation: Recharts grows error bars from
 * scaleX(0) by a CSS transition, which was seen still at 0 (no whisker at all) on a settled page; the
 * bars are not animated either. Twice: a wide stroke of the card's colour under a
 * thin one of the text's. A whisker mostly lies over its bar's end, and no one colour stands out on both
 * the bars and the card in both themes (dark mode's light text all but vanishes on its light bars); the
 * halo makes it readable on either.
 */
function whiskers(dataKey: "baseError" | "headError" | "error") {
  return [
    <ErrorBar key="halo" dataKey={dataKey} width={5} stroke="var(--surface)" strokeWidth={4} direction="x" isAnimationActive={false} />,
    <ErrorBar key="line" dataKey={dataKey} width={5} stroke="var(--text)" strokeWidth={1.5} direction="x" isAnimationActive={false} />,
  ];
}

/** Base vs head per endpoint (or benchmark) for one metric: bars are group means, whiskers their 95% CIs. */
export function ComparisonChart({ data, metric, unit, kind }: { data: ChartDatum[]; metric: string; unit: string | null; kind: SeriesKinds }) {
  const format = (value: number) => formatSeriesMetric(metric, unit, value, kind);
  const height = Math.max(220, data.length * 44 + 80);
  return (
    <div
      style={{ height }}
      role="img"
      aria-label={`Base and head ${metricShortName(metric, kind)} per ${wordsOf(kind).noun}, with 95% confidence intervals`}
    >
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

const VERDICT_FILL: Record<ChangeDatum["verdict"], string> = {
  regressed: "var(--bad)",
  improved: "var(--good)",
  unchanged: "var(--chart-2)",
  inconclusive: "var(--text-muted)",
};

/**
 * Head against base per benchmark for one metric, as a relative change: a bar per benchmark from 0 to
 * its Δ%, coloured by its verdict, whiskers the 95% CI of Δ where the comparison has one. For
 * benchmarks, whose values span ns to ms, where bars of the values would hide all but the slowest.
 */
export function ChangeChart({ data, metric, kind }: { data: ChangeDatum[]; metric: string; kind: SeriesKinds }) {
  const height = Math.max(180, data.length * 36 + 80);
  return (
    <div
      style={{ height }}
      role="img"
      aria-label={`Change of ${metricShortName(metric, kind)} per ${wordsOf(kind).noun}, head against base, with 95% confidence intervals where known`}
      data-testid="change-chart"
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} layout="vertical" margin={{ top: 8, right: 24, bottom: 8, left: 8 }}>
          <CartesianGrid horizontal={false} stroke="var(--chart-grid)" />
          <XAxis
            type="number"
            tickFormatter={(value: number) => formatDeltaPct(value)}
            domain={[(min: number) => Math.min(0, min), (max: number) => Math.max(0, max)]}
            stroke="var(--text-muted)"
            tick={{ fill: "var(--text-muted)", fontSize: 12 }}
          />
          <YAxis type="category" dataKey="name" width={150} stroke="var(--text-muted)" tick={{ fill: "var(--text)", fontSize: 12 }} />
          <ReferenceLine x={0} stroke="var(--text-muted)" />
          <Tooltip
            formatter={(value) => (typeof value === "number" ? formatDeltaPct(value) : String(value))}
            contentStyle={{ background: "var(--surface)", border: "1px solid var(--border)", color: "var(--text)" }}
            labelStyle={{ color: "var(--text)" }}
            cursor={{ fill: "var(--surface-muted)" }}
          />
          <Bar dataKey="deltaPct" name={`Δ ${metricShortName(metric, kind)}`} isAnimationActive={false}>
            {data.map((datum) => (
              <Cell key={datum.name} fill={VERDICT_FILL[datum.verdict]} />
            ))}
            {whiskers("error")}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
