import { formatDeltaPct } from "../format";
import { chooseBaselineWindow } from "../gate/baseline-window";
import type { SeriesChange } from "../gate/baseline-window";
import { isActiveState } from "../incidents/state";
import { byLargestChange } from "../incidents/summary";
import type { IncidentState } from "../incidents/state";

/**
 * What the overview reads of an endpoint's recorded changes (server/services/projects/project-overview.ts reads
 * them), so its trend column agrees with the incidents inbox:
 *
 * - **Active incidents.** An endpoint with a regression of its series in an incident still open or being
 *   investigated says so, with the incident's number and its change on that endpoint.
 * - **The trend's window is the gate's regime** (domain/gate/baseline-window.ts, series mode): the latest
 *   run is compared with the runs since the last accepted change of its series (a change marker, an
 *   accepted regression, an improvement, on any endpoint: a step is a property of the runs, as the gate's
 *   window has it) and before a regression still open. Why: the median of the previous runs
 *   straddled a step, so a step read as "no significant change" while the sparkline showed it and the
 *   inbox listed it; compared with the level before the step, it reads as the change it is, and once its
 *   incident is accepted the new level is the reference.
 */

/** A regression or improvement of one endpoint (or the aggregate), as stored. */
export interface RecordedChange {
  /** Its endpoint; null: the run aggregate. */
  endpointId: number | null;
  /** The series of its first run (series.ts seriesName): the overview follows the latest run's series. */
  series: string;
  kind: "regression" | "improvement";
  status: "open" | "acknowledged" | "dismissed";
  /** "p95", "mean", "metrics.<key>"… */
  metric: string;
  deltaPct: number;
  firstRunId: string;
  /** Its first run's start: where the new level begins. */
  at: Date;
  /** Its incident (regressions only). */
  incident: { number: number; state: IncidentState } | null;
  /** When it was triaged (accepted or dismissed); null while open. A triage made after a run was judged covers its failure, as in the gate's window. */
  decidedAt?: Date | null;
}

/** A change marker (a known change of config or hardware): a new regime from its time on, for every series. */
export interface ChangeMarker {
  at: Date;
  text: string;
  /** When it was made: a marker made after a run was judged covers its failure, as in the gate's window. */
  createdAt?: Date;
}

/** An earlier run of the series as the trend's window reads it. */
export interface TrendRun {
  runId: string;
  startedAt: Date;
  /** When it was stored (the start time when unknown). */
  uploadedAt?: Date;
  /** Whether its gate found a regression (runs of the default branch only; null: not known). */
  regressed?: boolean | null;
}

/** An incident still being triaged on the series, with its change on this endpoint. */
export interface ActiveIncidentMark {
  number: number;
  state: IncidentState;
  /** The change shown: the trend metric's when it moved, else the largest of the endpoint's. */
  metric: string;
  deltaPct: number;
  firstRunId: string;
}


/**
 * The incidents still open or investigating among an endpoint's changes (already of its series and endpoint), by
 * number; each with the change it made to `trendMetric` when it made one, else its largest.
 */
export function activeIncidentsOf(changes: readonly RecordedChange[], trendMetric: string): ActiveIncidentMark[] {
  const byNumber = new Map<number, RecordedChange[]>();
  for (const change of changes) {
    if (change.kind !== "regression" || change.incident === null || !isActiveState(change.incident.state)) continue;
    byNumber.set(change.incident.number, [...(byNumber.get(change.incident.number) ?? []), change]);
  }
  return [...byNumber]
    .sort(([a], [b]) => a - b)
    .map(([number, members]) => {
      const largest = byLargestChange(members)[0]!;
      const shown = members.find((member) => member.metric === trendMetric) ?? largest;
      return { number, state: shown.incident!.state, metric: shown.metric, deltaPct: shown.deltaPct, firstRunId: shown.firstRunId };
    });
}

/** A change in words, as the trend's tooltip names the window's ends: "incident #3", "the change marker "pool 20 → 50"". */
function describeChange(change: RecordedChange, role: "since" | "before"): string {
  const what = `${change.metric} ${formatDeltaPct(change.deltaPct)}`;
  if (change.kind === "improvement") return `the improvement (${what})`;
  if (change.incident !== null) return role === "since" ? `accepted incident #${change.incident.number}` : `incident #${change.incident.number}`;
  return `the ${change.status === "acknowledged" ? "accepted" : "open"} regression (${what})`;
}

export interface TrendWindow {
  /** The earlier runs the latest is compared with, newest first. */
  runIds: string[];
  /** The change the window starts at, in words; null when none is in sight. */
  since: string | null;
  /** Where that change starts (its first run's start, or the marker's time); null when none is in sight. */
  sinceAt: Date | null;
  /** What it is: a recorded change (a step the detector found) or a change marker; null when none is in sight. */
  sinceKind: "change" | "marker" | null;
  /** The open change the window stops before (the level before it is the reference), in words; null when none. */
  before: string | null;
}

/**
 * Which of the series' earlier runs (`previous`, newest first) the latest run (started at `latestAt`) is
 * compared with: at most `cap`, since the last accepted change and before the first regression still
 * open after it, leaving out the streak of runs that failed the gate (`regressed`) that no triage covers, as
 * the gate's baseline window chooses them. Changes after the latest run are not in sight.
 */
export function chooseTrendWindow(
  previous: readonly TrendRun[],
  latestAt: Date,
  changes: readonly RecordedChange[],
  markers: readonly ChangeMarker[],
  cap: number,
): TrendWindow {
  const words = new Map<SeriesChange, RecordedChange | ChangeMarker>();
  const seriesChanges: SeriesChange[] = [];
  for (const change of changes) {
    if (change.at.getTime() > latestAt.getTime()) continue;
    const decidedAt = change.status === "open" ? null : (change.decidedAt ?? null);
    const entry: SeriesChange = { kind: change.kind, status: change.status, at: change.at, firstRunId: change.firstRunId, decidedAt, summary: "" };
    words.set(entry, change);
    seriesChanges.push(entry);
  }
  for (const marker of markers) {
    if (marker.at.getTime() > latestAt.getTime()) continue;
    const entry: SeriesChange = { kind: "marker", status: null, at: marker.at, firstRunId: null, decidedAt: marker.createdAt ?? null, summary: "" };
    words.set(entry, marker);
    seriesChanges.push(entry);
  }
  const runs = previous.map((run) => ({ id: run.runId, startedAt: run.startedAt, uploadedAt: run.uploadedAt ?? run.startedAt, regressed: run.regressed ?? null }));
  const window = chooseBaselineWindow(runs, seriesChanges, "series", cap);
  const describe = (change: SeriesChange | null, role: "since" | "before") => {
    const source = change === null ? undefined : words.get(change);
    if (source === undefined) return null;
    return "kind" in source ? describeChange(source, role) : `the change marker "${source.text}"`;
  };
  return {
    runIds: window.runIds,
    since: describe(window.since, "since"),
    sinceAt: window.since?.at ?? null,
    sinceKind: window.since === null ? null : window.since.kind === "marker" ? "marker" : "change",
    before: describe(window.openRegression, "before"),
  };
}

/**
 * Whether a triage covers a run's failure, as in the gate's window (domain/gate/baseline-window.ts): a
 * regression accepted or dismissed, or a change marker, made after the run was stored and starting at or
 * before it.
 */
export function isCoveredByTriage(run: TrendRun, changes: readonly RecordedChange[], markers: readonly ChangeMarker[]): boolean {
  const uploadedAt = (run.uploadedAt ?? run.startedAt).getTime();
  const startsBefore = (at: Date) => at.getTime() <= run.startedAt.getTime();
  return (
    changes.some((change) => change.status !== "open" && change.decidedAt != null && startsBefore(change.at) && change.decidedAt.getTime() >= uploadedAt) ||
    markers.some((marker) => marker.createdAt !== undefined && startsBefore(marker.at) && marker.createdAt.getTime() >= uploadedAt)
  );
}
