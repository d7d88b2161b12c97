import { formatDeltaPct, formatMs, formatPValue } from "@/server/domain/format";
import { INCIDENT_STATE_LABELS } from "@/server/domain/incidents/state";
import type { Trend, Unsettled } from "@/server/domain/series/overview";
import type { ActiveIncidentMark } from "@/server/domain/series/recorded-changes";
import { metricShortName } from "@/server/domain/result-kind";
import type { ResultKinds } from "@/server/domain/result-kind";

/**
 * How a p95 trend reads in the overview: an arrow, a tone, and a sentence for its tooltip. Latency is
 * lower-is-better, so "up" is bad (red) and "down" good (green), each only when the change passed its
 * test; "no significant change" and "not enough data" are muted. A flat trend with too few runs since a
 * step (`unsettled`) is never "no significant change": it says there are too few runs to tell.
 */
export interface TrendBadge {
  symbol: "↑" | "↓" | "→" | "·";
  tone: "bad" | "good" | "neutral";
  /** Short words for screen readers ("worse", "better", "no significant change", "no trend"). */
  word: string;
  /** The relative change shown beside the arrow ("+20.0%"), empty without a trend. */
  delta: string;
  /** What the cell shows beside the symbol: the delta, "no sig. change", or why it cannot tell yet. */
  text: string;
  title: string;
}

/** A date as the pages write run times, in UTC: "2026-11-22". */
const dayOf = (date: Date | string) => new Date(date).toISOString().slice(0, 10);

/**
 * Why a trend cannot tell yet, in a few words for the cell and a sentence for its tooltip: "too few runs
 * since the step on 2026-11-10 to tell (2 of 6)".
 */
export function describeUnsettled(unsettled: Unsettled): { text: string; sentence: string } {
  const { runs, needed } = unsettled;
  const count = `${runs} of ${needed}`;
  if (unsettled.kind === "failing") {
    const day = dayOf(unsettled.since!);
    const failed = `The latest ${runs === 1 ? "run" : `${runs} runs`} of this series failed the CI gate, from the run of ${day} on: a step change-point detection has not confirmed yet (it needs ${needed} runs after it).`;
    return runs < needed
      ? { text: `too few runs since the step on ${day} to tell (${count})`, sentence: `${failed} Too few runs since it to tell where the level is.` }
      : { text: `step on ${day} not confirmed yet (${runs} runs)`, sentence: failed };
  }
  const need = `a flat trend needs ${needed} runs of its level to read as no significant change`;
  if (unsettled.since === null) return { text: `too few runs to tell (${count})`, sentence: `Only ${runs} runs of this series: ${need}.` };
  const day = dayOf(unsettled.since);
  const what = unsettled.sinceKind === "marker" ? "the change marker" : "the step";
  return {
    text: `too few runs since ${what} on ${day} to tell (${count})`,
    sentence: `Only ${runs} runs since ${unsettled.sinceWords ?? what} (${day}): ${need}.`,
  };
}

export function describeTrend(trend: Trend, metricLabel = "p95"): TrendBadge {
  if (trend.kind === "insufficient") {
    return { symbol: "·", tone: "neutral", word: "no trend", delta: "", text: "", title: `No trend: ${trend.reason}.` };
  }
  const regime = trend.before ? ` before ${trend.before}` : trend.since ? ` since ${trend.since}` : "";
  const runs = `${trend.previousRuns === 1 ? "the previous run" : `the previous ${trend.previousRuns} runs`} of this series${regime}`;
  const delta = formatDeltaPct(100 * trend.relativeDelta);
  const comparison = `Latest ${metricLabel} ${formatMs(trend.latestMs)} vs median ${formatMs(trend.medianMs)} of ${runs}: ${delta}`;
  const test = trend.pValue === null ? "" : ` (${formatPValue(trend.pValue)})`;
  const unsettled = trend.unsettled ? describeUnsettled(trend.unsettled) : null;
  const also = unsettled ? ` ${unsettled.sentence}` : "";
  switch (trend.direction) {
    case "up":
      return { symbol: "↑", tone: "bad", word: "worse", delta, text: delta, title: `${comparison}${test}. Worse: more than 5% slower, and significant.${also}` };
    case "down":
      return { symbol: "↓", tone: "good", word: "better", delta, text: delta, title: `${comparison}${test}. Better: more than 5% faster, and significant.${also}` };
    case "flat":
      if (unsettled) {
        return { symbol: "·", tone: "neutral", word: "too few runs to tell", delta, text: unsettled.text, title: `${comparison}${test}.${also}` };
      }
      return {
        symbol: "→",
        tone: "neutral",
        word: "no significant change",
        delta,
        text: "no sig. change",
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
  kind: ResultKinds = "endpoint",
): { text: string; title: string } {
  const metric = metricShortName(incident.metric, kind);
  const delta = formatDeltaPct(incident.deltaPct);
  return {
    text: `Incident #${incident.number} · ${delta} ${metric}`,
    title: `Incident #${incident.number} (${INCIDENT_STATE_LABELS[incident.state]}): ${metric} ${delta} on this series since its step; the CI gate judges runs against the level before it until the incident is accepted or marked invalid. Open the incident.`,
  };
}
