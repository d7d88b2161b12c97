import type { RouterOutputs } from "@/server/api/root";
import type { TrendLine } from "@/server/domain/series/trend-series";

type TrendMarkerKind = RouterOutputs["endpoint"]["trends"]["markers"][number]["kind"];

/**
 * How each latency line looks; colours are CSS variables, so the dark theme restyles them. A line's
 * name is its metric's (server/domain/metrics.ts), its field its metric's results column (TREND_LINE_FIELD).
 */
export const TREND_LINE_STYLE: Record<TrendLine, { color: string; dashed?: boolean }> = {
  p50: { color: "var(--chart-1)" },
  p90: { color: "var(--chart-2)" },
  p95: { color: "var(--chart-3)" },
  p99: { color: "var(--chart-4)" },
  mean: { color: "var(--text-muted)", dashed: true },
  max: { color: "var(--bad)", dashed: true },
};

/** The throughput and error-rate lines, and a custom metric's line. */
export const THROUGHPUT_COLOR = "var(--chart-2)";
export const ERROR_RATE_COLOR = "var(--bad)";
export const CUSTOM_METRIC_COLOR = "var(--chart-1)";
/** The overlaid branch's or PR's p95, and the base branch's noise band behind it. */
export const OVERLAY_COLOR = "var(--chart-overlay)";
export const NOISE_BAND_COLOR = "var(--chart-band)";
/** The gate's threshold on the default branch's chart. */
export const GATE_THRESHOLD_COLOR = "var(--bad)";

/** How a chart marks a run: a colour and a glyph before its text, by kind. */
export const TREND_MARKER_STYLE: Record<TrendMarkerKind, { color: string; glyph: string }> = {
  regression: { color: "var(--bad)", glyph: "◆" },
  improvement: { color: "var(--good)", glyph: "◆" },
  pinned: { color: "var(--accent)", glyph: "📌" },
  annotation: { color: "var(--text-muted)", glyph: "✎" },
  deploy: { color: "var(--accent)", glyph: "▲" },
  change: { color: "var(--warn)", glyph: "⚙" },
};
