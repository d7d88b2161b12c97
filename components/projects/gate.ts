import { formatDeltaPct } from "@/server/domain/format";
import type { KeptGateChange } from "@/server/domain/gate/judge";
import type { Outcome } from "@/server/domain/gate/outcome";
import type { CardGate, EndpointGate, SeriesGate } from "@/server/domain/series/gate-status";
import { endpointDisplayName } from "@/server/domain/run";
import { metricShortName, resultKindOf, wordsOf } from "@/server/domain/result-kind";
import type { ResultKinds } from "@/server/domain/result-kind";

/**
 * How the pages say what the CI gate last answered on the default branch (server/domain/series/gate-status.ts):
 * the overview's trend column ("Gate: fail · +61.0% p95"), its "main fails the gate" banner, and the home
 * card's chips. Words only; the components lay them out.
 */

export type GateTone = "bad" | "warn" | "good";
export const OUTCOME_TONE: Record<Outcome, GateTone> = { fail: "bad", inconclusive: "warn", pass: "good" };

/** "2026-11-10 03:00" (UTC), as the pages write run times. */
const timeOf = (date: Date | string) => {
  const iso = new Date(date).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
};

const STATUS_WORDS: Record<KeptGateChange["status"], string> = {
  regressed: "regressed (worse and significant once corrected for the endpoints judged)",
  exact: "changed (an exact count, the same in every repetition: no noise explains it)",
  undecided: "undecided (worse and significant alone, not once corrected: more rounds would decide)",
  improved: "improved",
};

/** A change as named: "+61.0% p95", "+373.8% mean time/op", "allocs/op changed" when it has no relative change. */
export function describeGateChange(change: KeptGateChange, kind: ResultKinds = resultKindOf(change.protocol)): string {
  const metric = metricShortName(change.metric, kind);
  return change.deltaPct === null ? `${metric} changed` : `${formatDeltaPct(change.deltaPct)} ${metric}`;
}

/** A change with its endpoint: "GetListing p95 +61.0%", "All endpoints p95 +12.0%". */
export function describeNamedChange(change: KeptGateChange): string {
  const kind = resultKindOf(change.protocol);
  const metric = metricShortName(change.metric, kind);
  const name = change.endpoint === null ? wordsOf(kind).aggregate : endpointDisplayName(change.endpoint);
  return change.deltaPct === null ? `${name} ${metric} changed` : `${name} ${metric} ${formatDeltaPct(change.deltaPct)}`;
}

/** The run a gate answered, in words: "the latest run of go · nightly · main (2026-11-10 03:00, commit c0ffee1)". */
function runWords(series: SeriesGate): string {
  const commit = series.latest.commit ? `, commit ${series.latest.commit.slice(0, 7)}` : "";
  return `the latest run of ${series.key} (${timeOf(series.latest.startedAt)}${commit})`;
}

export interface GateMark {
  text: string;
  title: string;
  tone: GateTone;
}

/**
 * A row's gate in the trend column: "Gate: fail · +61.0% p95" (this endpoint named), "Gate: fail (2 other
 * endpoints)", "Gate: pass"; "Gate on main: …" when the row's own runs are of another branch. Its title
 * says which run, what the gate made of this endpoint, and the run's reasons.
 */
export function describeEndpointGate(
  gate: EndpointGate,
  series: SeriesGate | undefined,
  kind: ResultKinds,
  /** showChange false: the change in the title only (an incident mark beside it already says it). */
  { isAggregate = false, showChange = true } = {},
): GateMark {
  const prefix = gate.isOwnSeries ? "Gate" : `Gate on ${series?.branch ?? "the default branch"}`;
  const words = wordsOf(kind);
  // The aggregate's "others" are the endpoints themselves.
  const others = `${gate.othersFailing}${isAggregate ? "" : " other"} ${gate.othersFailing === 1 ? words.noun : words.nouns}`;
  let text = `${prefix}: ${gate.outcome}`;
  if (gate.change) text += showChange ? ` · ${describeGateChange(gate.change, kind)}` : "";
  else if (gate.outcome === "fail" && gate.othersFailing > 0) text += ` (${others})`;
  const about = series ? `The CI gate's answer to ${runWords(series)}: ${gate.outcome}.` : `The CI gate's answer to the latest run of this series: ${gate.outcome}.`;
  const own = gate.change
    ? ` This ${words.noun}: ${describeGateChange(gate.change, kind)}, ${STATUS_WORDS[gate.change.status]}.`
    : gate.outcome === "fail" && gate.othersFailing > 0
      ? isAggregate
        ? ` It named no change of ${words.aggregate.toLowerCase()}; ${others} failed it.`
        : ` It named no change of this ${words.noun}; ${gate.othersFailing === 1 ? `another ${words.noun}` : others} failed it.`
      : "";
  const reasons = series && series.latest.reasons.length > 0 ? ` ${series.latest.reasons.join("; ")}.` : "";
  return { text, title: `${about}${own}${reasons} Open the run.`, tone: OUTCOME_TONE[gate.outcome] };
}

/**
 * Changes named once per endpoint, in their order: "… > BenchmarkJoinInts allocs/op +100,000.0%, mean time/op
 * +373.8%" rather than the endpoint's name before each of its changes.
 */
function groupByEndpoint(changes: readonly KeptGateChange[]): string[] {
  const groups = new Map<string, KeptGateChange[]>();
  for (const change of changes) {
    const key = JSON.stringify([change.endpoint, change.protocol]);
    groups.set(key, [...(groups.get(key) ?? []), change]);
  }
  return [...groups.values()].map(([first, ...rest]) => {
    const kind = resultKindOf(first!.protocol);
    const more = rest.map((change) => {
      const metric = metricShortName(change.metric, kind);
      return change.deltaPct === null ? `${metric} changed` : `${metric} ${formatDeltaPct(change.deltaPct)}`;
    });
    return [describeNamedChange(first!), ...more].join(", ");
  });
}

/** What a triage made since the latest run means for the next one. */
function describeTriage(triage: SeriesGate["triagedSince"][number]): string {
  if (triage.incident === null) return `("${triage.marker ?? ""}") was set: the next run starts a new level`;
  return triage.incident.state === "invalid"
    ? "was marked invalid: the runs it flagged count in the baseline again"
    : "was accepted: the next run is judged against the new level";
}

/**
 * A series failing the gate, as its banner names it: since when, how many runs, the latest run's largest
 * failing changes (or its first reason), and what was triaged since.
 */
export function describeFailingSeries(series: SeriesGate, max = 3): {
  runs: string;
  since: string;
  changes: string[];
  more: number;
  reason: string | null;
  /** Triage since the latest run (its incident, or null for a change marker), in words after its name. */
  triaged: { key: string; incident: number | null; text: string }[];
} {
  const failing = series.latest.changes.filter((change) => change.status === "regressed" || change.status === "exact");
  const runs = series.failing?.runs ?? 1;
  const commit = series.failing?.since.commit ? ` · ${series.failing.since.commit.slice(0, 7)}` : "";
  return {
    runs: `${runs} run${runs === 1 ? "" : "s"}`,
    since: series.failing ? `${timeOf(series.failing.since.startedAt)}${commit}` : timeOf(series.latest.startedAt),
    changes: groupByEndpoint(failing.slice(0, max)),
    more: Math.max(0, failing.length - max),
    // Failed on something else than a regression (an SLA check, the tool's thresholds): its first reason.
    reason: failing.length === 0 ? (series.latest.reasons[0] ?? null) : null,
    triaged: series.triagedSince.map((triage, index) => ({
      key: triage.incident ? `incident-${triage.incident.number}` : `marker-${index}`,
      incident: triage.incident?.number ?? null,
      text: describeTriage(triage),
    })),
  };
}

/** A streak as a card says it: "2026-11-10 (5 runs)". */
export function describeCardSince(failing: NonNullable<SeriesGate["failing"]>): string {
  return `${timeOf(failing.since.startedAt).slice(0, 10)} (${failing.runs} run${failing.runs === 1 ? "" : "s"})`;
}

/** The home card's line for its series: the chips' words and titles, failing first. */
export function describeCardGate(card: CardGate, defaultBranch: string): { tone: GateTone; text: string; title: string; testId: string }[] {
  const names = (list: CardGate["failing"]) => list.map((series) => series.name).join(", ");
  const reasonsOf = (list: CardGate["failing"]) => {
    const reasons = list.flatMap((series) => (series.reason ? [series.reason] : []));
    return reasons.length > 0 ? ` (${reasons.join("; ")})` : "";
  };
  const chips: { tone: GateTone; text: string; title: string; testId: string }[] = [];
  if (card.failing.length > 0) {
    chips.push({
      tone: "bad",
      text: `✗ ${defaultBranch} fails the gate`,
      title: `The latest run of ${names(card.failing)} on ${defaultBranch} failed the CI gate${reasonsOf(card.failing)}.`,
      testId: "gate-chip-fail",
    });
  }
  if (card.inconclusive.length > 0) {
    chips.push({
      tone: "warn",
      text: `? ${card.inconclusive.length > 1 ? `${card.inconclusive.length} ` : ""}inconclusive`,
      title: `The latest run of ${names(card.inconclusive)} on ${defaultBranch}: the CI gate could not tell${reasonsOf(card.inconclusive)}.`,
      testId: "gate-chip-inconclusive",
    });
  }
  if (card.passing.length > 0) {
    chips.push({
      tone: "good",
      text: `✓ ${card.passing.length > 1 ? `${card.passing.length} ` : ""}passing`,
      title: `The latest run of ${names(card.passing)} on ${defaultBranch} passed the CI gate.`,
      testId: "gate-chip-pass",
    });
  }
  return chips;
}
