import { DEFAULT_CHANGE_POINT_OPTIONS, detectChangePoints } from "../stats/change-points";
import type { Better } from "../run";

/**
 * The change points of a series' window (services/incidents/regression-detection.ts reads the window):
 * each (endpoint, metric) trend searched whole, and from the first run of each of its regressions that
 * has not come back yet, where only the return (a step back) is looked for. Pure, and run in a CPU thread
 * for a large suite (services/platform/cpu-pool.ts: a 10,000-benchmark window is a million values).
 * See docs/change-point-detection.md.
 */

/**
 * One (endpoint, metric)'s values along the window: a trend (docs/glossary.md). `runs` are positions in
 * the window's run ids (ascending: the runs that have a value), so a suite's trends share one list of ids.
 */
export interface TrendLine {
  endpointId: number | null;
  metric: string;
  better: Better;
  runs: number[];
  values: number[];
}

/** A regression of the series whose return was not seen yet: its trend is also searched from its first run. */
export interface UnreturnedRegression {
  endpointId: number | null;
  metric: string;
  firstRunId: string;
}

/** A change point found in a series' window, not yet recorded: what a regression (or improvement) would be. */
export interface ChangeCandidate {
  endpointId: number | null;
  metric: string;
  kind: "regression" | "improvement";
  firstRunId: string;
  beforeValue: number;
  afterValue: number;
  deltaPct: number;
  pValue: number;
  /** The trend's runs in window order: where a recorded change of the same series sits, to tell it is the same. */
  seriesRunIds: string[];
}

/** The candidates of every trend of a window whose runs, oldest first, are `windowRunIds`. */
export function findCandidatesInTrends(
  windowRunIds: readonly string[],
  trends: readonly TrendLine[],
  unreturned: readonly UnreturnedRegression[],
): ChangeCandidate[] {
  const minRuns = 2 * DEFAULT_CHANGE_POINT_OPTIONS.minSegmentLength;
  const windowIndex = new Map(windowRunIds.map((id, index) => [id, index]));
  const candidates: ChangeCandidate[] = [];
  const known = new Set<string>();
  for (const line of trends) {
    // A regression's first run, as a place in this trend (which skips the runs without a value).
    const placeOf = (runId: string) => {
      const position = windowIndex.get(runId);
      return position === undefined ? -1 : line.runs.indexOf(position);
    };
    const starts = [
      0,
      ...unreturned
        .filter((row) => row.endpointId === line.endpointId && row.metric === line.metric)
        .map((row) => placeOf(row.firstRunId))
        .filter((index) => index > 0 && line.runs.length - index >= minRuns),
    ];
    for (const start of new Set(starts)) {
      for (const point of detectChangePoints(line.values.slice(start))) {
        if (point.deltaPct === null) continue;
        const isWorse = line.better === "lower" ? point.direction === "increase" : point.direction === "decrease";
        // From a regression's first run on, only its return is looked for.
        if (start > 0 && isWorse) continue;
        const firstRunId = windowRunIds[line.runs[start + point.index]!]!;
        const key = JSON.stringify([line.endpointId, line.metric, firstRunId]);
        if (known.has(key)) continue;
        known.add(key);
        candidates.push({
          endpointId: line.endpointId,
          metric: line.metric,
          kind: isWorse ? "regression" : "improvement",
          firstRunId,
          beforeValue: point.before.mean,
          afterValue: point.after.mean,
          deltaPct: point.deltaPct,
          pValue: point.pValue,
          seriesRunIds: line.runs.map((position) => windowRunIds[position]!),
        });
      }
    }
  }
  return candidates;
}
