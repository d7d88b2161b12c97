/**
 * Missing-data check: does a project upload on a schedule, and has that schedule stopped?
 *
 * Input: the start times of a project's latest runs (≈30, any order) and "now". Steps:
 * 1. Sessions. Runs less than SESSION_GAP_HOURS apart are one upload session (5 rounds of a benchmark
 *    in one CI job are one "upload", not 5), so the gaps measured are between sessions.
 * 2. Cadence. The median gap between sessions (robust to the odd skipped day or manual extra run)
 *    names the schedule: ≤ 36 h daily, else ≤ 9 days weekly. A schedule needs evidence: at least
 *    `minSessions` sessions within `windowDays` before the last run (daily: 5 in 30 days; weekly: 4 in
 *    90 days). The window ends at the last run, not now, so a project that stopped long ago still
 *    shows as a regular project that went missing rather than as an irregular one.
 * 3. Missing. A project with a cadence is missing data when its last run is older than
 *    max(3 days, 3 × median gap): three missed uploads, and never less than a long weekend.
 * Without a cadence the answer is "irregular" (no expectation, so nothing can be missing).
 */
import { median } from "./stats/descriptive";

export type FreshnessStatus = "fresh" | "missing" | "irregular" | "no-runs";
export type Cadence = "daily" | "weekly";

export interface Freshness {
  status: FreshnessStatus;
  lastRunAt: Date | null;
  /** Median gap between upload sessions, in hours; null with fewer than two sessions. */
  medianGapHours: number | null;
  cadence: Cadence | null;
  /** Age of the last run that counts as missing data, in hours; null without a cadence. */
  missingAfterHours: number | null;
  message: string;
}

export const SESSION_GAP_HOURS = 1;
export const MIN_MISSING_HOURS = 3 * 24;
export const MISSING_GAP_MULTIPLE = 3;

const CADENCES: readonly { cadence: Cadence; maxMedianGapHours: number; windowDays: number; minSessions: number }[] = [
  { cadence: "daily", maxMedianGapHours: 36, windowDays: 30, minSessions: 5 },
  { cadence: "weekly", maxMedianGapHours: 9 * 24, windowDays: 90, minSessions: 4 },
];

const HOUR_MS = 3_600_000;

export function assessFreshness(runStartTimes: readonly Date[], now: Date): Freshness {
  const times = runStartTimes
    .map((time) => time.getTime())
    .filter(Number.isFinite)
    .sort((a, b) => b - a);
  const newest = times[0];
  if (newest === undefined) {
    return {
      status: "no-runs",
      lastRunAt: null,
      medianGapHours: null,
      cadence: null,
      missingAfterHours: null,
      message: "No runs yet.",
    };
  }
  const lastRunAt = new Date(newest);
  const ageHours = Math.max(0, (now.getTime() - newest) / HOUR_MS);
  const sessions = sessionStarts(times);
  const gaps = sessions.slice(1).map((older, index) => (sessions[index]! - older) / HOUR_MS);
  const medianGapHours = median(gaps);
  const ago = `Last run ${formatHours(ageHours)} ago`;

  // The band the median gap falls in (the first whose bound it is under), then the evidence it needs.
  const band =
    medianGapHours === null ? undefined : CADENCES.find((candidate) => medianGapHours <= candidate.maxMedianGapHours);
  const sessionsInWindow =
    band === undefined ? 0 : sessions.filter((start) => newest - start <= band.windowDays * 24 * HOUR_MS).length;
  if (band === undefined || medianGapHours === null || sessionsInWindow < band.minSessions) {
    const needed = band?.minSessions ?? CADENCES[0]!.minSessions;
    const why =
      sessions.length < needed
        ? `runs on ${sessions.length === 1 ? "only 1 occasion" : `only ${sessions.length} occasions`} so far, too few to learn a schedule`
        : medianGapHours !== null && band === undefined
          ? `uploads are rare (about every ${Math.round(medianGapHours / 24)} days), so no run is expected`
          : "uploads have no regular schedule";
    return {
      status: "irregular",
      lastRunAt,
      medianGapHours,
      cadence: null,
      missingAfterHours: null,
      message: `${ago}; ${why}.`,
    };
  }
  const missingAfterHours = Math.max(MIN_MISSING_HOURS, MISSING_GAP_MULTIPLE * medianGapHours);
  const usually = `this project usually uploads ${describeCadence(medianGapHours)}`;
  if (ageHours > missingAfterHours) {
    return {
      status: "missing",
      lastRunAt,
      medianGapHours,
      cadence: band.cadence,
      missingAfterHours,
      message: `No run for ${formatHours(ageHours)}; ${usually}.`,
    };
  }
  return {
    status: "fresh",
    lastRunAt,
    medianGapHours,
    cadence: band.cadence,
    missingAfterHours,
    message: `${ago}; ${usually}.`,
  };
}

/** The start of each session, newest first, given times newest first. */
function sessionStarts(timesNewestFirst: readonly number[]): number[] {
  const starts: number[] = [];
  let previous: number | undefined;
  for (const time of timesNewestFirst) {
    // Walking back in time: a run close to the previous (newer) one joins its session, whose start moves back.
    if (previous !== undefined && previous - time < SESSION_GAP_HOURS * HOUR_MS) starts[starts.length - 1] = time;
    else starts.push(time);
    previous = time;
  }
  return starts;
}

/** "daily", "every 3 days", "weekly", "every 8 days". */
function describeCadence(medianGapHours: number): string {
  if (medianGapHours <= 36) return "daily";
  const days = Math.round(medianGapHours / 24);
  return days === 7 ? "weekly" : `every ${days} days`;
}

/** A duration for a sentence: "20 minutes", "5 hours", "4 days" (rounded down past two days). */
export function formatHours(hours: number): string {
  if (hours < 1) {
    const minutes = Math.floor(hours * 60);
    if (minutes < 1) return "less than a minute";
    return minutes === 1 ? "1 minute" : `${minutes} minutes`;
  }
  if (hours < 48) {
    const whole = Math.floor(hours);
    return whole === 1 ? "1 hour" : `${whole} hours`;
  }
  return `${Math.floor(hours / 24)} days`;
}
