/**
 * A run's point on a trend: the one shape every trend chart's point shares (a latency point, a custom
 * metric's point, an overlaid branch's or pull request's run), so every tooltip and every click reads
 * the same fields. Each kind of point adds its values to it (trend-series.ts, trend-overlay.ts).
 */
import type { NamedRun } from "../compare/run-names";

export interface RunPoint {
  runId: string;
  /** Start time, epoch milliseconds (x in time mode). */
  time: number;
  /**
   * Position in the filtered history, 1-based (x in run-order mode); gaps show what was thinned. An
   * overlaid run sits between two base runs, at a fractional position (placeOverlayOnRunAxis).
   */
  order: number;
  label: string | null;
  round: number | null;
  branch: string | null;
  /** The commit's first COMMIT_SHORT_LENGTH characters, as git shows it. */
  commitShort: string | null;
}

/** What a tooltip and a link need to know about a stored run, before it is placed on a trend. */
export type TrendRunInfo = NamedRun & { runId: string; startedAt: Date };

export const COMMIT_SHORT_LENGTH = 7;

export function shortCommit(commit: string | null): string | null {
  return commit === null ? null : commit.slice(0, COMMIT_SHORT_LENGTH);
}

/** What a point says about its run: label, round, branch and the short commit. */
export function describeRunOfPoint(run: NamedRun): Pick<RunPoint, "label" | "round" | "branch" | "commitShort"> {
  return { label: run.label, round: run.round, branch: run.branch, commitShort: shortCommit(run.commit) };
}

/** A stored run placed at `order` on the run axis (and at its start time on the time axis). */
export function toRunPoint(run: TrendRunInfo, order: number): RunPoint {
  return { runId: run.runId, time: run.startedAt.getTime(), order, ...describeRunOfPoint(run) };
}
