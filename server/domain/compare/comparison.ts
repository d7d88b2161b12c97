/**
 * What a comparison of two sets of runs is made of (the types every layer shares), and its fixed rules:
 * how many runs a test needs. The comparison itself is compare-runs.ts; one metric's comparison is
 * metric-comparison.ts; the families of tests are families.ts; a series' earlier values, keyed as a
 * comparison reads them, are series-history.ts.
 */
import type { Interval } from "../stats/descriptive";
import type { SignificanceTest, Verdict } from "../stats/verdict";
import { DEFAULT_VERDICT_OPTIONS, SIGNIFICANCE_TESTS } from "../stats/verdict";
import type { Better, CustomMetric, EndpointResult } from "../run";
import type { EnvironmentDiff, RunSetup } from "./environment-diff";
import type { RoundsToDetect } from "../stats/sample-size";
import { AUTO_GATE_METRIC } from "./gate-metric";
import type { SeriesValues } from "./series-history";

/** A run as a comparison reads it: its results, and how it was measured (RunSetup: tool, host, load…). */
export interface ComparableRun extends RunSetup {
  id: string;
  label: string | null;
  round: number | null;
  startedAt: string;
  /** The format its upload was read as: it says in which steps the tool wrote its numbers (parsers/resolution.ts). */
  format: string;
  /** The run's git branch, when known: a side spanning several is warned about. */
  branch?: string | null;
  durationSeconds: number | null;
  config: Record<string, string | number | boolean>;
  aggregate: EndpointResult;
  endpoints: EndpointResult[];
  /** Run-level custom metrics; compared on the aggregate. */
  metrics: Record<string, CustomMetric>;
  /**
   * Its pair in a same-job A/B job (docs/ci.md, "A/B jobs"): when every run of both sides has one and
   * each pair holds one base and one head run, the gate metrics are compared pair by pair (ab-comparison.ts).
   */
  abPair?: number | null;
}

export interface CompareOptions {
  minEffectPct: number;
  /** The family-wise level of the gate metrics' one-sided tests (and, apart, of the other metrics'). */
  alpha: number;
  test: SignificanceTest;
  /** Each endpoint's gate metric: "auto" (default) or a metric name (gate-metric.ts). */
  gateMetric?: string;
  /**
   * Earlier values of each (endpoint, metric) of the base's series, oldest first, keyed by
   * `historyKey(endpoint, metric)`: 1 vs 1 learns its noise band from them, and a group whose values
   * are (nearly) all equal borrows their longer-run noise as a floor (stats/shift-test.ts).
   */
  history?: SeriesValues;
  /** The project's repository, to link the commits of "what changed" (environment-diff.ts). */
  repoUrl?: string | null;
  /**
   * "gate": compare each endpoint's gate metric only (the gate's decision reads nothing else; the two
   * families are corrected apart, so its p-values and verdicts are the same as in a full comparison).
   * Default "all": every metric, as pages show.
   */
  metrics?: "all" | "gate";
}

export const DEFAULT_COMPARE_OPTIONS: CompareOptions = { ...DEFAULT_VERDICT_OPTIONS, test: "welch", gateMetric: AUTO_GATE_METRIC };

/**
 * A test needs noise to compare against, and its degrees of freedom come from the runs: at least
 * MIN_BASE_RUNS on the base side and MIN_RUNS_IN_ALL in all (df ≥ 4: 5 earlier runs against one, or 3
 * rounds against 3). With fewer the t critical value explodes (t(0.99, 2) = 6.96) and "unchanged" would
 * only mean "could not tell": the metric is inconclusive instead, saying how many more would decide.
 * 1 vs 1 is judged against the series' noise band instead (stats/noise-band.ts).
 */
export const MIN_BASE_RUNS = 2;
export const MIN_RUNS_IN_ALL = 6;
/** The power "detectable" is stated at. */
export const DETECTABLE_POWER = 0.8;

/**
 * Every test a metric's comparison may name, one list for the domain, the wire schemas and the docs:
 * "prediction" (one run against the other side's group), the group tests (SIGNIFICANCE_TESTS), "noise-band"
 * (1 vs 1), "repetitions", "exact" and "ab-pairs" (documented on `MetricComparison.test`).
 */
export const COMPARISON_TESTS = ["prediction", ...SIGNIFICANCE_TESTS, "noise-band", "repetitions", "exact", "ab-pairs"] as const;
export type ComparisonTest = (typeof COMPARISON_TESTS)[number];

export interface SideSummary {
  n: number;
  mean: number | null;
  sd: number | null;
  ci95: Interval | null;
  values: number[];
  runIds: string[];
}

/** Why a metric could not be judged, in one word (the gate's `inconclusive.kind`). */
export type InconclusiveKind = "too-little-history" | "undecided" | "too-few-requests" | "not-comparable" | "no-data";

export interface MetricComparison {
  metric: string;
  unit: string | null;
  /** null: a custom metric whose direction nobody stated; compared, never judged. */
  better: Better | null;
  /** How a side's value is formed, e.g. "mean of per-run p95 (5 runs)". */
  aggregation: string;
  base: SideSummary;
  head: SideSummary;
  deltaPct: number | null;
  deltaPctCi95: Interval | null;
  /** One-sided, in the direction of the change (see stats/shift-test.ts); null when no test was run. */
  pValue: number | null;
  /** pValue corrected for its family (Holm): the gate metrics of the endpoints, or the other metrics. */
  adjustedPValue: number | null;
  /** "prediction": one run on one side judged against the other side's group (prediction-interval t test). */
  /** "repetitions": one benchmark run against one, judged on each run's repetitions (repetitions.ts). */
  /** "exact": an exact count (allocations, instructions) compared as such (exact-metrics.ts). */
  /** "ab-pairs": an A/B job's gate metric, judged pair by pair with a sequential test (ab-comparison.ts). */
  test: ComparisonTest | null;
  /** For 1 vs 1: the band |Δ%| had to exceed. */
  noiseBandPct: number | null;
  verdict: Verdict;
  reason: string;
  /** Why it is inconclusive, in one word; null otherwise. */
  inconclusiveKind: InconclusiveKind | null;
  /**
   * What left a likely slowdown undecided: "correction", significant alone, not once corrected for its
   * family (families.ts); "machine", it moved together with other benchmarks of one head run, as a burst
   * on part of the run would (benchmark-suite.ts). Absent otherwise.
   */
  undecidedBy?: "correction" | "machine" | "pairs";
  /** Regressed because its whole head run moved far beyond any shift its series has shown (benchmark-suite.ts). */
  isBeyondEnvelope?: boolean;
  /** This is its endpoint's gate metric: the CI gate decides on it (gate-metric.ts). */
  gate: boolean;
  /** The step the tool wrote it in (ms for latency), when it is not exact. */
  resolution: number | null;
  /** Of head − base, after the floors of stats/shift-test.ts (t tests only). */
  standardError: number | null;
  degreesOfFreedom: number | null;
  /**
   * For a tested gate metric: the smallest change (in % of the base) its test would flag 80% of the time
   * at this noise, α and family size; at least the minimum effect. null otherwise.
   */
  detectablePct: number | null;
  /** Percentile of all requests pooled from histograms, when every run on both sides has one. */
  pooled: { baseMs: number; headMs: number; deltaPct: number | null } | null;
}

export interface EndpointComparison {
  name: string;
  /**
   * Its protocol, part of its identity ("benchmark" for a microbenchmark: pages word it by its kind,
   * ../result-kind.ts); the aggregate's is the runs' aggregate protocol when they all share one.
   */
  protocol: string | null;
  metrics: MetricComparison[];
  /** Its gate metric's verdict; without one, the worst verdict of its metrics. */
  verdict: Verdict;
  /** Its gate metric and why that one ("p95 (auto: every run has ≥ 200 requests)"); null when it has none (the aggregate of runs with endpoints). */
  gateMetric: { name: string; why: string } | null;
}

export interface Comparison {
  /** The worst verdict of the gate metrics (regressed > improved > unchanged); inconclusive when none could be judged, or one is undecided and none regressed. */
  verdict: Verdict;
  counts: Record<Verdict, number>;
  endpoints: EndpointComparison[];
  aggregate: EndpointComparison;
  /**
   * Differences that make base and head not like for like: the unfair environment differences first
   * (environment.unfair), then the rest (durations, endpoints on one side only, branches, a shared run).
   */
  warnings: string[];
  /** What changed between the sides besides the code: tool, load profile, host, versions, commits. */
  environment: EnvironmentDiff;
  /** On a group comparison that found no change it can stand behind: how many rounds would (rounds-needed.ts). */
  rounds: RoundsAdvice | null;
  /**
   * Why the two sides cannot be compared at all (runs of several tools: different series, see
   * docs/statistics.md); then every metric is inconclusive and `tools` lists what to compare instead.
   * null when they can.
   */
  notComparable: string | null;
  /**
   * A suite of benchmarks, one head run: how much the whole head run moved (the machine's shift, taken out
   * before each benchmark is judged: benchmark-suite.ts), how many benchmarks moved together, their noise
   * beyond the repetitions, and other groups that moved together. null otherwise.
   */
  machineShift: {
    shiftPct: number;
    benchmarks: number;
    movedTogether: number;
    noisePct: number;
    isNoiseMeasured: boolean;
    otherGroups: { shiftPct: number; benchmarks: string[] }[];
  } | null;
  /** The tools of the runs, with how many runs of each on each side. */
  tools: { tool: string; base: number; head: number }[];
  /** groups: ≥ 2 vs ≥ 2; group-vs-run: ≥ 2 base runs vs 1 head run; pairwise: 1 vs 1. */
  kind: "groups" | "group-vs-run" | "pairwise" | "mixed";
}

/** A job's runs in complete pairs, in pair order; null when the runs are not one A/B job's (every run paired, one base and one head a pair). */
export function abPairsOf(baseRuns: readonly ComparableRun[], headRuns: readonly ComparableRun[]): { base: ComparableRun; head: ComparableRun }[] | null {
  if (baseRuns.length === 0 || headRuns.length === 0) return null;
  if ([...baseRuns, ...headRuns].some((run) => run.abPair === undefined || run.abPair === null)) return null;
  const byPair = new Map<number, { base?: ComparableRun; head?: ComparableRun }>();
  for (const [side, runs] of [["base", baseRuns], ["head", headRuns]] as const) {
    for (const run of runs) {
      const pair = byPair.get(run.abPair!) ?? {};
      if (pair[side]) return null;
      pair[side] = run;
      byPair.set(run.abPair!, pair);
    }
  }
  const complete = [...byPair.entries()]
    .filter(([, pair]) => pair.base && pair.head)
    .sort(([a], [b]) => a - b)
    .map(([, pair]) => ({ base: pair.base!, head: pair.head! }));
  return complete.length === 0 ? null : complete;
}

const VERDICT_RANK: Record<Verdict, number> = { regressed: 3, improved: 2, unchanged: 1, inconclusive: 0 };

/** The worst of some verdicts: regressed > improved > unchanged > inconclusive. */
export function worstVerdict(verdicts: readonly Verdict[]): Verdict {
  return verdicts.reduce<Verdict>((worst, verdict) => (VERDICT_RANK[verdict] > VERDICT_RANK[worst] ? verdict : worst), "inconclusive");
}

export interface MetricRounds {
  endpoint: string;
  metric: string;
  /** Round-to-round noise of each side: the sd of its values over their mean, in percent; null when unknown. */
  baseNoisePct: number | null;
  headNoisePct: number | null;
  /** Rounds of each side this comparison has for the metric. */
  have: { base: number; head: number };
  estimate: RoundsToDetect;
}

export interface RoundsAdvice {
  minEffectPct: number;
  alpha: number;
  power: number;
  test: SignificanceTest;
  /** The metric the sentence is about: the aggregate's p95 when undecided, else the one needing the most rounds. */
  headline: MetricRounds;
  /** Every undecided metric, the most rounds first ("more than 50" first, "cannot tell" last). */
  metrics: MetricRounds[];
  /** The headline in words, as the compare page and the Markdown say it (describeMetricRounds). */
  sentence: string;
}
