/**
 * What the capacity chart draws, shaped from the `capacity.get` answer by pure functions (tested in
 * capacity-chart-data.test.ts): one series per (curve, percentile), one point per load level, in load
 * order; the knees and SLA limits as marks; the SLA's latency ceilings as horizontal lines. The chart
 * only draws what it is given.
 */
import type { CapacityChartMark, CapacityChartPoint, CapacityChartSeries } from "@/components/charts/capacity-chart";
import { TREND_LINE_STYLE } from "@/components/trends/trend-lines";
import type { RouterOutputs } from "@/server/api/root";
import type { CapacityXAxis } from "@/server/domain/capacity/capacity-curve";
import { describeLoad, loadKeyTitle } from "@/server/domain/capacity/load-level";
import type { LoadLevelKey } from "@/server/domain/capacity/load-level";
import { formatMs } from "@/server/domain/format";
import type { CapacityLine } from "./capacity-view";

export type CapacityData = RouterOutputs["capacity"]["get"];
export type CapacityCurveData = CapacityData["curves"][number];
type Level = NonNullable<CapacityCurveData["curve"]>["levels"][number];

const LEVEL_FIELD: Record<CapacityLine, "p50Ms" | "p95Ms" | "p99Ms"> = { p50: "p50Ms", p95: "p95Ms", p99: "p99Ms" };

/** A curve's name on the chart: "base", "head", or none when it is the only one. */
export function curveName(curve: Pick<CapacityCurveData, "side">): string | null {
  return curve.side === "all" ? null : curve.side;
}

/** The x of a level on the chosen axis; null when it has none (no throughput reported). */
function xOf(level: Level, axis: CapacityXAxis): number | null {
  return axis === "load" ? level.load : level.throughput;
}

/** Base and head as the compare page colours them, when one percentile of each is drawn. */
const SIDE_COLOR = { base: "var(--chart-2)", head: "var(--chart-1)" } as const;

/**
 * One series per (curve, percentile). Colours: by percentile (the trend page's), base dashed and head
 * solid; when two curves show one percentile each, by side as on the compare page (base cyan, head indigo).
 */
export function toCapacitySeries(
  curves: readonly CapacityCurveData[],
  axis: CapacityXAxis,
  lines: readonly CapacityLine[],
  loadKey: LoadLevelKey,
): CapacityChartSeries[] {
  const isColouredBySide = lines.length === 1 && curves.some((curve) => curve.side !== "all");
  return curves.flatMap((curve) => {
    const name = curveName(curve);
    const levels = curve.curve?.levels ?? [];
    return lines.flatMap((line) => {
      const points = levels.flatMap((level): CapacityChartPoint[] => {
        const x = xOf(level, axis);
        const y = level[LEVEL_FIELD[line]];
        if (x === null || y === null) return [];
        return [
          {
            x,
            y,
            loadText: describeLoad(loadKey, level.load),
            curveName: name,
            runCount: level.runIds.length,
            throughput: level.throughput,
            p50Ms: level.p50Ms,
            p95Ms: level.p95Ms,
            p99Ms: level.p99Ms,
            errorRate: level.errorRate,
            slaPassed: level.sla?.passed ?? null,
            slaFailure: level.sla?.failures[0] ?? null,
          },
        ];
      });
      if (points.length === 0) return [];
      return [
        {
          key: `${curve.side}-${line}`,
          name: name === null ? line : `${name} ${line}`,
          color: isColouredBySide && curve.side !== "all" ? SIDE_COLOR[curve.side] : TREND_LINE_STYLE[line].color,
          dashed: curve.side === "base",
          points,
        },
      ];
    });
  });
}

/** Each curve's knee (a ring on its p95 point) and SLA limit (a vertical line at its level). */
export function toCapacityMarks(curves: readonly CapacityCurveData[], axis: CapacityXAxis): CapacityChartMark[] {
  return curves.flatMap((curve): CapacityChartMark[] => {
    const name = curveName(curve);
    const prefix = name === null ? "" : `${name} `;
    const levels = curve.curve?.levels ?? [];
    const at = (load: number) => levels.find((level) => level.load === load);
    const marks: CapacityChartMark[] = [];
    const knee = curve.curve?.knee;
    if (knee?.status === "knee") {
      const level = at(knee.load);
      const x = level ? xOf(level, axis) : null;
      if (x !== null) marks.push({ kind: "knee", x, y: knee.latencyMs, label: `${prefix}knee` });
    }
    const limit = curve.curve?.slaLimit;
    const limitLoad = limit?.status === "limit" ? limit.load : limit?.status === "all-met" ? limit.highestLoad : null;
    if (limitLoad !== null) {
      const level = at(limitLoad);
      const x = level ? xOf(level, axis) : null;
      if (x !== null) marks.push({ kind: "sla-limit", x, y: null, label: `${prefix}SLA limit` });
    }
    return marks;
  });
}

/** The SLA ceilings of the drawn percentiles: "p95 SLA 15 ms". */
export function toCeilingMarks(
  slaLines: CapacityData["slaLines"],
  lines: readonly CapacityLine[],
): CapacityChartMark[] {
  return slaLines
    .filter((line) => lines.includes(line.metric))
    .map((line) => ({
      kind: "ceiling" as const,
      x: null,
      y: line.thresholdMs,
      label: `${line.metric} SLA ${formatMs(line.thresholdMs)}`,
    }));
}

/** Ticks of a load-level axis: the levels themselves (10, 20, 40 VUs), not round numbers between them. */
export function xTicksOf(curves: readonly CapacityCurveData[], axis: CapacityXAxis): number[] | undefined {
  if (axis !== "load") return undefined;
  return [...new Set(curves.flatMap((curve) => curve.curve?.levels.map((level) => level.load) ?? []))].sort(
    (a, b) => a - b,
  );
}

/** The x axis's title. */
export function xAxisTitle(axis: CapacityXAxis, loadKey: LoadLevelKey): string {
  return axis === "throughput" ? "Achieved throughput (req/s)" : loadKeyTitle(loadKey);
}

/** The levels a chart can draw, over every curve: fewer than two is no curve at all. */
export function drawableLevels(curves: readonly CapacityCurveData[]): number {
  return Math.max(0, ...curves.map((curve) => curve.curve?.levels.length ?? 0));
}
