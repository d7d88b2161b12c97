import { formatDeltaPct, formatMs, formatPValue } from "@/server/domain/format";
import type { Trend } from "@/server/domain/series/overview";

/**
 * How a p95 trend reads in the overview: an arrow, a tone, and a sentence for its tooltip. Latency is
 * lower-is-better, so "up" is bad (red) and "down" good (green), each only when the change passed its
 * test; "no significant change" and "not enough data" are muted.
 */
export interface TrendBadge {
  symbol: "↑" | "↓" | "→" | "·";
  tone: "bad" | "good" | "neutral";
  /** Short words for screen readers ("worse", "better", "no significant change", "no trend"). */
  word: string;
  /** The relative change shown beside the arrow ("+20.0%"), empty without a trend. */
  delta: string;
  title: string;
}

export function describeTrend(trend: Trend, metricLabel = "p95"): TrendBadge {
  if (trend.kind === "insufficient") {
    return { symbol: "·", tone: "neutral", word: "no trend", delta: "", title: `No trend: ${trend.reason}.` };
  }
  const runs = trend.previousRuns === 1 ? "the previous run" : `the previous ${trend.previousRuns} runs`;
  const delta = formatDeltaPct(100 * trend.relativeDelta);
  const comparison = `Latest ${metricLabel} ${formatMs(trend.latestMs)} vs median ${formatMs(trend.medianMs)} of ${runs} of this series: ${delta}`;
  const test = trend.pValue === null ? "" : ` (${formatPValue(trend.pValue)})`;
  switch (trend.direction) {
    case "up":
      return { symbol: "↑", tone: "bad", word: "worse", delta, title: `${comparison}${test}. Worse: more than 5% slower, and significant.` };
    case "down":
      return { symbol: "↓", tone: "good", word: "better", delta, title: `${comparison}${test}. Better: more than 5% faster, and significant.` };
    case "flat":
      return {
        symbol: "→",
        tone: "neutral",
        word: "no significant change",
        delta,
        title:
          Math.abs(trend.relativeDelta) <= 0.05
            ? `${comparison}${test}. Within ±5%: no significant change.`
            : `${comparison}${test}. No significant change: within what the previous runs produce${trend.pValue === null ? " (one previous run cannot tell)" : ""}.`,
      };
  }
}
