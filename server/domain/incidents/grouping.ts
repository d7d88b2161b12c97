/**
 * Which incident a newly found regression belongs to. One step moves many series at once (every endpoint
 * and percentile of a run), and change-point detection places it at the same run on each, or a run or
 * two apart when a series is noisier. So a new regression joins an incident still being triaged (open
 * or investigating) whose first run is at most SAME_STEP_DISTANCE runs from its own in its series' runs,
 * the nearest first; else it opens a new incident. A regression never joins a decided incident: an
 * accepted or invalid verdict was given without it.
 */
export const SAME_STEP_DISTANCE = 3;

export interface ActiveIncident {
  id: string;
  firstRunId: string;
}

/** The incident a regression at `firstRunId` (in a series whose runs are `seriesRunIds`, oldest first) joins, or null. */
export function findIncidentOfStep(
  incidents: readonly ActiveIncident[],
  firstRunId: string,
  seriesRunIds: readonly string[],
): ActiveIncident | null {
  const at = seriesRunIds.indexOf(firstRunId);
  let best: { incident: ActiveIncident; distance: number } | null = null;
  for (const incident of incidents) {
    if (incident.firstRunId === firstRunId) return incident;
    const index = seriesRunIds.indexOf(incident.firstRunId);
    if (index === -1 || at === -1) continue;
    const distance = Math.abs(index - at);
    if (distance <= SAME_STEP_DISTANCE && (best === null || distance < best.distance)) best = { incident, distance };
  }
  return best?.incident ?? null;
}

/**
 * Whether a change the other way brought a regressed series back to its level before the step: its new
 * level is within the project's minimum effect of the old one, or past it in the good direction. A later
 * improvement that undoes only part of the step (+50%, then −10%) is not a return.
 */
export function isBackAtLevel(regression: { beforeValue: number; afterValue: number }, levelNow: number, minEffectPct: number): boolean {
  const { beforeValue, afterValue } = regression;
  const margin = Math.abs(beforeValue) * (minEffectPct / 100);
  return afterValue >= beforeValue ? levelNow <= beforeValue + margin : levelNow >= beforeValue - margin;
}
