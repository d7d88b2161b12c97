/**
 * Run retention (docs/operations.md, "Deleting and retention"): which of a project's runs a rule deletes.
 * Pure: the caller reads the runs and what protects them, the nightly job and Settings' preview both call
 * this, so the preview says exactly what the sweep will delete (at the same moment).
 *
 * The rule: each limit that is set deletes what it does not keep, and a run is deleted when either set
 * limit would delete it:
 * - `maxAgeDays`: runs that started more than this many days before now;
 * - `keepRuns`: past the newest `keepRuns` runs of their series (tool, label, branch, testbed).
 * Never deleted (protected), whatever the rule says:
 * - the newest run of every series (a series is never emptied by retention);
 * - every run a baseline pin names;
 * - the first run of an incident still open or investigating (its evidence).
 */

export interface RetentionRule {
  maxAgeDays: number | null;
  keepRuns: number | null;
}

export interface RetentionCandidate {
  id: string;
  startedAt: Date;
  /** The run's series as one comparable key (tool, label, branch, testbed). */
  seriesKey: string;
}

export interface RetentionSelection {
  /** The runs the rule deletes, oldest first. */
  doomed: string[];
  /** Runs the rule would delete but a protection keeps. */
  protectedCount: number;
}

const DAY_MS = 86_400_000;

export function hasRetentionRule(rule: RetentionRule): boolean {
  return rule.maxAgeDays !== null || rule.keepRuns !== null;
}

/** The runs `rule` deletes now among `runs`, never one of `protectedIds` nor the newest of a series. */
export function selectRunsToDelete(
  runs: readonly RetentionCandidate[],
  rule: RetentionRule,
  protectedIds: ReadonlySet<string>,
  now: Date,
): RetentionSelection {
  if (!hasRetentionRule(rule)) return { doomed: [], protectedCount: 0 };
  const cutoff = rule.maxAgeDays === null ? null : now.getTime() - rule.maxAgeDays * DAY_MS;
  // Newest first within each series (ties by id, as the run list orders them).
  const ordered = [...runs].sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const rankInSeries = new Map<string, number>();
  const doomed: RetentionCandidate[] = [];
  let protectedCount = 0;
  for (const run of ordered) {
    const rank = rankInSeries.get(run.seriesKey) ?? 0;
    rankInSeries.set(run.seriesKey, rank + 1);
    const tooOld = cutoff !== null && run.startedAt.getTime() < cutoff;
    const tooMany = rule.keepRuns !== null && rank >= rule.keepRuns;
    if (!tooOld && !tooMany) continue;
    if (rank === 0 || protectedIds.has(run.id)) {
      protectedCount++;
      continue;
    }
    doomed.push(run);
  }
  return { doomed: doomed.reverse().map((run) => run.id), protectedCount };
}
