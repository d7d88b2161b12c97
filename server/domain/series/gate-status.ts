import { z } from "zod";
import { GATE_CHANGE_STATUSES } from "../gate/judge";
import type { KeptGateChange } from "../gate/judge";
import { OUTCOMES } from "../gate/outcome";
import type { Outcome } from "../gate/outcome";
import { changeStatusOf } from "../incidents/state";
import type { IncidentState } from "../incidents/state";
import type { ChangeMarker, RecordedChange } from "./recorded-changes";
import { seriesName } from "./series";

/**
 * What the CI gate last said about each series on the project's default branch, from what every run keeps
 * of its upload's answer (runs.outcome, outcome_reasons, gate_changes): the overview's trend column and
 * banner, and the home page's card (docs/statistics.md, "Series", the overview). Why: the overview's trend
 * arrow needs runs after a step to tell anything, and change-point detection needs 6 runs after it to open
 * an incident, while the gate has failed every one of those runs since the first; pages that only showed
 * the arrow and the incidents read all-clear while main failed.
 *
 * - **A series** here is (tool, label, testbed) on the default branch, as the gate's baseline has it.
 * - **Its status** is its latest run's outcome, with what that run's gate named (largest first).
 * - **Failing since**: the streak of its latest runs whose outcome is "fail", from the first of them; it
 *   ends at the first run (going back) that passed, was inconclusive, or was judged before outcomes were
 *   kept (null: not known to have failed). The streak goes as soon as the latest run does not fail.
 *
 * Pure: the service (server/services/projects/series-gates.ts) reads the runs, newest first.
 */

/** Runs of a series read for its status: enough for most streaks; a longer one is completed by a lookup (its first run and length). */
export const GATE_RUNS_READ = 30;
/** Changes a banner or a card names, at most. */
export const NAMED_CHANGES = 3;

/** A run of the series as its status needs it. */
export interface SeriesGateRun {
  id: string;
  startedAt: Date;
  /** When it was stored (its gate judged it then). */
  uploadedAt?: Date;
  gitCommit: string | null;
  /** As stored: "pass" | "fail" | "inconclusive", or null for runs judged before outcomes were kept. */
  outcome: string | null;
}

/** The run a streak starts at. */
export interface GateRunRef {
  runId: string;
  startedAt: Date;
  commit: string | null;
}

export interface SeriesGate {
  /** seriesName of (tool, label, default branch, testbed): the key rows and banners match on. */
  key: string;
  tool: string;
  label: string | null;
  branch: string;
  testbed: string | null;
  latest: GateRunRef & {
    uploadedAt: Date;
    /** Null: judged before outcomes were kept. */
    outcome: Outcome | null;
    reasons: string[];
    /** What its gate named as changed, largest first (runs.gate_changes). */
    changes: KeptGateChange[];
  };
  /** The current streak of failing runs: its first run and how many; null when the latest run did not fail. */
  failing: { since: GateRunRef; runs: number } | null;
  /** Incidents on the series still keeping the gate on the level before their step (not accepted, not invalid). */
  incidents: { number: number; state: IncidentState }[];
  /**
   * Triage since the latest run was judged (an incident of the series accepted or marked invalid, a change
   * marker set): its stored "fail" stands, but the next run is judged against what the triage decided.
   */
  triagedSince: { incident: { number: number; state: IncidentState } | null; marker: string | null }[];
}

const keptGateChangeSchema = z.object({
  endpoint: z.string().nullable(),
  protocol: z.string().nullable().catch(null),
  metric: z.string(),
  deltaPct: z.number().nullable().catch(null),
  status: z.enum(GATE_CHANGE_STATUSES),
});

/** runs.gate_changes as stored (JSON): the entries that read as KeptGateChange, in their order; anything else is dropped. */
export function readKeptGateChanges(value: unknown): KeptGateChange[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    const parsed = keptGateChangeSchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

/** A stored outcome as one of the three, null when it is none of them (runs judged before outcomes were kept). */
export function readOutcome(value: string | null): Outcome | null {
  return (OUTCOMES as readonly string[]).includes(value ?? "") ? (value as Outcome) : null;
}

/** The changes that failed the gate ("regressed", or an exact count that changed), largest first. */
export function failingChanges(changes: readonly KeptGateChange[]): KeptGateChange[] {
  return changes.filter((change) => change.status === "regressed" || change.status === "exact");
}

/**
 * The streak of failing runs at the top of `newestFirst`: its first (oldest) run and its length, or null when
 * the latest did not fail. `complete` is false when every run given failed and there may be more before
 * them (as many as were read: the service then looks further).
 */
export function findFailingStreak(newestFirst: readonly SeriesGateRun[], readLimit = GATE_RUNS_READ): { first: SeriesGateRun; runs: number; complete: boolean } | null {
  const end = newestFirst.findIndex((run) => run.outcome !== "fail");
  const runs = end === -1 ? newestFirst.length : end;
  if (runs === 0) return null;
  return { first: newestFirst[runs - 1]!, runs, complete: end !== -1 || newestFirst.length < readLimit };
}

const refOf = (run: SeriesGateRun): GateRunRef => ({ runId: run.id, startedAt: run.startedAt, commit: run.gitCommit });

export interface SeriesGateInput {
  tool: string;
  label: string | null;
  branch: string;
  testbed: string | null;
  /** The series' latest runs, newest first (at most GATE_RUNS_READ). */
  newestFirst: readonly SeriesGateRun[];
  /** The latest run's reasons and gate_changes as stored. */
  latestReasons: readonly string[];
  latestChanges: unknown;
  /** When the streak is longer than the runs read: its first run and its whole length, as looked up. */
  streakBeyond?: { first: SeriesGateRun; runs: number } | null;
  incidents?: SeriesGate["incidents"];
}

/** A series' gate status; null when it has no run. */
export function summarizeSeriesGate(input: SeriesGateInput): SeriesGate | null {
  const latest = input.newestFirst[0];
  if (!latest) return null;
  const streak = findFailingStreak(input.newestFirst);
  const failing =
    streak === null ? null : !streak.complete && input.streakBeyond ? { since: refOf(input.streakBeyond.first), runs: input.streakBeyond.runs } : { since: refOf(streak.first), runs: streak.runs };
  return {
    key: seriesName({ tool: input.tool, label: input.label, branch: input.branch, testbed: input.testbed }),
    tool: input.tool,
    label: input.label,
    branch: input.branch,
    testbed: input.testbed,
    latest: {
      ...refOf(latest),
      uploadedAt: latest.uploadedAt ?? latest.startedAt,
      outcome: readOutcome(latest.outcome),
      reasons: [...input.latestReasons],
      changes: readKeptGateChanges(input.latestChanges),
    },
    failing,
    incidents: [],
    triagedSince: [],
  };
}

/**
 * Each series' incidents, from the overview's recorded changes (of every series): those still keeping the
 * gate on the level before their step (open, investigating, fixed, backed out: what a "fails the gate"
 * banner links), and the triage made since its latest run was judged (an incident accepted or marked
 * invalid, a change marker), which the next run's gate will follow.
 */
export function withTriage(gates: readonly SeriesGate[], recorded: { changes: readonly RecordedChange[]; markers: readonly ChangeMarker[] }): SeriesGate[] {
  return gates.map((gate) => {
    const judgedAt = gate.latest.uploadedAt.getTime();
    const active = new Map<number, IncidentState>();
    const decided = new Map<number, IncidentState>();
    for (const change of recorded.changes) {
      if (change.series !== gate.key || change.incident === null) continue;
      const { number, state } = change.incident;
      if (changeStatusOf(state) === "open") active.set(number, state);
      else if (change.decidedAt != null && change.decidedAt.getTime() >= judgedAt) decided.set(number, state);
    }
    const byNumber = (entries: Map<number, IncidentState>) => [...entries].sort(([a], [b]) => a - b).map(([number, state]) => ({ number, state }));
    const markers = recorded.markers.filter((marker) => marker.createdAt !== undefined && marker.createdAt.getTime() >= judgedAt);
    return {
      ...gate,
      incidents: byNumber(active),
      triagedSince: [
        ...byNumber(decided).map((incident) => ({ incident, marker: null })),
        ...markers.map((marker) => ({ incident: null, marker: marker.text })),
      ],
    };
  });
}

/** What the latest run of a row's series on the default branch answered for that row's endpoint (or the aggregate). */
export interface EndpointGate {
  /** The SeriesGate it comes from (its key). */
  series: string;
  runId: string;
  outcome: Outcome;
  /** This endpoint's change as the gate named it (the failing one first), null when it named none. */
  change: KeptGateChange | null;
  /** How many other endpoints (the aggregate counting as one) had a change that failed the gate. */
  othersFailing: number;
  /** Whether the row's own series is on the default branch (else the row shows another branch's runs). */
  isOwnSeries: boolean;
}

/**
 * A row's gate: the endpoint's change in the latest run of its series on the default branch (`gate`), null
 * when there is nothing to say: no such run, an outcome not kept, or a run that did not measure this
 * endpoint (`measured`) and named no change of it (a pass says nothing about an endpoint it did not
 * measure; the series' failure is the banner's).
 */
export function gateOfEndpoint(
  gate: SeriesGate | null | undefined,
  endpoint: { id: number | null; name: string; protocol: string | null },
  { measured, isOwnSeries }: { measured: boolean; isOwnSeries: boolean },
): EndpointGate | null {
  if (!gate || gate.latest.outcome === null) return null;
  const isThis = (change: KeptGateChange) =>
    endpoint.id === null ? change.endpoint === null : change.endpoint === endpoint.name && change.protocol === endpoint.protocol;
  const own = gate.latest.changes.filter(isThis);
  const change = failingChanges(own)[0] ?? own[0] ?? null;
  if (change === null && !measured) return null;
  return {
    series: gate.key,
    runId: gate.latest.runId,
    outcome: gate.latest.outcome,
    change,
    othersFailing: new Set(failingChanges(gate.latest.changes).filter((other) => !isThis(other)).map((other) => JSON.stringify([other.endpoint, other.protocol]))).size,
    isOwnSeries,
  };
}

/** A series as the home card shows it: compact, with what its latest run named. */
export interface CardSeries {
  key: string;
  /** "go · nightly", with the testbed only when another series of the project has the same tool and label. */
  name: string;
  latestRunId: string;
  failing: SeriesGate["failing"];
  /** The latest run's changes that failed the gate, largest first (at most NAMED_CHANGES). */
  named: KeptGateChange[];
  /** The latest run's first reason (a title's words); null when it gave none (a pass). */
  reason: string | null;
}

/** The home card's summary: the default branch's series by their latest outcome, each group by name. */
export interface CardGate {
  failing: CardSeries[];
  inconclusive: CardSeries[];
  passing: CardSeries[];
}

/** Groups series by their latest outcome, each group by name; series whose outcome was not kept are left out. */
export function summarizeCardGate(gates: readonly SeriesGate[]): CardGate {
  const toolAndLabel = (gate: SeriesGate) => JSON.stringify([gate.tool, gate.label]);
  const shared = new Map<string, number>();
  for (const gate of gates) shared.set(toolAndLabel(gate), (shared.get(toolAndLabel(gate)) ?? 0) + 1);
  const cards = gates
    .map((gate) => {
      const short = `${gate.tool} · ${gate.label ?? "no label"}`;
      const name = (shared.get(toolAndLabel(gate)) ?? 0) > 1 && gate.testbed ? `${short} · ${gate.testbed}` : short;
      const card: CardSeries = {
        key: gate.key,
        name,
        latestRunId: gate.latest.runId,
        failing: gate.failing,
        named: failingChanges(gate.latest.changes).slice(0, NAMED_CHANGES),
        reason: gate.latest.reasons[0] ?? null,
      };
      return { outcome: gate.latest.outcome, card };
    })
    .sort((a, b) => a.card.name.localeCompare(b.card.name, "en"));
  const of = (outcome: Outcome) => cards.filter((entry) => entry.outcome === outcome).map((entry) => entry.card);
  return { failing: of("fail"), inconclusive: of("inconclusive"), passing: of("pass") };
}
