import { isValidAlert, type IncidentState } from "./state";

/**
 * Alert precision: of the incidents a team has closed, the share that were real changes (fixed,
 * backed out or accepted) rather than noise (invalid). It tells a team how far to trust an alert, and
 * per detector version it tells whether a change to the detector made alerts better or worse.
 *
 * Only closed incidents count (an open one has no verdict yet). With none closed, precision is not a
 * number but a reason. With few, the share swings: the 95% Wilson score interval goes with it
 * (Wilson 1927; Agresti & Coull 1998, "Approximate is better than exact"), so "1 of 1" reads 21–100%.
 */
export interface PrecisionIncident {
  state: IncidentState;
  detectorVersion: number;
  /** When it was closed (null while open): the month it counts in. */
  closedAt: Date | null;
}

export interface PrecisionCounts {
  closed: number;
  valid: number;
  invalid: number;
  /** valid / closed; null with none closed. */
  precision: number | null;
  /** The 95% Wilson interval of the precision; null with none closed. */
  interval: { low: number; high: number } | null;
}

export interface AlertPrecision extends PrecisionCounts {
  /** Still open or investigating: not counted. */
  active: number;
  /** Why precision is null, in words. */
  reason: string | null;
  byDetectorVersion: (PrecisionCounts & { detectorVersion: number })[];
  /** By the month incidents were closed ("2026-11"), oldest first. */
  byMonth: (PrecisionCounts & { month: string })[];
}

const Z_95 = 1.959963984540054;

/** The Wilson score interval of `successes` of `trials` at 95%. */
export function wilsonInterval(successes: number, trials: number): { low: number; high: number } | null {
  if (trials <= 0) return null;
  const p = successes / trials;
  const z2 = Z_95 * Z_95;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (Z_95 * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / (1 + z2 / trials);
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

function countsOf(incidents: readonly PrecisionIncident[]): PrecisionCounts {
  let valid = 0;
  let invalid = 0;
  for (const incident of incidents) {
    const isValid = isValidAlert(incident.state);
    if (isValid === true) valid += 1;
    else if (isValid === false) invalid += 1;
  }
  const closed = valid + invalid;
  return { closed, valid, invalid, precision: closed > 0 ? valid / closed : null, interval: wilsonInterval(valid, closed) };
}

function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

export function computeAlertPrecision(incidents: readonly PrecisionIncident[]): AlertPrecision {
  const closed = incidents.filter((incident) => isValidAlert(incident.state) !== null);
  const totals = countsOf(closed);
  const group = <Key extends string | number>(keyOf: (incident: PrecisionIncident) => Key) => {
    const groups = new Map<Key, PrecisionIncident[]>();
    for (const incident of closed) groups.set(keyOf(incident), [...(groups.get(keyOf(incident)) ?? []), incident]);
    return [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  };
  return {
    ...totals,
    active: incidents.length - closed.length,
    reason:
      totals.closed > 0
        ? null
        : incidents.length === 0
          ? "No incidents yet: precision is measured on incidents that have been closed."
          : `No incident closed yet (${incidents.length} still open or investigating): precision is measured on closed incidents.`,
    byDetectorVersion: group((incident) => incident.detectorVersion).map(([detectorVersion, members]) => ({
      detectorVersion,
      ...countsOf(members),
    })),
    // A closed incident always has closedAt; one backfilled without it counts in no month.
    byMonth: group((incident) => (incident.closedAt ? monthOf(incident.closedAt) : "")).flatMap(([month, members]) =>
      month === "" ? [] : [{ month, ...countsOf(members) }],
    ),
  };
}
