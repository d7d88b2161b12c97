import { formatDeltaPct, formatMs } from "@/server/domain/format";
import type { Trend } from "@/server/domain/series/overview";

/**
 * How a p95 trend reads in the overview: an arrow, a tone, and a sentence for its tooltip. Latency is
 * lower-is-better, so "up" is bad (red) and "down" good (green); "flat" and "not enough data" are muted.
 */
export interface TrendBadge {
  symbol: "↑" | "↓" | "→" | "·";
  tone: "bad" | "good" | "neutral";
  /** Short words for screen readers ("worse", "better", "steady", "no trend"). */
  word: string;
  /** The relative change shown beside the arrow ("+20.0%"), empty without a trend. */
  delta: string;
  title: string;
}

export function describeTrend(trend: Trend): TrendBadge {
  if (trend.kind === "insufficient") {
    return { symbol: "·", tone: "neutral", word: "no trend", delta: "", title: `No trend: ${trend.reason}.` };
  }
  const runs = trend.previousRuns === 1 ? "the previous run" : `the previous ${trend.previousRuns} runs`;
  const delta = formatDeltaPct(100 * trend.relativeDelta);
  const comparison = `Latest p95 ${formatMs(trend.latestMs)} vs median ${formatMs(trend.medianMs)} of ${runs}: ${delta}.`;
  switch (trend.direction) {
    case "up":
      return { symbol: "↑", tone: "bad", word: "worse", delta, title: `${comparison} Worse: more than 5% slower.` };
    case "down":
      return { symbol: "↓", tone: "good", word: "better", delta, title: `${comparison} Better: more than 5% faster.` };
    case "flat":
      return { symbol: "→", tone: "neutral", word: "steady", delta, title: `${comparison} Within ±5%: steady.` };
  }
}
