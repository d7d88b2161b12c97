/**
 * Where an incident stands, and what each state means for the CI gate and for alert precision
 * (docs/incidents.md). An incident is the regressions one step opened at one run; it is triaged as one.
 *
 * - open: nobody has looked yet.
 * - investigating: someone has acknowledged it and is on it.
 * - fixed / backed_out: the change was real and has been undone; the series is expected to come back
 *   (a later change the other way on the same series says it has: Change.returnRunId).
 * - accepted: the change was real and is the new normal: its level becomes the gate's baseline.
 * - invalid: it was noise, not a change: the runs it flagged stay in the baseline.
 *
 * The gate reads a regression's status (domain/gate/baseline-window.ts): an incident's regressions
 * follow its state. Until an incident is accepted or marked invalid the gate judges runs against the
 * level before the step (fixed and backed out included: the series should return to that level).
 */
export const INCIDENT_STATES = ["open", "investigating", "fixed", "backed_out", "accepted", "invalid"] as const;
export type IncidentState = (typeof INCIDENT_STATES)[number];

/** Closed: decided. Open and investigating are not. */
export const CLOSED_STATES = ["fixed", "backed_out", "accepted", "invalid"] as const satisfies readonly IncidentState[];
export const ACTIVE_STATES = ["open", "investigating"] as const satisfies readonly IncidentState[];

/** Active: still to be decided (open or investigating). */
export function isActiveState(state: IncidentState): boolean {
  return (ACTIVE_STATES as readonly IncidentState[]).includes(state);
}

export function isClosedState(state: IncidentState): boolean {
  return (CLOSED_STATES as readonly IncidentState[]).includes(state);
}

/** Whether a closed incident was a real change (true) or noise (false); null while it is not closed. */
export function isValidAlert(state: IncidentState): boolean | null {
  if (!isClosedState(state)) return null;
  return state !== "invalid";
}

export type ChangeStatus = "open" | "acknowledged" | "dismissed";

/** The status the gate reads on each regression of an incident in this state. */
export function changeStatusOf(state: IncidentState): ChangeStatus {
  if (state === "accepted") return "acknowledged";
  if (state === "invalid") return "dismissed";
  return "open";
}

/** Short words for a state (badges, filters, notifications). */
export const INCIDENT_STATE_LABELS: Record<IncidentState, string> = {
  open: "Open",
  investigating: "Investigating",
  fixed: "Fixed",
  backed_out: "Backed out",
  accepted: "Accepted",
  invalid: "Invalid (noise)",
};

/** What a state does, in one sentence (the incident page and the API docs). */
export const INCIDENT_STATE_MEANINGS: Record<IncidentState, string> = {
  open: "Nobody has looked at it yet; the CI gate judges runs against the level before the step.",
  investigating: "Someone is on it; the CI gate still judges runs against the level before the step.",
  fixed: "Fixed: the series should return to the level before the step, and the gate expects it to.",
  backed_out: "The change was backed out: the series should return to the level before the step, and the gate expects it to.",
  accepted: "Accepted as the new normal: the level after the step is the CI gate's baseline from now on.",
  invalid: "Noise, not a change: the runs it flagged count in the baseline again, and it counts against alert precision.",
};

/**
 * The event an incident's change records, in words: "investigating → accepted". Null when nothing
 * about its state changed (a note or links edited).
 */
export function describeStateChange(from: IncidentState, to: IncidentState): string | null {
  if (from === to) return null;
  return `${INCIDENT_STATE_LABELS[from]} → ${INCIDENT_STATE_LABELS[to]}`;
}
