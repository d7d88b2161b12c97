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
import { judgeAgainstSuite, guardWholeRunShift } from "./suite-noise";
import { correctForMultipleTests, endpointVerdict } from "./families";
import { compareMetric } from "./metric-comparison";

export type { ComparableRun, Comparison, CompareOptions, EndpointComparison, InconclusiveKind, MetricComparison, SideSummary } from "./comparison";
export { DEFAULT_COMPARE_OPTIONS, historyKey, MIN_BASE_RUNS, MIN_RUNS_IN_ALL, seriesValues, seriesValuesSinceChanges } from "./comparison";
export type { SeriesRegimeStart } from "./comparison";
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
): EndpointComparison {
  const gateMetric = isGated ? chooseGateMetric(options.gateMetric ?? AUTO_GATE_METRIC, [...baseRuns, ...headRuns].map(pick)) : null;
  const specs = options.metrics === "gate" ? [] : [...COMPARED_METRICS, ...extraSpecs];
  if (gateMetric && !specs.some((spec) => spec.name === gateMetric.metric.name)) specs.push(gateMetric.metric);
  const metrics = specs.map((spec) => compareMetric(name, spec, baseRuns, headRuns, pick, options, spec.name === gateMetric?.metric.name));
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

/** A run's endpoints by identity (run.ts:endpointKey), the first of a key where a file repeats one. */
function indexEndpoints(endpoints: readonly EndpointResult[]): Map<string, EndpointResult> {
  const index = new Map<string, EndpointResult>();
  for (const endpoint of endpoints) if (!index.has(endpointKey(endpoint))) index.set(endpointKey(endpoint), endpoint);
  return index;
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
  const onlyGate = options.metrics === "gate";
  // An endpoint is its name and protocol (run.ts:EndpointIdentity); a name two protocols share is shown
  // with its protocol, "GetListing (grpc)".
  const identities = new Map(
    allRuns.flatMap((run) => run.endpoints.map((endpoint) => [endpointKey(endpoint), endpoint] as const)),
  );
  const names = [...identities.values()].map((endpoint) => endpoint.name);
  const isShared = (name: string) => names.indexOf(name) !== names.lastIndexOf(name);
  // The gate judges each endpoint both sides measured; the aggregate only when there is none (it repeats
  // them otherwise). An endpoint on one side only is shown, and warned about, not judged.
  // Each run's endpoints by identity, read once: a comparison picks every endpoint of every run per metric.
  const byKey = new Map(allRuns.map((run) => [run, indexEndpoints(run.endpoints)]));
  const onBothSides = (key: string) => [baseRuns, headRuns].every((runs) => runs.some((run) => byKey.get(run)!.has(key)));
  const endpoints = [...identities.entries()].map(([key, identity]) => {
    const pick = (run: ComparableRun) => byKey.get(run)!.get(key);
    const specs = onlyGate ? [] : customMetricsOf(allRuns.flatMap((run) => (pick(run) ? [pick(run)!.metrics] : [])));
    const name = isShared(identity.name) ? `${identity.name} (${identity.protocol ?? "no protocol"})` : identity.name;
    return compareEndpoint(name, identity.protocol, baseRuns, headRuns, pick, specs, options, onBothSides(key));
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
  );

  // One benchmark run against one: the suite's run-to-run noise, then whether the whole run moved (suite-noise.ts).
  const floored = judgeAgainstSuite([...endpoints, aggregate], options);
  const corrected = guardWholeRunShift(correctForMultipleTests(floored, options), options.minEffectPct);
  const endpointsJudged = corrected.slice(0, -1);
  const aggregateJudged = corrected.at(-1)!;
  const gateMetrics = corrected.flatMap((endpoint) => endpoint.metrics.filter((metric) => metric.gate));
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
