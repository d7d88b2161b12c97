import type { ValueRange } from "../metrics";
import { UNBOUNDED } from "../metrics";
import { learnNoiseBand, MIN_NOISE_HISTORY, NOISE_HISTORY_RUNS, noiseHistory, regimeStartIndex } from "../stats/noise-band";
import type { RegimeStart } from "../stats/noise-band";
import type { RunPoint } from "./run-point";
import { byX, timeSpan, xPositions } from "./trend-series";
import type { PlaceablePoint, TrendXMode } from "./trend-series";

/**
 * A branch's (or a pull request's) runs drawn over the base branch's series on the trend page, with the
 * base branch's noise band behind them (docs/statistics.md, "Series" and "1 vs 1 against a noise band").
 *
 * The band is the 1 vs 1 compare's, learnt by the same rule (stats/noise-band.ts): at each base run, from
 * the base runs up to it since the series' last known change (a recorded p95 change that was not
 * dismissed, or a change marker), the latest NOISE_HISTORY_RUNS of them, after the last change point
 * detected in them (`noiseHistory`); centred on their median: median ± 3 · 1.4826 · median(|x_i − x_{i−1}|),
 * clamped to the metric's range (p95 ≥ 0 ms). A run outside it differs from the base branch's typical run
 * by more than a 1 vs 1 comparison would call noise. Right after a step there is no band until
 * MIN_NOISE_HISTORY runs of the new level are known: a band learnt across the step would be the two
 * levels' distance, not noise.
 */

/** The metric the overlay draws and its band is learnt on. */
export const OVERLAY_METRIC = "p95";

/** What the overlay shows: a branch's runs, or a pull request's (`?overlay=branch:<name>`, `?overlay=pr:<n>`). */
export type OverlayTarget = { kind: "branch"; branch: string } | { kind: "pr"; pullRequest: number };

/** How many of the overlay's latest runs the caption speaks of. */
export const OVERLAY_CAPTION_RUNS = 3;

/** `branch:<name>` or `pr:<number>`; anything else is no overlay (a malformed URL never fails the page). */
export function parseOverlay(value: string | null | undefined): OverlayTarget | null {
  if (!value) return null;
  if (value.startsWith("branch:")) {
    const branch = value.slice("branch:".length);
    return branch.trim() === "" ? null : { kind: "branch", branch };
  }
  const pr = /^pr:#?(\d{1,9})$/.exec(value);
  return pr ? { kind: "pr", pullRequest: Number(pr[1]) } : null;
}

export function serializeOverlay(target: OverlayTarget): string {
  return target.kind === "branch" ? `branch:${target.branch}` : `pr:${target.pullRequest}`;
}

/** "the branch feature/x" or "PR #12", as a sentence names it. */
export function describeOverlayTarget(target: OverlayTarget): string {
  return target.kind === "branch" ? `the branch ${target.branch}` : `PR #${target.pullRequest}`;
}

export interface NoiseBand {
  medianMs: number;
  lowMs: number;
  highMs: number;
  /** How many base runs it was learnt from (MIN_NOISE_HISTORY … NOISE_HISTORY_RUNS). */
  runs: number;
}

/** A base run as its band needs it: which run, when, and its value (null: the tool gave none). */
export interface BandBaseRun {
  runId: string;
  time: number;
  value: number | null;
}

/**
 * The rolling noise band at each base run (oldest first), learnt by the rule of the module comment from
 * the base runs up to and including it: null where fewer than MIN_NOISE_HISTORY values are known since
 * the last change, or their median is 0. `regimeStarts`: the series' recorded changes and change markers.
 */
export function rollingNoiseBand(
  base: readonly BandBaseRun[],
  options: {
    regimeStarts?: readonly RegimeStart[];
    range?: ValueRange;
    bandMultiplier?: number;
    /** Only the bands at these indexes are learnt (the others are null): a change-point search each. */
    at?: ReadonlySet<number>;
  } = {},
): (NoiseBand | null)[] {
  const regimeStart = regimeStartIndex(base, options.regimeStarts ?? []);
  return base.map((run, i) => {
    if (options.at && !options.at.has(i)) return null;
    // The latest NOISE_HISTORY_RUNS known values from its regime's start up to this run, oldest first.
    const from = regimeStart(run.time);
    const values: number[] = [];
    for (let j = i; j >= from && values.length < NOISE_HISTORY_RUNS; j--) {
      const value = base[j]!.value;
      if (value !== null && Number.isFinite(value)) values.push(value);
    }
    const band = learnNoiseBand(noiseHistory(values.reverse()), {
      bandMultiplier: options.bandMultiplier,
      range: options.range ?? UNBOUNDED,
    });
    return band && { medianMs: band.median, lowMs: band.low, highMs: band.high, runs: band.runs };
  });
}

/**
 * Run-axis positions of the overlay's runs (both lists oldest first). An overlay run follows the last
 * base run that started at or before it: it is placed after that run's number, the m overlay runs
 * following the same base run spread evenly inside the gap to the next number (order + k/(m+1), k = 1…m),
 * so they never sit on a base run and keep their own time order. Before the first base run: in (0, 1).
 */
export function placeOverlayOnRunAxis(
  base: readonly { order: number; time: number }[],
  overlayTimes: readonly number[],
): number[] {
  const followed = overlayTimes.map((time) => lastStartedBy(base, time)?.order ?? 0);
  const groupSize = new Map<number, number>();
  for (const order of followed) groupSize.set(order, (groupSize.get(order) ?? 0) + 1);
  const seen = new Map<number, number>();
  return followed.map((order) => {
    const k = (seen.get(order) ?? 0) + 1;
    seen.set(order, k);
    return order + k / ((groupSize.get(order) ?? 1) + 1);
  });
}

export type BandPosition = "above" | "within" | "below";

/** Where a value sits against a band; null when there is no band or no value to compare. */
export function positionInBand(value: number | null, band: NoiseBand | null): BandPosition | null {
  if (value === null || band === null) return null;
  if (value > band.highMs) return "above";
  if (value < band.lowMs) return "below";
  return "within";
}

/**
 * The base runs (indexes, oldest first) whose band a trend page shows or judges by: those drawn, and for
 * each overlay run the last base run that started at or before it.
 */
export function bandIndexesNeeded(
  base: readonly { order: number; time: number }[],
  drawnOrders: ReadonlySet<number>,
  overlayTimes: readonly number[],
): Set<number> {
  const needed = new Set<number>();
  base.forEach((run, index) => {
    if (drawnOrders.has(run.order)) needed.add(index);
  });
  for (const time of overlayTimes) {
    const index = base.findLastIndex((run) => run.time <= time);
    if (index !== -1) needed.add(index);
  }
  return needed;
}

/**
 * The band each overlay run is judged against: the one at the last base run that started at or before
 * it (the base branch as it stood when the overlay ran); null before the band is learnt.
 */
export function bandAtTimes(
  base: readonly { time: number; band: NoiseBand | null }[],
  times: readonly number[],
): (NoiseBand | null)[] {
  return times.map((time) => lastStartedBy(base, time)?.band ?? null);
}

/** The last base run (oldest first) that started at or before `time`: the one an overlay run follows. */
function lastStartedBy<R extends { time: number }>(base: readonly R[], time: number): R | undefined {
  let last: R | undefined;
  for (const run of base) {
    if (run.time > time) break;
    last = run;
  }
  return last;
}

const POSITION_WORDS: Record<BandPosition, string> = {
  above: "above",
  within: "within",
  below: "below",
};

/**
 * The caption: where the overlay's last runs (up to OVERLAY_CAPTION_RUNS, oldest first in `positions`)
 * sit against the base branch's band, in words: "The branch feature/x's last 3 runs are above main's
 * noise band." Mixed: "Of PR #12's last 3 runs, 2 are above main's noise band and 1 is within it."
 */
export function describeOverlayPosition(
  positions: readonly (BandPosition | null)[],
  names: { overlay: string; base: string },
  metric = "p95",
): string {
  const overlay = names.overlay;
  const band = `${names.base}'s ${metric} noise band`;
  if (positions.length === 0) return capitalize(`${overlay} has no runs in this series.`);
  const last = positions.slice(-OVERLAY_CAPTION_RUNS);
  const runs = last.length === 1 ? "last run" : `last ${last.length} runs`;
  const known = last.filter((position): position is BandPosition => position !== null);
  if (known.length === 0) {
    return `Not enough data: ${band} needs ${MIN_NOISE_HISTORY} of its runs before ${overlay}'s ${runs}.`;
  }
  const counts = (["above", "within", "below"] as const)
    .map((position) => ({ position, count: known.filter((candidate) => candidate === position).length }))
    .filter(({ count }) => count > 0);
  const unknown = last.length - known.length;
  if (counts.length === 1 && unknown === 0) {
    const only = counts[0]!.position;
    const verb = last.length === 1 ? "is" : "are";
    return capitalize(`${overlay}'s ${runs} ${verb} ${POSITION_WORDS[only]} ${band}.`);
  }
  const parts = counts.map(({ position, count }, index) => {
    const verb = count === 1 ? "is" : "are";
    return index === 0
      ? `${count} ${verb} ${POSITION_WORDS[position]} ${band}`
      : `${count} ${verb} ${POSITION_WORDS[position]} it`;
  });
  if (unknown > 0) parts.push(`${unknown} ${unknown === 1 ? "has" : "have"} no band to compare with`);
  return `Of ${overlay}'s ${runs}, ${joinWords(parts)}.`;
}

function joinWords(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A run of the overlay as the chart draws it: its own p95 key, so no base line runs through it. */
export type OverlayChartRun = RunPoint & { p95Ms: number | null };

/** A run of the overlay as the trend page's answer gives it: its point, its PR, and where it sits against the band. */
export type OverlayPoint = OverlayChartRun & {
  pullRequest: number | null;
  /** Against the base branch's band as it stood when the run started; null without a band. */
  position: BandPosition | null;
};

export type OverlaySeriesPoint<B> =
  | (B & { x: number; noiseBandMs: [number, number] | null; overlayP95Ms: null })
  | (RunPoint & { x: number; noiseBandMs: [number, number] | null; overlayP95Ms: number | null });

/**
 * One series for the latency chart: the base points with the band's [low, high] where it has one (an
 * area drawn behind), and the overlay's runs with their p95 under `overlayP95Ms` (a line of its own),
 * at their time or run-axis position, sorted by x. Base points without a band get null: the area has a
 * gap there (right after a change, where no band is learnt yet), never a bridge across it. An overlay run
 * between two base points that both have a band carries the band interpolated at its x, so the area runs
 * on under it. In time mode each line's rounds of one commit are spread over the commit's slot
 * (`xPositions`), over the span of both lines.
 */
export function toOverlaySeries<B extends PlaceablePoint>(
  base: readonly B[],
  band: readonly { order: number; lowMs: number; highMs: number }[],
  overlay: readonly OverlayChartRun[],
  mode: TrendXMode,
): OverlaySeriesPoint<B>[] {
  const bandAt = new Map(band.map((entry) => [entry.order, entry]));
  const span = timeSpan([...base, ...overlay]);
  const baseX = xPositions(base, mode, span);
  const overlayX = xPositions(overlay, mode, span);
  const basePoints = base.map((point, i): OverlaySeriesPoint<B> => {
    const entry = bandAt.get(point.order);
    return {
      ...point,
      x: baseX[i]!,
      noiseBandMs: entry ? [entry.lowMs, entry.highMs] : null,
      overlayP95Ms: null,
    };
  });
  const overlayPoints = overlay.map(({ p95Ms, ...run }, i): OverlaySeriesPoint<B> => ({
    ...run,
    x: overlayX[i]!,
    noiseBandMs: null,
    overlayP95Ms: p95Ms,
  }));
  const merged = [
    ...basePoints.map((point) => ({ point, isBase: true })),
    ...overlayPoints.map((point) => ({ point, isBase: false })),
  ].sort((a, b) => byX(a.point, b.point));
  return merged.map(({ point, isBase }, i) => {
    if (isBase) return point;
    // Between two base points that both have a band, the band at this x; else none (a gap in the area).
    const before = merged.slice(0, i).findLast((entry) => entry.isBase)?.point;
    const after = merged.slice(i + 1).find((entry) => entry.isBase)?.point;
    if (!before?.noiseBandMs || !after?.noiseBandMs) return point;
    const t = after.x === before.x ? 0 : (point.x - before.x) / (after.x - before.x);
    const [low, high] = [0, 1].map((k) => before.noiseBandMs![k]! + t * (after.noiseBandMs![k]! - before.noiseBandMs![k]!));
    return { ...point, noiseBandMs: [low!, high!] };
  });
}
