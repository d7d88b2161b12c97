/**
 * A suite of benchmarks tells the code from the machine (docs/statistics.md, "The machine's shift"). A
 * burst of other work on a shared runner slows a whole run, every benchmark by about the same factor; a
 * change of the code moves the benchmarks it touches. Before each benchmark is judged, every run's machine
 * shift is measured from the suite (machine-shift.ts) and taken out:
 *
 * - **one run against one** (`pairwise`): each benchmark's log change head/base; the head's shift is the
 *   largest group of benchmarks that moved together. A benchmark is then judged on its change beyond that
 *   shift, with the run-to-run noise τ the group shows beyond the repetitions added to its repetitions'
 *   standard error (repetitions.ts, compareRepetitions);
 * - **runs against runs** (`levels`: a baseline of several runs, or rounds): each benchmark's level is the
 *   median of the base runs; every run's shift is measured against those levels, and each value is divided
 *   by its run's factor before the runs are compared (metric-comparison.ts): the shifts the history showed
 *   no longer widen the baseline's spread, and a burst on the head run no longer reads as a slowdown. The
 *   base runs' shifts are the machine's **envelope**: what this series has shown it can do.
 *
 * Left out of every estimate: benchmarks whose exact count changed (exact-metrics.ts: those changed for
 * sure). After the family correction, `judgeAgainstMachine` says what one run against one cannot tell:
 * a benchmark that moved together with others, beyond the main group, is undecided (a burst on part of
 * the run does the same); and a whole run that moved beyond any shift the series has shown, and beyond what
 * a burst on a shared runner does, is a change, whatever the group says.
 */
import { formatDeltaPct, formatPct } from "../format";
import { twoSidedTPValue } from "../stats/t-distribution";
import type { EndpointResult } from "../run";
import { isBenchmark } from "../run";
import { METRICS } from "../metrics";
import type { CompareOptions, ComparableRun, EndpointComparison, MetricComparison } from "./comparison";
import { exactCountsOf } from "./exact-metrics";
import type { MachineShift, ShiftGroup, ShiftPoint } from "./machine-shift";
import { estimateMachineShift } from "./machine-shift";
import { abPairsOf } from "./comparison";

/** At least this many benchmarks in a run before its shift is measured. */
export const MIN_BENCHMARKS_FOR_SHIFT = 3;
/**
 * A benchmark's run-to-run noise beyond its repetitions (log sd), when the suite is too small to measure
 * it (fewer than MIN_FOR_TAU benchmarks moved together), and the least it is taken to be when measured:
 * repetitions within a run share its machine state, so two runs differ by more than their repetitions
 * say. Measured on real runs of this project's shared runners (docs/statistics.md).
 */
export const RUN_TO_RUN_NOISE_PRIOR = 0.05;
export const RUN_TO_RUN_NOISE_FLOOR = 0.02;
/** Degrees of freedom given to the prior noise (it is an estimate from other runs, not a known constant). */
export const PRIOR_DEGREES_OF_FREEDOM = 10;
/** Base runs needed before their shifts are read as the machine's envelope. */
export const MIN_ENVELOPE_RUNS = 5;
/**
 * How much a burst of other work can slow a whole run on a shared runner, whatever a series' own history
 * shows (the shared fixtures' machine: 20–50%; our evaluation runs: docs/benchmark-evaluation.md). A whole
 * run that moved by less may be the machine however calm the series has been: it is not failed on.
 */
export const SHARED_RUNNER_BURST = Math.log(1.5);
/**
 * How much a burst of other work during one benchmark alone can slow it: a neighbour taking one of a
 * 2-core runner's cores halves its share, all its repetitions with it (our quiet runs: unchanged benchmarks
 * +30–40% alone in 1 run of 10, up to +57%, with tight repetitions: docs/benchmark-evaluation.md). One head
 * run cannot tell such a burst from a change of that benchmark's code, whether against one base run or a
 * calm history, so a benchmark that moved alone by less is named, undecided, not failed on.
 */
export const SINGLE_BENCHMARK_BURST = Math.log(2);


/** A benchmark endpoint of the comparison: its display name and how to read it from a run. */
export interface SuiteBenchmark {
  name: string;
  pick: (run: ComparableRun) => EndpointResult | undefined;
}

export interface SuiteShifts {
  /**
   * pairwise: head against its one base run; levels: every run against the base's median levels; pairs:
   * an A/B job, each pair's head against its own base (ab-comparison.ts).
   */
  mode: "pairwise" | "levels" | "pairs";
  /** Each run's machine shift, on the log scale (the base run of a pairwise comparison: 0). */
  byRun: Map<string, number>;
  /** The head's shift, its groups and noise (one head run); null with several head runs. */
  head: MachineShift | null;
  /** The base runs' shifts (levels, ≥ MIN_ENVELOPE_RUNS runs): the shifts this series has shown. */
  envelope: { low: number; high: number; runs: number; shifts: number[] } | null;
  /** Benchmarks left out of the head's estimate: an exact count of theirs changed. */
  changedByCounts: Set<string>;
  /** How many benchmarks the shifts were measured on. */
  benchmarks: number;
  /** An A/B job's pairs: a benchmark's noise beyond its repetitions in one pair's ratio (the pairs' τ, pooled), and how many pairs gave it. */
  pairNoise: { tau: number; pairs: number; isMeasured: boolean } | null;
}

/** A run's mean time per operation of a benchmark, and the log sd of that mean from its repetitions. */
function meanOf(result: EndpointResult | undefined): { mean: number; within: number; df: number } | null {
  if (!result || !isBenchmark(result)) return null;
  const mean = result.latency.meanMs;
  if (mean === null || !(mean > 0)) return null;
  const n = result.requests;
  const sd = result.latency.stdDevMs;
  if (n === null || n < 2 || sd === null) return { mean, within: 0, df: Number.POSITIVE_INFINITY };
  const floored = Math.max(sd, 0.001 * mean);
  return { mean, within: floored / mean / Math.sqrt(n), df: n - 1 };
}

/** Benchmarks with an exact count that differs between the sides: changed for sure. */
function changedByCounts(benchmarks: readonly SuiteBenchmark[], baseRuns: readonly ComparableRun[], headRuns: readonly ComparableRun[]): Set<string> {
  const changed = new Set<string>();
  for (const benchmark of benchmarks) {
    const base = baseRuns.map(benchmark.pick);
    const head = headRuns.map(benchmark.pick);
    for (const spec of exactCountsOf(base, head)) {
      const value = (results: readonly (EndpointResult | undefined)[]) => results.find((result) => result !== undefined)?.metrics[spec.name.slice("metrics.".length)]?.value;
      if (value(base) !== value(head)) changed.add(benchmark.name);
    }
  }
  return changed;
}

const satterthwaite = (a: number, dfA: number, b: number, dfB: number) => {
  const numerator = (a + b) ** 2;
  const denominator = (a * a) / dfA + (b * b) / dfB;
  return denominator === 0 ? Number.POSITIVE_INFINITY : numerator / denominator;
};

/**
 * Every run's machine shift, when the comparison is of benchmarks (at least MIN_BENCHMARKS_FOR_SHIFT
 * measured on each run); null otherwise (load tests, or too small a suite).
 */
export function measureSuiteShifts(
  benchmarks: readonly SuiteBenchmark[],
  baseRuns: readonly ComparableRun[],
  headRuns: readonly ComparableRun[],
): SuiteShifts | null {
  if (benchmarks.length < MIN_BENCHMARKS_FOR_SHIFT || baseRuns.length === 0 || headRuns.length === 0) return null;
  const changed = changedByCounts(benchmarks, baseRuns, headRuns);
  const estimate = (points: ShiftPoint[]) =>
    points.length >= MIN_BENCHMARKS_FOR_SHIFT ? estimateMachineShift(points, { prior: RUN_TO_RUN_NOISE_PRIOR, floor: RUN_TO_RUN_NOISE_FLOOR }) : null;
  const pairs = abPairsOf(baseRuns, headRuns);
  if (pairs !== null) {
    // An A/B job: each pair's head against its own base, as one run against one.
    const byRun = new Map<string, number>();
    const taus: { tau: number; isMeasured: boolean }[] = [];
    for (const pair of pairs) {
      const shift = estimate(pairwisePoints(benchmarks, pair.base, pair.head, changed));
      if (!shift) continue;
      byRun.set(pair.base.id, 0);
      byRun.set(pair.head.id, shift.shift);
      taus.push({ tau: shift.tau, isMeasured: shift.tauFrom > 0 });
    }
    if (taus.length === 0) return null;
    const tau = Math.sqrt(taus.reduce((sum, entry) => sum + entry.tau ** 2, 0) / taus.length);
    const pairNoise = { tau, pairs: taus.length, isMeasured: taus.some((entry) => entry.isMeasured) };
    return { mode: "pairs", byRun, head: null, envelope: null, changedByCounts: changed, benchmarks: benchmarks.length, pairNoise };
  }
  if (baseRuns.length === 1 && headRuns.length === 1) {
    const [base] = baseRuns as [ComparableRun];
    const [head] = headRuns as [ComparableRun];
    const points = pairwisePoints(benchmarks, base, head, changed);
    const shift = estimate(points);
    if (shift === null) return null;
    return { mode: "pairwise", byRun: new Map([[base.id, 0], [head.id, shift.shift]]), head: shift, envelope: null, changedByCounts: changed, benchmarks: points.length, pairNoise: null };
  }
  // Levels: each benchmark's median log mean over the base runs.
  const levels = new Map<string, number>();
  for (const benchmark of benchmarks) {
    const logs = baseRuns.flatMap((run) => {
      const value = meanOf(benchmark.pick(run));
      return value ? [Math.log(value.mean)] : [];
    });
    if (logs.length > 0) levels.set(benchmark.name, medianOf(logs));
  }
  const shiftOf = (run: ComparableRun, leaveOut: ReadonlySet<string>) => {
    const points = benchmarks.flatMap((benchmark): ShiftPoint[] => {
      const level = levels.get(benchmark.name);
      const value = meanOf(benchmark.pick(run));
      if (level === undefined || !value || leaveOut.has(benchmark.name)) return [];
      return [{ key: benchmark.name, y: Math.log(value.mean) - level, within: value.within, df: value.df }];
    });
    return estimate(points);
  };
  const byRun = new Map<string, number>();
  const baseShifts: number[] = [];
  for (const run of baseRuns) {
    const shift = shiftOf(run, new Set());
    if (shift) {
      byRun.set(run.id, shift.shift);
      baseShifts.push(shift.shift);
    }
  }
  let head: MachineShift | null = null;
  for (const run of headRuns) {
    const shift = shiftOf(run, changed);
    if (shift) byRun.set(run.id, shift.shift);
    if (headRuns.length === 1) head = shift;
  }
  if (byRun.size === 0) return null;
  const envelope =
    baseShifts.length >= MIN_ENVELOPE_RUNS ? { low: Math.min(...baseShifts), high: Math.max(...baseShifts), runs: baseShifts.length, shifts: baseShifts } : null;
  return { mode: "levels", byRun, head, envelope, changedByCounts: changed, benchmarks: levels.size, pairNoise: null };
}

/** One run against one: each benchmark's log change head/base, and its sd from both runs' repetitions. */
function pairwisePoints(benchmarks: readonly SuiteBenchmark[], base: ComparableRun, head: ComparableRun, changed: ReadonlySet<string>): ShiftPoint[] {
  return benchmarks.flatMap((benchmark): ShiftPoint[] => {
    const b = meanOf(benchmark.pick(base));
    const h = meanOf(benchmark.pick(head));
    if (!b || !h || changed.has(benchmark.name)) return [];
    const within = Math.sqrt(b.within ** 2 + h.within ** 2);
    return [{ key: benchmark.name, y: Math.log(h.mean / b.mean), within, df: satterthwaite(b.within ** 2, b.df, h.within ** 2, h.df) }];
  });
}

function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** "+30.0%": a log shift as a percentage change. */
export const shiftPct = (shift: number) => formatDeltaPct(Math.expm1(shift) * 100);

/** The head's shift in words, for a benchmark's reason: "the machine's shift of +3.1% (6 of 7 benchmarks moved together; noise beyond their repetitions 4.2%)". */
export function describeHeadShift(suite: SuiteShifts): string {
  const head = suite.head;
  if (head === null) return `each run's machine shift (measured on ${suite.benchmarks} benchmarks) taken out`;
  const noise = head.tauFrom > 0 ? `their noise beyond the repetitions ${formatPct(head.tau, 1)}` : `noise beyond the repetitions taken as ${formatPct(head.tau, 1)} (too few to measure)`;
  return `the machine's shift of ${shiftPct(head.shift)} (${head.keys.length} of ${suite.benchmarks} benchmarks moved together; ${noise})`;
}

const isShiftJudged = (metric: MetricComparison) =>
  metric.gate && metric.metric === METRICS.mean.name && (metric.test === "repetitions" || metric.test === "prediction" || metric.test === "student" || metric.test === "welch");

/**
 * Whether a head run's whole shift is beyond what its machine has shown: a prediction test of the shift
 * against the base runs' shifts (prediction-interval t test, df = n − 1, one-sided at α), at least the
 * minimum effect above the highest of them. "beyond": beyond the series' envelope only; "far-beyond": also
 * beyond what a burst on a shared runner does (SHARED_RUNNER_BURST), by the minimum effect. Without an
 * envelope (one run against one), only the second can be said: "beyond-burst".
 */
function wholeRunExcess(suite: SuiteShifts, head: MachineShift, options: CompareOptions): "far-beyond" | "beyond" | "beyond-burst" | null {
  const minEffect = Math.log1p(options.minEffectPct / 100);
  const beyondBurst = head.shift >= SHARED_RUNNER_BURST + minEffect;
  const envelope = suite.envelope;
  if (envelope === null) return beyondBurst ? "beyond-burst" : null;
  const { shifts } = envelope;
  const mean = shifts.reduce((sum, value) => sum + value, 0) / shifts.length;
  const sd = Math.sqrt(shifts.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (shifts.length - 1));
  const spread = Math.max(sd, 0.001) * Math.sqrt(1 + 1 / shifts.length);
  const pValue = twoSidedTPValue((head.shift - mean) / spread, shifts.length - 1) / 2;
  if (!(head.shift > mean && pValue < options.alpha && head.shift - envelope.high >= minEffect)) return null;
  return beyondBurst ? "far-beyond" : "beyond";
}

/**
 * After the family correction, what one head run cannot tell apart from the machine (a burst of other work
 * slows what it covers by up to SINGLE_BENCHMARK_BURST):
 * - a benchmark judged regressed by less than that beyond the shift, alone or together with others beyond
 *   the main group, is undecided;
 * - a whole run that moved beyond its series' envelope (wholeRunExcess): the benchmarks that moved with it
 *   (worse, by at least the minimum effect) are regressed when it is also far beyond a shared runner's
 *   burst, else undecided ("more than this series has shown, as much as a burst does"); one run against
 *   one (no envelope) beyond a burst: undecided.
 * Every other verdict stands. (The caller sets each endpoint's verdict from its metrics again.)
 */
export function judgeAgainstMachine(endpoints: readonly EndpointComparison[], suite: SuiteShifts | null, options: CompareOptions): EndpointComparison[] {
  const head = suite?.head ?? null;
  if (suite === null || head === null) return [...endpoints];
  // Each benchmark's group (the first that holds it), and the main group's members, by name: a suite's thousands are looked up once each.
  const groups = new Map<string, ShiftGroup>();
  for (const group of head.alternatives) for (const key of group.keys) if (!groups.has(key)) groups.set(key, group);
  const groupOf = (name: string) => groups.get(name) ?? null;
  const movedTogether = new Set(head.keys);
  const envelope = suite.envelope;
  const excess = wholeRunExcess(suite, head, options);
  const seen = envelope ? `${shiftPct(envelope.low)} to ${shiftPct(envelope.high)} over its ${envelope.runs} base runs` : null;
  /** Why a benchmark that regressed by `beyond` past the shift is undecided: alone, or with its group. */
  const whyUndecided = (name: string, group: ShiftGroup | null, beyond: number) => {
    if (group === null) {
      const which =
        suite.mode === "pairwise"
          ? "one run against one cannot tell the two apart (an A/B job or rounds can)"
          : `one head run cannot tell the two apart, however calm its ${envelope ? envelope.runs : "few"} base runs were (an A/B job or rounds can)`;
      return `${shiftPct(beyond)} beyond the machine's shift and significant, but a burst of other work during this benchmark alone can slow it by up to ${shiftPct(SINGLE_BENCHMARK_BURST)}; ${which}`;
    }
    const others = group.keys.filter((key) => key !== name);
    const listed = others.slice(0, 3).join(", ") + (others.length > 3 ? `, and ${others.length - 3} more` : "");
    return `beyond the machine's shift, but together with ${listed} (${shiftPct(group.shift)} alike), ${shiftPct(beyond)} beyond the machine's shift: a burst of other work during part of the run slows what it covers by up to ${shiftPct(SINGLE_BENCHMARK_BURST)}, and one head run cannot tell the two apart (an A/B job or rounds can)`;
  };
  return endpoints.map((endpoint) => {
    const metrics = endpoint.metrics.map((metric): MetricComparison => {
      if (!isShiftJudged(metric) || metric.deltaPct === null || metric.better === null) return metric;
      const group = groupOf(endpoint.name);
      // One head run: a benchmark that regressed, alone or with others, by less than a burst could do.
      const beyond = Math.log1p(metric.deltaPct / 100) - head.shift;
      if (metric.verdict === "regressed" && beyond < SINGLE_BENCHMARK_BURST) {
        return { ...metric, verdict: "inconclusive", inconclusiveKind: "undecided", undecidedBy: "machine", reason: `undecided: ${formatDeltaPct(metric.deltaPct)}, ${whyUndecided(endpoint.name, group, beyond)}; ${metric.reason}` };
      }
      const movedWithRun = movedTogether.has(endpoint.name) && metric.verdict !== "regressed" && metric.deltaPct >= options.minEffectPct && metric.better === "lower";
      if (excess === null || !movedWithRun) return metric;
      const burst = `a burst of other work on a shared runner slows a whole run by up to ${shiftPct(SHARED_RUNNER_BURST)}`;
      if (excess === "far-beyond") {
        return {
          ...metric,
          verdict: "regressed",
          inconclusiveKind: null,
          isBeyondEnvelope: true,
          reason: `${formatDeltaPct(metric.deltaPct)} with the whole run (${shiftPct(head.shift)}), far beyond any shift this series has shown (${seen}), and more than ${burst}: not the machine`,
        };
      }
      const why =
        excess === "beyond"
          ? `more than any shift this series has shown (${seen}), but ${burst}`
          : `more than ${burst}, but one run against one cannot tell the machine from a change that slowed every benchmark alike`;
      return {
        ...metric,
        verdict: "inconclusive",
        inconclusiveKind: "undecided",
        undecidedBy: "machine",
        reason: `undecided: ${formatDeltaPct(metric.deltaPct)} with the whole run (${shiftPct(head.shift)}), ${why}; an A/B job (both sides in one CI job) tells them apart`,
      };
    });
    return { ...endpoint, metrics };
  });
}
