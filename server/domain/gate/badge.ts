import { BADGE_COLOURS, renderBadge } from "../badge";
import type { Badge } from "../badge";
import type { Outcome } from "./outcome";

/**
 * A README badge for the CI gate on a project's default branch: the outcome its latest run's upload
 * stored, and the project's incidents still open: "gate | pass", "gate | fail · 2 incidents".
 * Nothing is judged again: a run stored before outcomes were kept says "unknown", a branch without a
 * run "no runs" (each in grey, never a pass).
 */

/** The gate's status on the branch: the latest run's stored outcome, or why there is none. */
export type GateBadgeStatus =
  | { kind: "judged"; outcome: Outcome }
  /** The latest run was stored before outcomes were kept (runs.outcome is null). */
  | { kind: "not-kept" }
  | { kind: "no-runs" };

export interface GateBadgeInput {
  /** The default branch the badge speaks for. */
  branch: string;
  /** The run label it was narrowed to (?label=), or null for any run of the branch. */
  label: string | null;
  status: GateBadgeStatus;
  /** The project's incidents still to be decided (open or investigating: domain/incidents/state.ts). */
  openIncidents: number;
}

const OUTCOME_COLOURS: Record<Outcome, string> = { pass: BADGE_COLOURS.green, fail: BADGE_COLOURS.red, inconclusive: BADGE_COLOURS.amber };

const incidentsWord = (count: number) => `${count} ${count === 1 ? "incident" : "incidents"}`;

/** The badge's words and colour; renderGateBadge draws them. */
export function describeGateBadge({ branch, label, status, openIncidents }: GateBadgeInput): Badge {
  const state = status.kind === "judged" ? status.outcome : status.kind === "not-kept" ? "unknown" : "no runs";
  const colour = status.kind === "judged" ? OUTCOME_COLOURS[status.outcome] : BADGE_COLOURS.grey;
  const run = label === null ? `the latest run on ${branch}` : `the latest run labelled ${label} on ${branch}`;
  const said =
    status.kind === "judged"
      ? `CI gate of ${run}: ${status.outcome}`
      : status.kind === "not-kept"
        ? `CI gate of ${run}: unknown (stored before gate outcomes were kept)`
        : `CI gate on ${branch}: no runs${label === null ? "" : ` labelled ${label}`} yet`;
  const incidents = openIncidents > 0 ? incidentsWord(openIncidents) : null;
  return {
    label: "gate",
    message: incidents === null ? state : `${state} · ${incidents}`,
    colour,
    title: `${said}; ${incidents === null ? "no open incidents" : `${incidents} open`} in the project`,
  };
}

export function renderGateBadge(input: GateBadgeInput): string {
  return renderBadge(describeGateBadge(input));
}
