import { formatDeltaPct, formatMs, formatPValue } from "@/server/domain/format";
import { INCIDENT_STATE_LABELS } from "@/server/domain/incidents/state";
import type { Trend } from "@/server/domain/series/overview";
import type { ActiveIncidentMark } from "@/server/domain/series/recorded-changes";
import { metricShortName } from "@/server/domain/series-kind";
import type { SeriesKinds } from "@/server/domain/series-kind";

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
  const regime = trend.before ? ` before ${trend.before}` : trend.since ? ` since ${trend.since}` : "";
  const runs = `${trend.previousRuns === 1 ? "the previous run" : `the previous ${trend.previousRuns} runs`} of this series${regime}`;
  const delta = formatDeltaPct(100 * trend.relativeDelta);
  const comparison = `Latest ${metricLabel} ${formatMs(trend.latestMs)} vs median ${formatMs(trend.medianMs)} of ${runs}: ${delta}`;
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

/**
 * An incident still being triaged on an endpoint's series, as its trend column names it: "Incident #3 ·
 * +31.0% p95", and a sentence for its tooltip.
 */
export function describeIncidentMark(
  incident: Pick<ActiveIncidentMark, "number" | "state" | "metric" | "deltaPct">,
  kind: SeriesKinds = "endpoint",
): { text: string; title: string } {
  const metric = metricShortName(incident.metric, kind);
  const delta = formatDeltaPct(incident.deltaPct);
  return {
    text: `Incident #${incident.number} · ${delta} ${metric}`,
    title: `Incident #${incident.number} (${INCIDENT_STATE_LABELS[incident.state]}): ${metric} ${delta} on this series since its step; the CI gate judges runs against the level before it until the incident is accepted or marked invalid. Open the incident.`,
  };
}
