/**
 * Before/after comparison of two sets of runs (base and head), per endpoint and metric, with the
 * statistics of docs/statistics.md: groups of ≥ 2 runs per side get mean, sd, 95% CI, Δ% with a Fieller CI,
 * Welch's t-test (or Mann–Whitney) and the verdict rule; 1 vs 1 is judged against a noise band learnt
 * from the same series' recent history on the base branch, after its last change point.
 *
 * What a group value is, said plainly: a group's p95 is the MEAN OF PER-RUN p95s (n runs), not the p95
 * of all requests pooled. Where every run has a latency histogram, the pooled percentile is given
 * beside it.
 */
import type { Interval, SampleSummary } from "../stats/descriptive";
import { summarizeSample } from "../stats/descriptive";
import { isInsufficient } from "../stats/insufficient";
import { percentileUnsupportedReason } from "../stats/percentile-support";
import { holmAdjusted } from "../stats/multiple-testing";
import { formatDeltaPct, formatPValue } from "../format";
import { compareWithNoiseBand, historySinceLastChange } from "../stats/noise-band";
import { predictionTest } from "../stats/prediction-test";
import { readPooledPercentile } from "../stats/pooled-percentile";
import { percentChange } from "../stats/relative-change";
import type { SignificanceTest, Verdict } from "../stats/verdict";
import { compareSamples, decideVerdict, DEFAULT_VERDICT_OPTIONS } from "../stats/verdict";
import type { Better, CustomMetric, EndpointResult } from "../run";
import { AGGREGATE_NAME, endpointKey } from "../run";
import type { MetricDefinition } from "../metrics";
import { COMPARED_METRICS, customMetricKey, customMetricsOf } from "../metrics";
import type { EnvironmentDiff, RunSetup } from "./environment-diff";
import { diffEnvironments } from "./environment-diff";
import type { RoundsAdvice } from "./rounds-needed";
import { adviseRounds } from "./rounds-needed";

/** A run as a comparison reads it: its results, and how it was measured (RunSetup: tool, host, load…). */
export interface ComparableRun extends RunSetup {
  id: string;
  label: string | null;
  round: number | null;
  startedAt: string;
  /** The run's git branch, when known: a side spanning several is warned about. */
  branch?: string | null;
  durationSeconds: number | null;
  config: Record<string, string | number | boolean>;
  aggregate: EndpointResult;
  endpoints: EndpointResult[];
  /** Run-level custom metrics; compared on the aggregate. */
  metrics: Record<string, CustomMetric>;
}

export interface CompareOptions {
  minEffectPct: number;
  alpha: number;
  test: SignificanceTest;
  /**
   * For 1 vs 1: recent values of each (endpoint, metric) on the base branch, oldest first, used to
   * learn the noise band. Keyed by `historyKey(endpoint, metric)`.
   */
  history?: ReadonlyMap<string, readonly number[]>;
  /** The project's repository, to link the commits of "what changed" (environment-diff.ts). */
  repoUrl?: string | null;
}

export const DEFAULT_COMPARE_OPTIONS: CompareOptions = { ...DEFAULT_VERDICT_OPTIONS, test: "welch" };

export function historyKey(endpoint: string, metric: string): string {
  return `${endpoint}\u0000${metric}`;
}

export interface SideSummary {
  n: number;
  mean: number | null;
  sd: number | null;
  ci95: Interval | null;
  values: number[];
  runIds: string[];
}

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
  pValue: number | null;
  /** pValue corrected for all the tests of the comparison (Holm); null when no test was run. */
  adjustedPValue: number | null;
  /** "prediction": one run on one side judged against the other side's group (prediction-interval t test). */
  test: SignificanceTest | "noise-band" | "prediction" | null;
  /** For 1 vs 1: the band |Δ%| had to exceed. */
  noiseBandPct: number | null;
  verdict: Verdict;
  reason: string;
  /** Percentile of all requests pooled from histograms, when every run on both sides has one. */
  pooled: { baseMs: number; headMs: number; deltaPct: number | null } | null;
}

export interface EndpointComparison {
  name: string;
  metrics: MetricComparison[];
  /** The worst verdict of its metrics: regressed > improved > unchanged > inconclusive. */
  verdict: Verdict;
}

export interface Comparison {
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
  /** The tools of the runs, with how many runs of each on each side. */
  tools: { tool: string; base: number; head: number }[];
  /** groups: ≥ 2 vs ≥ 2; group-vs-run: ≥ 2 base runs vs 1 head run; pairwise: 1 vs 1. */
  kind: "groups" | "group-vs-run" | "pairwise" | "mixed";
}

const VERDICT_RANK: Record<Verdict, number> = { regressed: 3, improved: 2, unchanged: 1, inconclusive: 0 };

function worstVerdict(verdicts: readonly Verdict[]): Verdict {
  return verdicts.reduce<Verdict>((worst, verdict) => (VERDICT_RANK[verdict] > VERDICT_RANK[worst] ? verdict : worst), "inconclusive");
}

function summarizeSide(values: number[], runIds: string[]): SideSummary {
  const summary = summarizeSample(values);
  if (isInsufficient(summary)) {
    return { n: values.length, mean: values.length === 1 ? (values[0] ?? null) : null, sd: null, ci95: null, values, runIds };
  }
  const ok: SampleSummary = summary;
  return { n: ok.n, mean: ok.mean, sd: ok.sd, ci95: ok.ci95, values, runIds };
}

function collect(runs: readonly ComparableRun[], pick: (run: ComparableRun) => EndpointResult | undefined, spec: MetricDefinition) {
  const values: number[] = [];
  const runIds: string[] = [];
  for (const run of runs) {
    const result = pick(run);
    const value = result ? spec.read(result) : null;
    if (value !== null && Number.isFinite(value)) {
      values.push(value);
      runIds.push(run.id);
    }
  }
  return { values, runIds };
}

function aggregationLabel(spec: MetricDefinition, n: number): string {
  const runs = `${n} run${n === 1 ? "" : "s"}`;
  if (n === 1) return `${spec.name} of the run`;
  return `mean of per-run ${spec.name} (${runs})`;
}

function pooledPercentile(
  spec: MetricDefinition,
  base: readonly (EndpointResult | undefined)[],
  head: readonly (EndpointResult | undefined)[],
): MetricComparison["pooled"] {
  if (spec.percentile === null) return null;
  const histogramsOf = (results: readonly (EndpointResult | undefined)[]) =>
    results.every((result) => result?.histogram) ? results.map((result) => result!.histogram!) : null;
  const baseHistograms = histogramsOf(base);
  const headHistograms = histogramsOf(head);
  if (!baseHistograms?.length || !headHistograms?.length) return null;
  const basePooled = readPooledPercentile(baseHistograms, spec.percentile);
  const headPooled = readPooledPercentile(headHistograms, spec.percentile);
  if (isInsufficient(basePooled) || isInsufficient(headPooled)) return null;
  const change = percentChange(basePooled.valueMs, headPooled.valueMs);
  return {
    baseMs: basePooled.valueMs,
    headMs: headPooled.valueMs,
    deltaPct: isInsufficient(change) ? null : change.deltaPct,
  };
}

function compareMetric(
  endpointName: string,
  spec: MetricDefinition,
  baseRuns: readonly ComparableRun[],
  headRuns: readonly ComparableRun[],
  pick: (run: ComparableRun) => EndpointResult | undefined,
  options: CompareOptions,
): MetricComparison {
  const baseData = collect(baseRuns, pick, spec);
  const headData = collect(headRuns, pick, spec);
  const base = summarizeSide(baseData.values, baseData.runIds);
  const head = summarizeSide(headData.values, headData.runIds);
  const common = {
    metric: spec.name,
    unit: spec.unit,
    better: spec.better,
    aggregation: aggregationLabel(spec, Math.max(base.n, head.n)),
    base,
    head,
    pooled: pooledPercentile(spec, baseRuns.map(pick), headRuns.map(pick)),
    adjustedPValue: null,
  };
  const inconclusive = (reason: string): MetricComparison => ({
    ...common,
    deltaPct: null,
    deltaPctCi95: null,
    pValue: null,
    test: null,
    noiseBandPct: null,
    verdict: "inconclusive",
    reason,
  });

  if (base.n === 0 || head.n === 0) {
    return inconclusive(`no ${spec.name} on the ${base.n === 0 ? "base" : "head"} side`);
  }
  if (spec.percentile !== null) {
    const judged = new Set([...baseData.runIds, ...headData.runIds]);
    const counts = [...baseRuns, ...headRuns].filter((run) => judged.has(run.id)).map((run) => pick(run)?.requests ?? null);
    const unsupported = percentileUnsupportedReason(spec.percentile, counts);
    if (unsupported) return inconclusive(unsupported);
  }
  if (base.mean === 0 && head.mean === 0) {
    return { ...inconclusive("0 on both sides"), deltaPct: 0, verdict: "unchanged" };
  }
  if (spec.better === null) {
    // Shown with its change, never judged: nobody said whether up or down is the improvement.
    const change = base.mean !== null && head.mean !== null ? percentChange(base.mean, head.mean) : null;
    return {
      ...inconclusive("direction unknown: the tool did not say whether lower or higher is better, so no verdict"),
      deltaPct: change === null || isInsufficient(change) ? null : change.deltaPct,
    };
  }
  if (base.n >= 2 && head.n >= 2) {
    const result = compareSamples(base.values, head.values, {
      better: spec.better,
      minEffectPct: options.minEffectPct,
      alpha: options.alpha,
      test: options.test,
    });
    return {
      ...common,
      deltaPct: result.deltaPct,
      deltaPctCi95: result.deltaPctCi95,
      pValue: result.pValue,
      test: result.test,
      noiseBandPct: null,
      verdict: result.verdict,
      reason: result.reason,
    };
  }
  if (base.n === 1 && head.n === 1) {
    const history = historySinceLastChange(options.history?.get(historyKey(endpointName, spec.name)) ?? []);
    const result = compareWithNoiseBand(base.values[0]!, head.values[0]!, history, {
      better: spec.better,
      minEffectPct: options.minEffectPct,
    });
    return {
      ...common,
      deltaPct: result.deltaPct,
      deltaPctCi95: null,
      pValue: null,
      test: "noise-band",
      noiseBandPct: result.noiseBandPct,
      verdict: result.verdict,
      reason: `1 vs 1, judged against the noise band of recent history: ${result.reason}`,
    };
  }
  if (base.n >= 2 && head.n === 1) {
    // A new run against a group of earlier ones: is it within what the group would produce?
    const value = head.values[0]!;
    const result = predictionTest(base.values, value);
    const change = percentChange(base.mean!, value);
    if (isInsufficient(change)) return inconclusive("relative change undefined: the base mean is 0");
    if (isInsufficient(result)) return inconclusive(result.reason);
    const decision = decideVerdict({ better: spec.better, deltaPct: change.deltaPct, pValue: result.pValue }, options);
    return {
      ...common,
      deltaPct: change.deltaPct,
      deltaPctCi95: null,
      pValue: result.pValue,
      test: "prediction",
      noiseBandPct: null,
      verdict: decision.verdict,
      reason: `one head run against ${base.n} base runs (prediction-interval t test): ${decision.reason}`,
    };
  }
  return inconclusive(`need 2 or more runs on each side, a group against one run, or 1 vs 1; have ${base.n} vs ${head.n}`);
}

function compareEndpoint(
  name: string,
  baseRuns: readonly ComparableRun[],
  headRuns: readonly ComparableRun[],
  pick: (run: ComparableRun) => EndpointResult | undefined,
  extraSpecs: readonly MetricDefinition[],
  options: CompareOptions,
): EndpointComparison {
  const metrics = [...COMPARED_METRICS, ...extraSpecs].map((spec) =>
    compareMetric(name, spec, baseRuns, headRuns, pick, options),
  );
  // A custom metric absent on both sides is noise in the table: drop it.
  const present = metrics.filter((metric) => metric.base.n > 0 || metric.head.n > 0 || customMetricKey(metric.metric) === null);
  return { name, metrics: present, verdict: worstVerdict(present.map((metric) => metric.verdict)) };
}

/** The runs' aggregate with run-level custom metrics attached, so they compare on the aggregate. */
function aggregateWithRunMetrics(run: ComparableRun): EndpointResult {
  return { ...run.aggregate, metrics: { ...run.aggregate.metrics, ...run.metrics } };
}

export function compareRuns(
  baseRuns: readonly ComparableRun[],
  headRuns: readonly ComparableRun[],
  options: CompareOptions = DEFAULT_COMPARE_OPTIONS,
): Comparison {
  const allRuns = [...baseRuns, ...headRuns];
  // An endpoint is its name and protocol (run.ts:EndpointIdentity); a name two protocols share is shown
  // with its protocol, "GetListing (grpc)".
  const identities = new Map(
    allRuns.flatMap((run) => run.endpoints.map((endpoint) => [endpointKey(endpoint), endpoint] as const)),
  );
  const names = [...identities.values()].map((endpoint) => endpoint.name);
  const isShared = (name: string) => names.indexOf(name) !== names.lastIndexOf(name);
  const endpoints = [...identities.entries()].map(([key, identity]) => {
    const pick = (run: ComparableRun) => run.endpoints.find((endpoint) => endpointKey(endpoint) === key);
    const specs = customMetricsOf(allRuns.flatMap((run) => (pick(run) ? [pick(run)!.metrics] : [])));
    const name = isShared(identity.name) ? `${identity.name} (${identity.protocol ?? "no protocol"})` : identity.name;
    return compareEndpoint(name, baseRuns, headRuns, pick, specs, options);
  });
  const aggregateSpecs = customMetricsOf(allRuns.map((run) => aggregateWithRunMetrics(run).metrics));
  const aggregate = compareEndpoint(AGGREGATE_NAME, baseRuns, headRuns, aggregateWithRunMetrics, aggregateSpecs, options);

  const corrected = correctForMultipleTests([...endpoints, aggregate], options.alpha);
  const endpointsJudged = corrected.slice(0, -1);
  const aggregateJudged = corrected.at(-1)!;
  const allMetrics = corrected.flatMap((endpoint) => endpoint.metrics);
  const counts: Record<Verdict, number> = { regressed: 0, improved: 0, unchanged: 0, inconclusive: 0 };
  for (const endpoint of endpointsJudged.length > 0 ? endpointsJudged : [aggregateJudged]) counts[endpoint.verdict]++;
  const kind =
    baseRuns.length >= 2 && headRuns.length >= 2
      ? "groups"
      : baseRuns.length >= 2 && headRuns.length === 1
        ? "group-vs-run"
        : baseRuns.length === 1 && headRuns.length === 1
          ? "pairwise"
          : "mixed";
  const tools = toolsOf(baseRuns, headRuns);
  const environment = diffEnvironments(baseRuns, headRuns, { repoUrl: options.repoUrl ?? null });
  const judged: Comparison = {
    verdict: worstVerdict(allMetrics.map((metric) => metric.verdict)),
    counts,
    endpoints: endpointsJudged,
    aggregate: aggregateJudged,
    warnings: [...environment.unfair, ...comparabilityWarnings(baseRuns, headRuns)],
    environment,
    rounds: null,
    notComparable: null,
    tools,
    kind,
  };
  const final = tools.length > 1 ? notComparable(judged, tools) : judged;
  return { ...final, rounds: adviseRounds(final, options) };
}

function toolsOf(baseRuns: readonly ComparableRun[], headRuns: readonly ComparableRun[]): Comparison["tools"] {
  const names = [...new Set([...baseRuns, ...headRuns].map((run) => run.tool))].sort();
  const count = (runs: readonly ComparableRun[], tool: string) => runs.filter((run) => run.tool === tool).length;
  return names.map((tool) => ({ tool, base: count(baseRuns, tool), head: count(headRuns, tool) }));
}

/**
 * Runs of several tools are several series: a Locust p95 and a k6 p95 of "the same" endpoint measure
 * different clients, so one pooled verdict over them would be made up. The numbers stay (they are
 * the runs'), every verdict becomes inconclusive, and the reason says what to compare instead.
 */
function notComparable(comparison: Comparison, tools: Comparison["tools"]): Comparison {
  const sides = (side: "base" | "head") =>
    tools.filter((entry) => entry[side] > 0).map((entry) => `${entry[side]} ${entry.tool}`).join(" + ") || "none";
  const reason = `not comparable: the runs come from ${tools.length} tools (base: ${sides("base")}; head: ${sides("head")}); compare one tool at a time`;
  const inconclusive = (endpoint: EndpointComparison): EndpointComparison => ({
    ...endpoint,
    verdict: "inconclusive",
    metrics: endpoint.metrics.map((metric) => ({
      ...metric,
      verdict: "inconclusive",
      reason,
      pValue: null,
      adjustedPValue: null,
      deltaPctCi95: null,
      test: null,
      noiseBandPct: null,
    })),
  });
  const endpoints = comparison.endpoints.map(inconclusive);
  return {
    ...comparison,
    verdict: "inconclusive",
    counts: { regressed: 0, improved: 0, unchanged: 0, inconclusive: Math.max(endpoints.length, 1) },
    endpoints,
    aggregate: inconclusive(comparison.aggregate),
    notComparable: reason,
  };
}

/**
 * One comparison runs a test per endpoint × metric; a change counts only when it stays significant
 * once corrected for all of them (Holm, see ../stats/multiple-testing.ts), so an unchanged head is
 * called "regressed" anywhere with probability at most α. Each tested metric gets its adjusted p.
 */
function correctForMultipleTests(endpoints: readonly EndpointComparison[], alpha: number): EndpointComparison[] {
  const tested = endpoints.flatMap((endpoint) => endpoint.metrics.filter((metric) => metric.pValue !== null));
  const adjustedValues = holmAdjusted(tested.map((metric) => metric.pValue!));
  const adjusted = new Map(tested.map((metric, index) => [metric, adjustedValues[index]!]));
  const tests = tested.length;
  return endpoints.map((endpoint) => {
    const metrics = endpoint.metrics.map((metric): MetricComparison => {
      const adjustedPValue = adjusted.get(metric) ?? null;
      const changed = metric.verdict === "regressed" || metric.verdict === "improved";
      if (!changed || adjustedPValue === null || adjustedPValue < alpha) return { ...metric, adjustedPValue };
      return {
        ...metric,
        adjustedPValue,
        verdict: "unchanged",
        reason: `${formatDeltaPct(metric.deltaPct)} is not significant once corrected for the ${tests} tests of this comparison (Holm-adjusted ${formatPValue(adjustedPValue)} ≥ ${alpha})`,
      };
    });
    return { ...endpoint, metrics, verdict: worstVerdict(metrics.map((metric) => metric.verdict)) };
  });
}


/**
 * Differences that make base and head not like for like, beyond the environment (tool, protocol, load
 * profile and host size are environment-diff.ts's): durations, endpoints on one side only, a side across
 * branches, a run on both sides.
 */
export function comparabilityWarnings(baseRuns: readonly ComparableRun[], headRuns: readonly ComparableRun[]): string[] {
  const warnings: string[] = [];
  const meanDuration = (runs: readonly ComparableRun[]) => {
    const durations = runs.flatMap((run) => (run.durationSeconds === null ? [] : [run.durationSeconds]));
    return durations.length ? durations.reduce((sum, value) => sum + value, 0) / durations.length : null;
  };
  const baseDuration = meanDuration(baseRuns);
  const headDuration = meanDuration(headRuns);
  if (baseDuration && headDuration && Math.abs(headDuration - baseDuration) / baseDuration > 0.2) {
    warnings.push(`Different durations: base ${baseDuration.toFixed(1)} s vs head ${headDuration.toFixed(1)} s on average.`);
  }
  const namesOf = (runs: readonly ComparableRun[]) => new Set(runs.flatMap((run) => run.endpoints.map((endpoint) => endpoint.name)));
  const baseNames = namesOf(baseRuns);
  const headNames = namesOf(headRuns);
  const onlyBase = [...baseNames].filter((name) => !headNames.has(name));
  const onlyHead = [...headNames].filter((name) => !baseNames.has(name));
  if (onlyBase.length) warnings.push(`Endpoints only in base: ${onlyBase.join(", ")}.`);
  if (onlyHead.length) warnings.push(`Endpoints only in head: ${onlyHead.join(", ")}.`);
  for (const [side, runs] of [["base", baseRuns], ["head", headRuns]] as const) {
    const counts = new Map<string, number>();
    for (const run of runs) if (run.branch) counts.set(run.branch, (counts.get(run.branch) ?? 0) + 1);
    if (counts.size > 1) {
      const listed = [...counts].map(([branch, count]) => `${branch} ×${count}`).join(", ");
      warnings.push(`The ${side} spans ${counts.size} branches (${listed}): its runs may differ by more than the change.`);
    }
  }
  const shared = baseRuns.filter((run) => headRuns.some((other) => other.id === run.id));
  if (shared.length) warnings.push(`The same run is on both sides: ${shared.map((run) => run.id).join(", ")}.`);
  return warnings;
}
