"use client";

import {
  CartesianGrid,
  ReferenceDot,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
  ZAxis,
} from "recharts";
import type { TooltipContentProps } from "recharts";
import { formatMs, formatNumber, formatPct, formatRate } from "@/server/domain/format";

/** One load level of one curve and percentile: where it sits, and what the tooltip says of it. */
export interface CapacityChartPoint {
  x: number;
  /** Latency, ms. */
  y: number;
  /** "concurrency 20", "50 VUs". */
  loadText: string;
  /** "base" or "head" when two curves share the chart. */
  curveName: string | null;
  /** Runs pooled into the level (its median): the dot grows with it. */
  runCount: number;
  throughput: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  errorRate: number | null;
  /** Null: no SLA target applies, or none had data. */
  slaPassed: boolean | null;
  slaFailure: string | null;
}

export interface CapacityChartSeries {
  key: string;
  /** "p95", or "base p95" when two curves share the chart. */
  name: string;
  /** A CSS colour, `var(--chart-n)`, so dark mode follows the theme. */
  color: string;
  dashed: boolean;
  /** In load order: the line joins them in that order (it may turn back when throughput falls). */
  points: CapacityChartPoint[];
}

/** A knee (a ring at a point), an SLA limit (a vertical line) or an SLA latency ceiling (a horizontal line). */
export type CapacityChartMark =
  | { kind: "knee"; x: number; y: number; label: string }
  | { kind: "sla-limit"; x: number; y: null; label: string }
  | { kind: "ceiling"; x: null; y: number; label: string };

const AXIS_TICK = { fill: "var(--text-muted)", fontSize: 11 };
const AXIS_LABEL = { fill: "var(--text-muted)", fontSize: 11 };
/** A halo in the surface colour, so a mark's text stays legible where it crosses a line. */
const HALO = { stroke: "var(--surface)", strokeWidth: 3, paintOrder: "stroke" } as const;

/**
 * Latency against throughput (or the load level), one dot per load level, joined in load order. Dumb by
 * design: it receives shaped series and marks (components/capacity/capacity-chart-data.ts) and draws them.
 */
export function CapacityChart({
  series,
  marks,
  xLabel,
  xTicks,
  xTickFormat = (value) => formatNumber(value),
  height = 340,
  title,
  testId,
}: {
  series: readonly CapacityChartSeries[];
  marks: readonly CapacityChartMark[];
  xLabel: string;
  /** Where the x axis ticks; undefined: round numbers. */
  xTicks?: readonly number[];
  xTickFormat?: (value: number) => string;
  height?: number;
  /** A text alternative for screen readers. */
  title: string;
  testId?: string;
}) {
  return (
    <div className="w-full min-w-0">
      <div role="figure" aria-label={title} data-testid={testId} style={{ height }} className="w-full min-w-0">
        <ResponsiveContainer width="100%" height="100%">
          <ScatterChart margin={{ top: 16, right: 16, bottom: 18, left: 4 }}>
            <CartesianGrid stroke="var(--chart-grid)" strokeDasharray="3 3" />
            <XAxis
              type="number"
              dataKey="x"
              name={xLabel}
              domain={xTicks ? ["dataMin", "dataMax"] : ["auto", "auto"]}
              ticks={xTicks ? [...xTicks] : undefined}
              tickFormatter={xTickFormat}
              tick={AXIS_TICK}
              stroke="var(--border)"
              padding={{ left: 16, right: 16 }}
              minTickGap={16}
              label={{ value: xLabel, position: "insideBottom", offset: -12, style: AXIS_LABEL }}
            />
            <YAxis
              type="number"
              dataKey="y"
              width={62}
              tick={AXIS_TICK}
              stroke="var(--border)"
              tickFormatter={(value: number) => formatNumber(value)}
              domain={[0, "auto"]}
              label={{
                value: "Latency (ms)",
                angle: -90,
                position: "insideLeft",
                offset: 6,
                style: { ...AXIS_LABEL, textAnchor: "middle" },
              }}
            />
            {/* Dot area grows with the runs pooled into a level. */}
            <ZAxis type="number" dataKey="runCount" range={[40, 200]} domain={[1, 4]} />
            {marks.map((mark) =>
              mark.kind === "ceiling" ? (
                <ReferenceLine
                  key={`ceiling-${mark.label}`}
                  y={mark.y}
                  stroke="var(--bad)"
                  strokeDasharray="2 4"
                  ifOverflow="extendDomain"
                  label={{ value: mark.label, position: "insideTopRight", fill: "var(--bad)", fontSize: 11, ...HALO }}
                />
              ) : mark.kind === "sla-limit" ? (
                <ReferenceLine
                  key={`limit-${mark.label}`}
                  x={mark.x}
                  stroke="var(--good)"
                  strokeDasharray="4 3"
                  ifOverflow="extendDomain"
                  label={{
                    value: mark.label,
                    position: "insideTopLeft",
                    fill: "var(--good)",
                    fontSize: 11,
                    fontWeight: 600,
                    ...HALO,
                  }}
                  className="capacity-sla-limit"
                />
              ) : null,
            )}
            {series.map((line) => (
              <Scatter
                key={line.key}
                name={line.name}
                data={line.points}
                fill={line.color}
                line={{ stroke: line.color, strokeWidth: 1.75, strokeDasharray: line.dashed ? "5 4" : undefined }}
                lineType="joint"
                className={`capacity-series capacity-series-${line.key}`}
                isAnimationActive={false}
              />
            ))}
            {marks.map((mark) =>
              mark.kind === "knee" ? (
                <ReferenceDot
                  key={`knee-${mark.label}`}
                  x={mark.x}
                  y={mark.y}
                  r={9}
                  fill="none"
                  stroke="var(--text)"
                  strokeWidth={2}
                  ifOverflow="extendDomain"
                  label={{
                    value: mark.label,
                    position: "bottom",
                    fill: "var(--text)",
                    fontSize: 11,
                    fontWeight: 600,
                    offset: 12,
                    ...HALO,
                  }}
                  className="capacity-knee"
                />
              ) : null,
            )}
            <Tooltip
              content={(props) => <CapacityTooltip {...props} />}
              cursor={{ stroke: "var(--text-muted)", strokeDasharray: "3 3" }}
              isAnimationActive={false}
            />
          </ScatterChart>
        </ResponsiveContainer>
      </div>
      <ul
        aria-label="Legend"
        className="text-text-muted mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs"
        data-testid="capacity-legend"
      >
        {series.map((line) => (
          <li key={line.key} className="inline-flex items-center gap-1.5">
            <svg aria-hidden width="18" height="6">
              <line
                x1="0"
                y1="3"
                x2="18"
                y2="3"
                stroke={line.color}
                strokeWidth="2.5"
                strokeDasharray={line.dashed ? "5 3" : undefined}
              />
            </svg>
            {line.name}
          </li>
        ))}
        {marks.some((mark) => mark.kind === "knee") && (
          <li className="inline-flex items-center gap-1.5">
            <span aria-hidden className="border-text inline-block h-2.5 w-2.5 rounded-full border-2" />
            knee
          </li>
        )}
        {marks.some((mark) => mark.kind === "sla-limit") && (
          <li className="inline-flex items-center gap-1.5">
            <svg aria-hidden width="6" height="12">
              <line x1="3" y1="0" x2="3" y2="12" stroke="var(--good)" strokeWidth="2" strokeDasharray="3 2" />
            </svg>
            highest load that met the SLA
          </li>
        )}
        <li>larger dots pool more runs (their median)</li>
      </ul>
    </div>
  );
}

/** The hovered level: its load, how many runs it pools, and its numbers. */
function CapacityTooltip({ active, payload }: Pick<TooltipContentProps, "active" | "payload">) {
  const point = payload[0]?.payload as CapacityChartPoint | undefined;
  if (!active || !point) return null;
  return (
    <div className="border-border bg-surface text-text max-w-72 rounded-md border px-3 py-2 text-xs shadow-lg">
      <p className="font-semibold">
        {point.curveName === null ? "" : `${point.curveName} · `}
        {point.loadText}
      </p>
      <p className="text-text-muted">{point.runCount === 1 ? "1 run" : `median of ${point.runCount} runs`}</p>
      <table className="mt-1.5 w-full">
        <tbody>
          <Row name="Throughput" value={formatRate(point.throughput)} />
          <Row name="p50" value={formatMs(point.p50Ms)} />
          <Row name="p95" value={formatMs(point.p95Ms)} />
          <Row name="p99" value={formatMs(point.p99Ms)} />
          <Row name="Error rate" value={formatPct(point.errorRate)} />
        </tbody>
      </table>
      {point.slaPassed !== null && (
        <p className={point.slaPassed ? "text-good mt-1.5" : "text-bad mt-1.5"}>
          {point.slaPassed ? "SLA met" : `SLA missed: ${point.slaFailure ?? ""}`}
        </p>
      )}
    </div>
  );
}

function Row({ name, value }: { name: string; value: string }) {
  return (
    <tr>
      <td className="pr-3">{name}</td>
      <td className="text-right tabular-nums">{value}</td>
    </tr>
  );
}
