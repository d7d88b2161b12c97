/**
 * Before/after comparison of two sets of runs (base and head), per endpoint and metric, with the
 * statistics of docs/statistics.md: each metric compared by metric-comparison.ts (groups: a one-sided
 * test with resolution and noise floors; 1 vs 1: the noise band of the series' history), each endpoint
 * judged on its gate metric (gate-metric.ts), the tests corrected in two families (families.ts), and
 * what makes the sides unlike (environment-diff.ts, comparabilityWarnings).
 */
import type { Verdict } from "../stats/verdict";
import type { EndpointResult } from "../run";
import { AGGREGATE_NAME, endpointKey } from "../run";
import type { MetricDefinition } from "../metrics";
import { COMPARED_METRICS, customMetricKey, customMetricsOf } from "../metrics";
import { diffEnvironments } from "./environment-diff";
import { adviseRounds } from "./rounds-needed";
import { AUTO_GATE_METRIC, chooseGateMetric } from "./gate-metric";
import type { ComparableRun, Comparison, CompareOptions, EndpointComparison } from "./comparison";
import { DEFAULT_COMPARE_OPTIONS, worstVerdict } from "./comparison";
import { aggregateWithRunMetrics } from "./series-history";
import type { SuiteShifts } from "./benchmark-suite";
import { judgeAgainstMachine, measureSuiteShifts, shiftPct } from "./benchmark-suite";
import { isBenchmark } from "../run";
import { correctForMultipleTests, endpointVerdict } from "./families";
import { compareMetric } from "./metric-comparison";
import type { MetricContext } from "./metric-comparison";
import { gateMetricsOf } from "./gate-summary";
import { exactCountsOf } from "./exact-metrics";

export type { ComparableRun, Comparison, CompareOptions, EndpointComparison, InconclusiveKind, MetricComparison, SideSummary } from "./comparison";
export { DEFAULT_COMPARE_OPTIONS, MIN_BASE_RUNS, MIN_RUNS_IN_ALL } from "./comparison";
export type { SeriesRegimeStart, SeriesValues } from "./series-history";
export { historyKey, lazyTrendValues, trendValues, trendValuesSinceChanges } from "./series-history";
export { detectableChangePct, runsNeededReason } from "./metric-comparison";

function compareEndpoint(
  name: string,
  protocol: string | null,
  baseRuns: readonly ComparableRun[],
  headRuns: readonly ComparableRun[],
  pick: (run: ComparableRun) => EndpointResult | undefined,
  extraSpecs: readonly MetricDefinition[],
  options: CompareOptions,
  isGated: boolean,
  context: MetricContext,
): EndpointComparison {
  const gateMetric = isGated ? chooseGateMetric(options.gateMetric ?? AUTO_GATE_METRIC, [...baseRuns, ...headRuns].map(pick)) : null;
  const specs = options.metrics === "gate" ? [] : [...COMPARED_METRICS, ...extraSpecs];
  if (gateMetric && !specs.some((spec) => spec.name === gateMetric.metric.name)) specs.push(gateMetric.metric);
  // Exact counts decide beside the gate metric (exact-metrics.ts): the gate reads them too.
  if (isGated && options.metrics === "gate") {
    const exact = exactCountsOf(baseRuns.map(pick), headRuns.map(pick)).filter((spec) => !specs.some((known) => known.name === spec.name));
    specs.push(...exact);
  }
  const metrics = specs.map((spec) => compareMetric(name, spec, baseRuns, headRuns, pick, options, spec.name === gateMetric?.metric.name, context));
  // A custom metric absent on both sides is noise in the table: drop it.
  const present = metrics.filter((metric) => metric.gate || metric.base.n > 0 || metric.head.n > 0 || customMetricKey(metric.metric) === null);
  return {
    name,
    protocol,
    metrics: present,
    verdict: endpointVerdict(present),
    gateMetric: gateMetric ? { name: gateMetric.metric.name, why: gateMetric.why } : null,
  };
}

/**
 * A run's endpoints by identity (run.ts:endpointKey), the first of a key where a file repeats one; made
 * once per run object (the gate's history runs are kept in memory between uploads: runs/run-numbers.ts).
 */
function endpointIndexOf(run: ComparableRun): ReadonlyMap<string, EndpointResult> {
  const known = endpointIndexes.get(run);
  if (known) return known;
  const index = new Map<string, EndpointResult>();
  for (const endpoint of run.endpoints) {
    const key = endpointKey(endpoint);
    if (!index.has(key)) index.set(key, endpoint);
  }
  endpointIndexes.set(run, index);
  return index;
}
const endpointIndexes = new WeakMap<ComparableRun, ReadonlyMap<string, EndpointResult>>();

export function compareRuns(
  baseRuns: readonly ComparableRun[],
  headRuns: readonly ComparableRun[],
  options: CompareOptions = DEFAULT_COMPARE_OPTIONS,
): Comparison {
  const allRuns = [...baseRuns, ...headRuns];
  const onlyGate = options.metrics === "gate";
  // An endpoint is its name and protocol (run.ts:EndpointIdentity); a name two protocols share is shown
  // with its protocol, "GetListing (grpc)".
  const identities = new Map<string, EndpointResult>();
  for (const run of allRuns) for (const [key, endpoint] of endpointIndexOf(run)) if (!identities.has(key)) identities.set(key, endpoint);
  const nameCounts = new Map<string, number>();
  for (const endpoint of identities.values()) nameCounts.set(endpoint.name, (nameCounts.get(endpoint.name) ?? 0) + 1);
  const isShared = (name: string) => (nameCounts.get(name) ?? 0) > 1;
  // The gate judges each endpoint both sides measured; the aggregate only when there is none (it repeats
  // them otherwise). An endpoint on one side only is shown, and warned about, not judged.
  // Each run's endpoints by identity (made once per run object: endpointIndexOf).
  const byKey = allRuns.map(endpointIndexOf);
  // Each endpoint's result in each run, looked up once: a comparison picks them per metric and per step.
  const runIndex = new Map(allRuns.map((run, index) => [run, index]));
  const entries = [...identities.entries()].map(([key, identity]) => {
    const results = byKey.map((index) => index.get(key));
    return {
      identity,
      pick: (run: ComparableRun) => results[runIndex.get(run)!],
      isOnBothSides: results.slice(0, baseRuns.length).some((result) => result !== undefined) && results.slice(baseRuns.length).some((result) => result !== undefined),
      name: isShared(identity.name) ? `${identity.name} (${identity.protocol ?? "no protocol"})` : identity.name,
    };
  });
  // A suite of benchmarks measures each run's machine shift, taken out before each is judged (benchmark-suite.ts).
  const suite = measureSuiteShifts(
    entries.filter(({ identity, isOnBothSides }) => isBenchmark(identity) && isOnBothSides).map(({ name, pick }) => ({ name, pick })),
    baseRuns,
    headRuns,
  );
  // An A/B job divides α among its gate metrics: one per endpoint both sides measured, else the aggregate.
  const gated = entries.filter(({ isOnBothSides }) => isOnBothSides).length;
  const context: MetricContext = { suite, abFamilySize: Math.max(1, gated) };
  const endpoints = entries.map(({ pick, name, identity, isOnBothSides }) => {
    const specs = onlyGate ? [] : customMetricsOf(allRuns.flatMap((run) => (pick(run) ? [pick(run)!.metrics] : [])));
    return compareEndpoint(name, identity.protocol, baseRuns, headRuns, pick, specs, options, isOnBothSides, context);
  });
  const aggregateSpecs = onlyGate ? [] : customMetricsOf(allRuns.map((run) => aggregateWithRunMetrics(run).metrics));
  const isAggregateGated = !endpoints.some((endpoint) => endpoint.gateMetric !== null);
  const aggregateProtocols = new Set(allRuns.map((run) => run.aggregate.protocol));
  const aggregateProtocol = aggregateProtocols.size === 1 ? (allRuns[0]?.aggregate.protocol ?? null) : null;
  const aggregate = compareEndpoint(
    AGGREGATE_NAME,
    aggregateProtocol,
    baseRuns,
    headRuns,
    aggregateWithRunMetrics,
    aggregateSpecs,
    options,
    isAggregateGated,
    { suite: null, abFamilySize: 1 },
  );

  // Holm over the gate metrics, then what one head run cannot tell from the machine (benchmark-suite.ts).
  // (judgeAgainstMachine changes metrics' verdicts: each endpoint's verdict follows them again.)
  const corrected = judgeAgainstMachine(correctForMultipleTests([...endpoints, aggregate], options), suite, options).map((endpoint) => ({
    ...endpoint,
    verdict: endpointVerdict(endpoint.metrics),
  }));
  const endpointsJudged = corrected.slice(0, -1);
  const aggregateJudged = corrected.at(-1)!;
  const gateMetrics = gateMetricsOf({ endpoints: endpointsJudged, aggregate: aggregateJudged }).map(({ metric }) => metric);
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
    // An undecided gate metric (a likely slowdown not established) makes the comparison inconclusive,
    // not "unchanged" because another endpoint was.
    verdict:
      !gateMetrics.some((metric) => metric.verdict === "regressed") && gateMetrics.some((metric) => metric.inconclusiveKind === "undecided")
        ? "inconclusive"
        : worstVerdict(gateMetrics.map((metric) => metric.verdict)),
    counts,
    endpoints: endpointsJudged,
    aggregate: aggregateJudged,
    warnings: [...environment.unfair, ...comparabilityWarnings(baseRuns, headRuns), ...machineWarnings(suite, options)],
    machineShift: summarizeMachineShift(suite),
    environment,
    rounds: null,
    notComparable: null,
    tools,
    kind,
  };
  const final = tools.length > 1 ? notComparable(judged, tools) : judged;
  return { ...final, rounds: adviseRounds(final, options) };
}

/** The head's machine shift, for pages and answers (null: not measured). */
function summarizeMachineShift(suite: SuiteShifts | null): Comparison["machineShift"] {
  const head = suite?.head ?? null;
  if (suite === null || head === null) return null;
  return {
    shiftPct: Math.expm1(head.shift) * 100,
    benchmarks: suite.benchmarks,
    movedTogether: head.keys.length,
    noisePct: head.tau * 100,
    isNoiseMeasured: head.tauFrom > 0,
    otherGroups: head.alternatives.map((group) => ({ shiftPct: Math.expm1(group.shift) * 100, benchmarks: group.keys })),
  };
}

/** A whole head run that moved by the minimum effect or more, said beside the verdict. */
function machineWarnings(suite: SuiteShifts | null, options: CompareOptions): string[] {
  const head = suite?.head ?? null;
  if (suite === null || head === null || Math.abs(Math.expm1(head.shift) * 100) < options.minEffectPct) return [];
  const direction = head.shift > 0 ? "slower" : "faster";
  const envelope = suite.envelope ? ` (its ${suite.envelope.runs} base runs moved ${shiftPct(suite.envelope.low)} to ${shiftPct(suite.envelope.high)})` : "";
  return [
    `The head run as a whole was ${shiftPct(head.shift)} (${direction}) against the base: ${head.keys.length} of ${suite.benchmarks} benchmarks moved together${envelope}. Each benchmark is judged beyond that shift, which a burst of other work on the runner explains as well as a change that moves every benchmark alike; an A/B job (both sides in one job) tells them apart.`,
  ];
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
      inconclusiveKind: "not-comparable",
      detectablePct: null,
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
  const namesOf = (runs: readonly ComparableRun[]) => {
    const names = new Set<string>();
    for (const run of runs) for (const endpoint of run.endpoints) names.add(endpoint.name);
    return names;
  };
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
