/**
 * Which earlier runs of a series a new run is judged against (docs/statistics.md, "The CI gate"): the
 * series' comparable history since its last accepted change, not a fixed "last 5 runs".
 *
 * - **Since the last accepted change.** A change marker (a known change of config or hardware), an
 *   acknowledged regression or a recorded improvement starts a new regime; nothing before it is compared
 *   with what comes after. Why: a past step is not noise, and a baseline that mixes two levels both
 *   misplaces the mean and inflates the spread.
 * - **Not across an open regression.** On the series itself (a run of main judged against main), a
 *   regression that is still open ends the window before its first run: a step nobody triaged must not
 *   become the new normal by being averaged in, so every later run is judged against the level before
 *   it (and says so) until someone acknowledges it (the new level becomes the baseline) or dismisses it.
 * - **Not a streak of runs that failed the gate.** For the same reason the runs that regressed against
 *   their own baseline since the series' last run that did not stay out of later baselines (a slowdown
 *   the change-point detector has not confirmed yet is not averaged in either), unless a later triage
 *   covers them: an acknowledgement, a dismissal or a change marker made after they were judged. Only
 *   the streak: once a later run does not regress, an earlier lone failure was one of the α false
 *   alarms, and leaving every such high run out for good would bias the baseline low and raise the
 *   false-alarm rate (docs/gate-evaluation.md measures both).
 * - **A pull request is judged against the regime it branched from**: the base branch's runs at and
 *   before its merge-base, since the last change that was not dismissed (an open regression included:
 *   the branch contains it, and blaming the PR for it would be wrong), failed runs included.
 * - **At most BASELINE_CAP runs**, newest first: enough for the t test's degrees of freedom (t(0.998, 29)
 *   = 3.04 against the normal 2.88), recent enough that a slow drift does not pile up.
 *
 * Pure: the service reads the rows (same tool, label, branch and load profile, started at or before the
 * reference time, newest first) and the series' changes, and this decides.
 */

import type { IncidentState } from "../incidents/state";

export const BASELINE_CAP = 30;

/** A run of the series, as the window needs it. */
export interface SeriesRun {
  id: string;
  startedAt: Date;
  /** When it was stored: a triage made after it covers its failure. */
  uploadedAt: Date;
  /** Whether its own gate found a regression at upload (null: judged before this was kept). */
  regressed: boolean | null;
}

/** Something that may start or end a regime of the series. */
export interface SeriesChange {
  kind: "marker" | "regression" | "improvement";
  /** Regressions and improvements: their status; markers: null. */
  status: "open" | "acknowledged" | "dismissed" | null;
  /** When the new regime starts: the first run of the change, or the marker's time. */
  at: Date;
  /** Its first run (null for a marker at a time). */
  firstRunId: string | null;
  /** When it was triaged (status changed) or, for a marker, made; null while open. */
  decidedAt: Date | null;
  /** For messages: "p95 of GetListing +30.2%", or the marker's text. */
  summary: string;
  /** A regression's incident (docs/incidents.md), when it has one: messages and pages name and link it. */
  incident?: { number: number; state: IncidentState } | null;
}

export type WindowMode = "series" | "pull-request";

/**
 * What chose a baseline: pinned runs or label; the merge-base's runs (and those before them); the base
 * branch's runs before the merge-base's time (it had none); the default branch's runs before this run.
 */
export type BaselineBasis = "pinned" | "merge-base" | "before-merge-base" | "recent" | "ab-job";

export interface BaselineWindow {
  /** The baseline: run ids, newest first, at most BASELINE_CAP. */
  runIds: string[];
  /** Earlier runs of the series before the window (newest first), read only to learn its longer-run noise. */
  noiseOnlyRunIds: string[];
  /** The change the window starts at, if any. */
  since: SeriesChange | null;
  /** An open regression the window stops before (series mode). */
  openRegression: SeriesChange | null;
  /** Runs of the window left out because they failed the gate after the last run that did not, and no triage covers them. */
  failedLeftOut: number;
  /** Runs of the window beyond the cap. */
  beyondCap: number;
}

function isAccepted(change: SeriesChange, mode: WindowMode): boolean {
  if (change.kind === "marker") return true;
  if (change.status === "dismissed") return false;
  if (change.kind === "improvement") return true;
  return mode === "pull-request" || change.status === "acknowledged";
}

/**
 * `runs`: the series' runs before the reference time, newest first (the head's own rounds already left
 * out). `changes`: its markers and recorded changes at or before that time, any order.
 */
export function chooseBaselineWindow(
  runs: readonly SeriesRun[],
  changes: readonly SeriesChange[],
  mode: WindowMode,
  cap = BASELINE_CAP,
): BaselineWindow {
  const byTime = [...changes].sort((a, b) => a.at.getTime() - b.at.getTime());
  const since = byTime.filter((change) => isAccepted(change, mode)).at(-1) ?? null;
  const start = since?.at.getTime() ?? Number.NEGATIVE_INFINITY;
  const openRegression =
    mode === "series"
      ? (byTime.find((change) => change.kind === "regression" && change.status === "open" && change.at.getTime() > start) ?? null)
      : null;
  const end = openRegression?.at.getTime() ?? Number.POSITIVE_INFINITY;

  // A triage (or a marker) made after a run was judged covers that run's failure when it starts at or before it.
  const isCovered = (run: SeriesRun) =>
    changes.some(
      (change) =>
        (change.kind === "marker" || change.status === "acknowledged" || change.status === "dismissed") &&
        change.decidedAt !== null &&
        change.at.getTime() <= run.startedAt.getTime() &&
        change.decidedAt.getTime() >= run.uploadedAt.getTime(),
    );
  const inWindow = runs.filter((run) => run.startedAt.getTime() >= start && run.startedAt.getTime() < end);
  // Newest first: the failed runs before the newest run that did not regress are no longer a streak.
  const newestNotRegressed = inWindow.findIndex((run) => run.regressed === false);
  const isInFailedStreak = (run: SeriesRun, index: number) =>
    run.regressed === true && (newestNotRegressed === -1 || index < newestNotRegressed) && !isCovered(run);
  const kept = mode === "series" ? inWindow.filter((run, index) => !isInFailedStreak(run, index)) : inWindow;
  const before = runs.filter((run) => run.startedAt.getTime() < start);
  const runIds = kept.slice(0, cap).map((run) => run.id);
  return {
    runIds,
    noiseOnlyRunIds: before.slice(0, Math.max(0, cap - runIds.length)).map((run) => run.id),
    since,
    openRegression,
    failedLeftOut: inWindow.length - kept.length,
    beyondCap: Math.max(0, kept.length - cap),
  };
}
