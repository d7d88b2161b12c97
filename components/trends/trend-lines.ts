import { formatMs, formatNumber } from "@/components/lib/format";
import type { TrendLine } from "@/server/domain/series/trend-series";

/** How each latency line looks; colours are CSS variables, so the dark theme restyles them. */
export const TREND_LINE_STYLE: Record<TrendLine, { name: string; color: string; dashed?: boolean }> = {
  p50: { name: "p50", color: "var(--chart-1)" },
  p90: { name: "p90", color: "var(--chart-2)" },
  p95: { name: "p95", color: "var(--chart-3)" },
  p99: { name: "p99", color: "var(--chart-4)" },
  mean: { name: "mean", color: "var(--text-muted)", dashed: true },
  max: { name: "max", color: "var(--bad)", dashed: true },
};

/** A custom metric's value in its unit: latency units through formatMs, "%" glued, others spaced. */
export function formatMetricValue(value: number | null, unit: string | null): string {
  if (unit === "ms") return formatMs(value);
  const text = formatNumber(value);
  if (value === null || unit === null || unit === "") return text;
  return unit === "%" ? `${text}%` : `${text} ${unit}`;
}
