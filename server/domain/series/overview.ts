import { median } from "../stats/descriptive";
import { isInsufficient } from "../stats/insufficient";
import { predictionTest } from "../stats/prediction-test";
import { isBenchmark } from "../run";
import { gateOfEndpoint } from "./gate-status";
import type { EndpointGate, SeriesGate } from "./gate-status";
import { activeIncidentsOf, chooseTrendWindow, isCoveredByTriage } from "./recorded-changes";
import type { ActiveIncidentMark, ChangeMarker, RecordedChange, TrendWindow } from "./recorded-changes";
import { seriesName } from "./series";
import type { SeriesIdentity } from "./series";
import type { SeriesPoint } from "./downsample";
/**
 * The overview's pure rules: a sparkline of an endpoint's last SERIES_LENGTH results and its trend
 * arrow (the latest value against the median of the previous runs of its regime: recorded-changes.ts), on
 * p95 for an endpoint and on the mean time per operation for a benchmark (what its gate judges:
 * docs/benchmarks.md), the incidents still being triaged on its series, and what the CI gate last said
 * about it on the default branch (gate-status.ts). The service (server/services/projects/project-overview.ts)
 * reads the rows; everything here is computed from them.
 */

export const SERIES_LENGTH = 30;
/** The trend compares the latest p95 with the median of up to this many previous runs… */
export const TREND_WINDOW = 10;
/** …and calls it a change beyond ±5%. */
export const TREND_THRESHOLD = 0.05;
/**
 * Runs of a regime (the latest included) before a flat arrow may read "no significant change": the
 * change-point detector confirms a step with 6 runs after it (its minimum segment), and the gate judges
 * with 6 runs in all. Fewer, and the column says there are too few to tell.
 */
export const MIN_REGIME_RUNS = 6;
export const RECENT_RUNS = 10;

export interface SeriesResult {
  runId: string;
  /** The run's series (tool, label, branch): sparklines and arrows follow the latest run's. */
  series?: string;
  /** The same series as its parts: on the default branch, its gate's status and failed runs count. */
  identity?: SeriesIdentity;
  /** When the run was stored: a triage made after it covers its failure (the gate's window). */
  uploadedAt?: Date;
  /** Whether its gate found a regression at upload (null: not known). */
  regressed?: boolean | null;
  startedAt: Date;
  requests: number | null;
  errorRate: number | null;
  throughput: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  meanMs: number | null;
}

/** What a row's sparkline and arrow follow: p95 for an endpoint, the mean time per operation for a benchmark. */
export type TrendMetric = "p95" | "mean";

/** A sparkline point (`SeriesPoint`, downsample.ts): x is the run's start time (epoch ms), y the value or null when missing. */
export type { SeriesPoint };

export type Trend =
  | { kind: "insufficient"; reason: string }
  | {
      kind: "change";
      /**
       * up: the latest p95 is > 5% above the previous median AND the prediction-interval t test says it
       * is outside what the previous runs produce (p < TREND_ALPHA): worse for latency; down: the same
       * below; flat: anything else ("no significant change").
       */
      direction: "up" | "down" | "flat";
      latestMs: number;
      medianMs: number;
      /** (latest − median) / median. */
      relativeDelta: number;
      /** How many previous runs the median is of (1..TREND_WINDOW). */
      previousRuns: number;
      /** The test's two-sided p-value (latest against the previous runs); null with one previous run. */
      pValue: number | null;
      /** The recorded change the previous runs start at, in words ("accepted incident #2"); null when none is in sight. */
      since?: string | null;
      /** The open change they stop before ("incident #3"): the latest is compared with the level before it. */
      before?: string | null;
      /** Too few runs since a step to tell: then a flat arrow is not "no significant change". */
      unsettled?: Unsettled | null;
    };

/**
 * Why a flat trend cannot be read as "no significant change" (MIN_REGIME_RUNS):
 * - failing: the latest runs of the series on the default branch failed the gate (a step the detector has
 *   not confirmed yet): `runs` since the first of them, at `since`;
 * - few-runs: the regime since the last accepted change (`sinceWords`, at `since`: a step the detector
 *   found, or a change marker, `sinceKind`), or the whole series when none is in sight (`since` null), has
 *   only `runs` runs.
 */
export interface Unsettled {
  kind: "failing" | "few-runs";
  runs: number;
  needed: number;
  since: Date | null;
  sinceKind: "change" | "marker" | null;
  sinceWords: string | null;
}

/** The significance level of the overview's arrows. */
export const TREND_ALPHA = 0.05;

/**
 * The trend arrow's rule: the latest value (p95, or a benchmark's mean) against the previous
 * up-to-TREND_WINDOW runs of the same series (runs without one are skipped). An arrow needs both a change beyond ±5% of their median
 * (the median, so one noisy run does not make it) and a test: the prediction-interval t test of the
 * latest value against the previous ones (../stats/prediction-test.ts) at p < TREND_ALPHA. Otherwise
 * the trend is flat: "no significant change". `newestFirst` are the values, newest first.
 */
export function latestTrendOf(newestFirst: readonly (number | null)[], label = "p95"): Trend {
  const [latest, ...rest] = newestFirst;
  if (latest === undefined) return { kind: "insufficient", reason: "no runs yet" };
  if (latest === null) return { kind: "insufficient", reason: `the latest run has no ${label}` };
  const previous = rest.slice(0, TREND_WINDOW).filter((value): value is number => value !== null);
  const previousMedian = median(previous);
  if (previousMedian === null) return { kind: "insufficient", reason: `need 2 runs with a ${label}, have 1` };
  const test = predictionTest(previous, latest);
  const pValue = isInsufficient(test) ? null : test.pValue;
  const base = { latestMs: latest, medianMs: previousMedian, previousRuns: previous.length, pValue };
  if (previousMedian === 0) {
    return latest === 0
      ? { kind: "change", direction: "flat", relativeDelta: 0, ...base }
      : { kind: "insufficient", reason: "the previous median is 0 ms, so no relative change" };
  }
  const relativeDelta = (latest - previousMedian) / previousMedian;
  const significant = pValue !== null && pValue < TREND_ALPHA;
  const direction = !significant ? "flat" : relativeDelta > TREND_THRESHOLD ? "up" : relativeDelta < -TREND_THRESHOLD ? "down" : "flat";
  return { kind: "change", direction, relativeDelta, ...base };
}

const TREND_COLUMN = { p95: "p95Ms", mean: "meanMs" } as const;

/** Sparkline points of `metric`, oldest → newest, from results given newest first (as the query returns them). */
export function toSparkline(newestFirst: readonly Pick<SeriesResult, "startedAt" | "p95Ms" | "meanMs">[], metric: TrendMetric = "p95"): SeriesPoint[] {
  return newestFirst
    .slice(0, SERIES_LENGTH)
    .map((result) => ({ x: result.startedAt.getTime(), y: result[TREND_COLUMN[metric]] }))
    .reverse();
}

export interface EndpointSummary {
  /** Null for the aggregate ("all endpoints"). */
  id: number | null;
  name: string;
  protocol: string | null;
  latest: SeriesResult;
  /** Whether the project's latest run measured this endpoint (older endpoints are kept, marked). */
  isInLatestRun: boolean;
  /** What `series` and `trend` follow. */
  trendMetric: TrendMetric;
  series: SeriesPoint[];
  trend: Trend;
  /** Incidents still open or investigating on its series (the inbox's), oldest first. */
  incidents: ActiveIncidentMark[];
  /** What the latest run of its series on the default branch answered for it (gate-status.ts); null when nothing is known. */
  gate: EndpointGate | null;
}

/**
 * The project's recorded changes in sight (of any endpoint and series: a row picks its latest run's series,
 * whose changes on every endpoint set its regime, as they set the gate's, and its own endpoint's for the
 * incidents it names) and its change markers.
 */
export interface SeriesChanges {
  changes: readonly RecordedChange[];
  markers: readonly ChangeMarker[];
}

const NO_CHANGES: SeriesChanges = { changes: [], markers: [] };

/** The project's default branch and the gate's status of each of its series there (gate-status.ts). */
export interface GateContext {
  defaultBranch: string;
  gates: readonly SeriesGate[];
}

/** Builds an endpoint's summary from its results, newest first; null when it has none. */
export function summarizeSeries(
  endpoint: { id: number | null; name: string; protocol: string | null },
  newestFirst: readonly SeriesResult[],
  latestRunId: string | null,
  recorded: SeriesChanges = NO_CHANGES,
  context: GateContext | null = null,
): EndpointSummary | null {
  const latest = newestFirst[0];
  if (!latest) return null;
  // One series: runs of another tool, label or branch are other measurements, not this one's history.
  const sameSeries = newestFirst.filter((result) => result.series === latest.series);
  const changes = recorded.changes.filter((change) => change.series === latest.series);
  const own = changes.filter((change) => change.endpointId === endpoint.id);
  const trendMetric: TrendMetric = isBenchmark(endpoint) ? "mean" : "p95";
  const isOnDefaultBranch = context !== null && latest.identity !== undefined && latest.identity.branch === context.defaultBranch;
  // Failed runs count (left out of the window, a streak of them unsettles it) on the default branch only: a
  // branch's runs are judged against the default branch's, so their failures say nothing of their own series.
  const ownRuns = isOnDefaultBranch ? sameSeries : sameSeries.map((result) => ({ ...result, regressed: null }));
  return {
    ...endpoint,
    latest,
    isInLatestRun: latest.runId === latestRunId,
    trendMetric,
    series: toSparkline(sameSeries, trendMetric),
    trend: trendInRegime(ownRuns, changes, recorded.markers, trendMetric),
    incidents: activeIncidentsOf(own, trendMetric),
    gate: rowGate(endpoint, newestFirst, latest, context, isOnDefaultBranch),
  };
}

/** The gate of the row's series on the default branch (its own series when it is there, else the same tool, label and testbed there). */
function rowGate(
  endpoint: { id: number | null; name: string; protocol: string | null },
  newestFirst: readonly SeriesResult[],
  latest: SeriesResult,
  context: GateContext | null,
  isOnDefaultBranch: boolean,
): EndpointGate | null {
  if (context === null || latest.identity === undefined) return null;
  const key = seriesName({ ...latest.identity, branch: context.defaultBranch });
  const gate = context.gates.find((candidate) => candidate.key === key);
  if (!gate) return null;
  const measured = newestFirst.some((result) => result.runId === gate.latest.runId);
  return gateOfEndpoint(gate, endpoint, { measured, isOwnSeries: isOnDefaultBranch });
}

/**
 * Whether the trend of `newestFirst` (one series, the latest first) is too young to read a flat arrow as "no
 * significant change": a streak of failed runs on top that no triage covers and no open regression explains
 * (the detector has not confirmed the step yet), or fewer than MIN_REGIME_RUNS runs in the window's
 * regime. Null: settled, or compared with the level before a step the detector confirmed.
 */
export function findUnsettled(
  newestFirst: readonly SeriesResult[],
  window: Pick<TrendWindow, "runIds" | "sinceAt" | "sinceKind" | "since" | "before">,
  changes: readonly RecordedChange[],
  markers: readonly ChangeMarker[],
): Unsettled | null {
  const [latest] = newestFirst;
  if (latest === undefined) return null;
  // Before an open regression the reference is the level before its step: the detector has confirmed it (the
  // row names its incident when it moved this endpoint), and the runs failing since are judged against it.
  if (window.before !== null) return null;
  if (latest.regressed === true && !isCoveredByTriage(latest, changes, markers)) {
    const end = newestFirst.findIndex((result) => result.regressed !== true || isCoveredByTriage(result, changes, markers));
    const streak = end === -1 ? newestFirst : newestFirst.slice(0, end);
    return { kind: "failing", runs: streak.length, needed: MIN_REGIME_RUNS, since: streak.at(-1)!.startedAt, sinceKind: "change", sinceWords: null };
  }
  const runs = window.runIds.length + 1;
  if (runs >= MIN_REGIME_RUNS) return null;
  return { kind: "few-runs", runs, needed: MIN_REGIME_RUNS, since: window.sinceAt, sinceKind: window.sinceKind, sinceWords: window.since };
}

/** The trend of the latest result against the previous ones of its regime (recorded-changes.ts), `newestFirst` of one series. */
function trendInRegime(
  newestFirst: readonly SeriesResult[],
  changes: readonly RecordedChange[],
  markers: readonly ChangeMarker[],
  metric: TrendMetric,
): Trend {
  const [latest, ...previous] = newestFirst;
  const label = metric === "mean" ? "mean time/op" : "p95";
  const column = TREND_COLUMN[metric];
  if (latest === undefined) return latestTrendOf([], label);
  // Runs without a value do not count toward the window (latestTrendOf skips them too).
  const withValue = previous.filter((result) => result[column] !== null);
  const window = chooseTrendWindow(withValue, latest.startedAt, changes, markers, TREND_WINDOW);
  const inWindow = new Set(window.runIds);
  const trend = latestTrendOf([latest[column], ...withValue.filter((result) => inWindow.has(result.runId)).map((result) => result[column])], label);
  if (trend.kind === "change") {
    return { ...trend, since: window.since, before: window.before, unsettled: findUnsettled([latest, ...withValue], window, changes, markers) };
  }
  if (window.runIds.length === 0 && latest[column] !== null && withValue.length > 0) {
    // Earlier runs there are, but none in the latest run's regime among those read.
    const reason =
      window.before !== null
        ? `the level before ${window.before} is older than the runs shown`
        : `only the latest run is since ${window.since ?? "the last recorded change"}`;
    return { kind: "insufficient", reason };
  }
  return trend;
}
