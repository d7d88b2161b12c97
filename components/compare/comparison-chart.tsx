"use client";

import { Bar, BarChart, CartesianGrid, ErrorBar, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatDeltaPct } from "@/server/domain/format";
import { formatResultMetric, metricShortName, wordsOf } from "@/server/domain/result-kind";
import type { ResultKinds } from "@/server/domain/result-kind";
import type { ChangeDatum, ChartDatum } from "./shape";

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

/** Base vs head per endpoint (or benchmark) for one metric: bars are group means, whiskers their 95% CIs. */
export function ComparisonChart({ data, metric, unit, kind }: { data: ChartDatum[]; metric: string; unit: string | null; kind: ResultKinds }) {
  const format = (value: number) => formatResultMetric(metric, unit, value, kind);
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
 * its Δ%, coloured by its verdict, a whisker the 95% CI of Δ where the comparison has one. For
 * benchmarks, whose values span ns to ms, where bars of the values would hide all but the slowest.
 * Drawn as a list (name over its bar) rather than an SVG chart, so a long benchmark name wraps on a
 * phone instead of being cut, and every Δ is text a screen reader reads.
 */
export function ChangeChart({ data, metric, kind }: { data: ChangeDatum[]; metric: string; kind: ResultKinds }) {
  const bounds = data.flatMap((datum) => (datum.error ? [datum.deltaPct - datum.error[0], datum.deltaPct + datum.error[1]] : [datum.deltaPct]));
  const low = Math.min(0, ...bounds);
  const high = Math.max(0, ...bounds);
  const span = high - low || 1;
  const at = (value: number) => `${((value - low) / span) * 100}%`;
  const width = (from: number, to: number) => `${(Math.abs(to - from) / span) * 100}%`;
  return (
    <figure data-testid="change-chart">
      <ul className="space-y-2.5" aria-label={`Change of ${metricShortName(metric, kind)} per ${wordsOf(kind).noun}, head against base`}>
        {data.map((datum) => (
          <li key={datum.name} className="text-xs">
            <div className="flex items-baseline justify-between gap-3">
              <span className="min-w-0 [overflow-wrap:anywhere]">{datum.name}</span>
              <span className="shrink-0 font-medium tabular-nums" style={{ color: VERDICT_FILL[datum.verdict] }}>
                {formatDeltaPct(datum.deltaPct)}
                {datum.error && (
                  <span className="font-normal text-text-muted">
                    {" "}
                    ({formatDeltaPct(datum.deltaPct - datum.error[0])} … {formatDeltaPct(datum.deltaPct + datum.error[1])})
                  </span>
                )}{" "}
                <span className="font-normal text-text-muted">{datum.verdict}</span>
              </span>
            </div>
            <div className="relative mt-1 h-3 rounded-sm bg-surface-muted" aria-hidden="true">
              <div className="absolute inset-y-0 w-px bg-text-muted" style={{ left: at(0) }} />
              <div
                className="absolute inset-y-0.5 rounded-sm"
                style={{ left: at(Math.min(0, datum.deltaPct)), width: width(0, datum.deltaPct), background: VERDICT_FILL[datum.verdict] }}
              />
              {datum.error && (
                <div
                  className="absolute top-1/2 h-0.5 -translate-y-1/2 bg-text"
                  style={{ left: at(datum.deltaPct - datum.error[0]), width: width(datum.deltaPct - datum.error[0], datum.deltaPct + datum.error[1]) }}
                />
              )}
            </div>
          </li>
        ))}
      </ul>
      <figcaption className="mt-2 flex justify-between text-[10px] text-text-muted tabular-nums" aria-hidden="true">
        <span>{formatDeltaPct(low)}</span>
        <span>{formatDeltaPct(high)}</span>
      </figcaption>
    </figure>
  );
}
