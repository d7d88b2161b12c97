/**
 * A comparison's gate metrics summed up in words, for every place that states a verdict: the compare
 * page, its Markdown, its preview image and the CI gate's outcome (../gate/outcome.ts). An inconclusive
 * comparison is not an unchanged one: it says why no endpoint could be judged (and what would decide),
 * and the changes it saw are shown as seen, marked as not judged, never as "no change". Endpoints and
 * benchmarks are each named in their own words (../result-kind.ts).
 */
import { customMetricKey } from "../metrics";
import { countNouns, metricShortName, resultDisplayName, resultKindOf, resultKindsOf, wordsOf } from "../result-kind";
import type { ResultKinds } from "../result-kind";
import type { Comparison, EndpointComparison, InconclusiveKind, MetricComparison } from "./comparison";
import { isExactChange, isExactComparison } from "./exact-metrics";
import { formatDeltaPct, formatNumber, formatPValue } from "../format";

export interface GateMetric {
  endpoint: string;
  /** The endpoint's protocol: "benchmark" words it as a benchmark (../result-kind.ts). */
  protocol: string | null;
  metric: MetricComparison;
}

/** What a comparison compares (../result-kind.ts): its endpoints' kind, or its aggregate's when it has none. */
export function comparisonKindOf(comparison: Pick<Comparison, "endpoints" | "aggregate">): ResultKinds {
  return resultKindsOf(comparison.endpoints.length > 0 ? comparison.endpoints : [comparison.aggregate]);
}

/** "checkout p95", "sort > BenchmarkSortInts/n=100 mean time/op": a result's metric, in its kind's words. */
export function describeResultMetric(endpoint: string, protocol: string | null, metric: string): string {
  const kind = resultKindOf(protocol);
  return `${resultDisplayName(endpoint, kind)} ${metricShortName(metric, kind)}`;
}

/** Why a comparison could not judge any endpoint. */
export interface InconclusiveExplanation {
  kind: InconclusiveKind;
  /** In words, with what would decide where more runs would: "too little history: need 6 runs in all …". */
  reason: string;
}

/** The kinds in a few words, for a headline or a compact table cell. */
export const INCONCLUSIVE_KIND_WORDS: Record<InconclusiveKind, string> = {
  "too-little-history": "too little history",
  undecided: "undecided",
  "too-few-requests": "too few requests",
  "not-comparable": "not comparable",
  "no-data": "no data",
};

type GateView = Pick<Comparison, "endpoints" | "aggregate" | "notComparable">;

/** A reason names this many changes at most; the answer's `comparison.changes` and the comparison page have all. */
export const MAX_NAMED_IN_REASON = 20;

/**
 * What the gate decides on: each endpoint's gate metric (the aggregate's when the runs have no endpoints),
 * and beside it each exact count that changed by the minimum effect (exact-metrics.ts).
 */
export function gateMetricsOf(comparison: Pick<Comparison, "endpoints" | "aggregate">): GateMetric[] {
  return [...comparison.endpoints, comparison.aggregate].flatMap((endpoint: EndpointComparison) => {
    const isGated = endpoint.metrics.some((metric) => metric.gate);
    return endpoint.metrics
      .filter((metric) => metric.gate || (isGated && isExactChange(metric)))
      .map((metric) => ({ endpoint: endpoint.name, protocol: endpoint.protocol, metric }));
  });
}

function mostCommon<T>(values: readonly T[]): T | undefined {
  const counts = new Map<T, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/**
 * Why the comparison cannot answer: a gate metric is undecided (worse, significant alone, not once
 * corrected: a likely slowdown not established) and none regressed; or no endpoint could be judged (the
 * most common kind among the gate metrics and one of their reasons). null when it has a verdict.
 */
export function explainInconclusive(comparison: GateView): InconclusiveExplanation | null {
  if (comparison.notComparable !== null) return { kind: "not-comparable", reason: comparison.notComparable };
  const gate = gateMetricsOf(comparison);
  const words = wordsOf(comparisonKindOf(comparison));
  // Largest first: the reason leads with the largest likely slowdown, and names every other one.
  const undecided = gate
    .filter(({ metric }) => metric.inconclusiveKind === "undecided")
    .sort((a, b) => Math.abs(b.metric.deltaPct ?? 0) - Math.abs(a.metric.deltaPct ?? 0));
  if (undecided.length > 0 && !gate.some(({ metric }) => metric.verdict === "regressed")) {
    // An A/B job's metric that leans to no change is not named beside the lead (namedStatusOf).
    const named = undecided.filter(({ metric }) => namedStatusOf(metric) !== null);
    const [first, ...rest] = named.length > 0 ? named : undecided.slice(0, 1);
    const listed = rest.slice(0, MAX_NAMED_IN_REASON).map((change) => `${describeResultMetric(change.endpoint, change.protocol, change.metric.metric)} ${formatDeltaPct(change.metric.deltaPct)}`);
    const beyond = rest.length - listed.length;
    const others =
      rest.length > 0
        ? ` (and ${rest.length} other ${rest.length === 1 ? words.noun : words.nouns}: ${listed.join(", ")}${beyond > 0 ? `, and ${beyond} more` : ""})`
        : "";
    return {
      kind: "undecided",
      reason: `${describeResultMetric(first!.endpoint, first!.protocol, first!.metric.metric)}${others}: ${first!.metric.reason}`,
    };
  }
  if (gate.some(({ metric }) => metric.verdict !== "inconclusive")) return null;
  const kind = mostCommon(gate.map(({ metric }) => metric.inconclusiveKind ?? "no-data")) ?? "no-data";
  const example = gate.find(({ metric }) => (metric.inconclusiveKind ?? "no-data") === kind);
  const reason = example ? example.metric.reason : `no ${words.noun} has a gate metric on both sides`;
  return { kind, reason: kind === "too-little-history" ? `too little history: ${reason}` : reason };
}

/**
 * On a comparison with a verdict, the endpoints it could not judge, in one line: "1 endpoint of 3 not
 * judged (New: measured on one side only)"; null when every endpoint was judged, or none was. An
 * endpoint only one side measured has no gate metric (compare-runs.ts) and counts as not judged.
 */
export function describeNotJudged(comparison: GateView): string | null {
  if (explainInconclusive(comparison) !== null) return null;
  const gate = gateMetricsOf(comparison);
  const notJudged = [
    ...gate
      .filter(({ metric }) => metric.verdict === "inconclusive" && metric.inconclusiveKind !== "undecided")
      .map(({ endpoint, protocol, metric }) => ({ endpoint, protocol, reason: metric.reason })),
    ...comparison.endpoints
      .filter((endpoint) => endpoint.gateMetric === null)
      .map((endpoint) => ({ endpoint: endpoint.name, protocol: endpoint.protocol, reason: "measured on one side only" })),
  ];
  const first = notJudged[0];
  if (!first) return null;
  const more = notJudged.length > 1 ? "; …" : "";
  const all = gate.length + comparison.endpoints.filter((endpoint) => endpoint.gateMetric === null).length;
  const name = resultDisplayName(first.endpoint, resultKindOf(first.protocol));
  return `${countNouns(notJudged.length, comparisonKindOf(comparison))} of ${all} not judged (${name}: ${first.reason}${more})`;
}

/** What the gate names as changed, each in a word (judge.ts GateChangeStatus). */
export type NamedStatus = "regressed" | "exact" | "undecided" | "improved";

/** A gate metric the gate names as changed, with its status. */
export interface NamedChange extends GateMetric {
  status: NamedStatus;
}

/** How a gate metric stands, in a word; null when the gate does not name it (unchanged, or not judged). */
export function namedStatusOf(metric: MetricComparison): NamedStatus | null {
  if (metric.verdict === "regressed") return isExactComparison(metric) ? "exact" : "regressed";
  // An A/B job's metric the sequential test has not decided yet is named only while it leans towards the
  // slowdown (its mean change past half of D: the likelier of the two); one nearer no change is not.
  if (metric.undecidedBy === "pairs" && !isLeaningWorse(metric)) return null;
  if (metric.verdict === "improved") return "improved";
  return metric.inconclusiveKind === "undecided" ? "undecided" : null;
}

/** An A/B metric undecided by the sequential test whose mean change is past half the slowdown it tests for. */
export function isLeaningWorse(metric: MetricComparison): boolean {
  if (metric.deltaPct === null || metric.detectablePct === null || metric.detectablePct === undefined || metric.better === null) return false;
  const change = Math.log1p(metric.deltaPct / 100) * (metric.better === "lower" ? 1 : -1);
  return change > Math.log1p(metric.detectablePct / 100) / 2;
}

/**
 * Every change the gate names (docs/statistics.md, "The CI gate"): each endpoint's gate metric or exact
 * count that regressed, is undecided or improved. Slowdowns first (regressed, exact and undecided, largest
 * change first, an exact count first among equals), then improvements, largest first.
 */
export function namedChangesOf(comparison: Pick<Comparison, "endpoints" | "aggregate">): NamedChange[] {
  const named = gateMetricsOf(comparison).flatMap((change): NamedChange[] => {
    const status = namedStatusOf(change.metric);
    return status === null ? [] : [{ ...change, status }];
  });
  const size = (change: NamedChange) => (change.metric.deltaPct === null ? Number.POSITIVE_INFINITY : Math.abs(change.metric.deltaPct));
  const isWorse = (change: NamedChange) => change.status !== "improved";
  return named.sort((a, b) => Number(isWorse(b)) - Number(isWorse(a)) || size(b) - size(a));
}

/** An A/B job's changes named undecided: gate metrics whose sequential test leans towards a slowdown. */
export function leaningSlowdownsOf(named: readonly NamedChange[]): number {
  return named.filter((change) => change.status === "undecided" && change.metric.undecidedBy === "pairs").length;
}

/**
 * A named change's status in a few words: "significant: p < 0.001, Holm-adjusted p = 0.002"; "exact:
 * 2 → 16"; "undecided: significant alone (p = 0.004), not once corrected (p = 0.028)"; "undecided: moved
 * together with 2 other benchmarks".
 */
export function describeChangeStatus(change: NamedChange, options: { kind: ResultKinds }): string {
  const { metric } = change;
  const p = (value: number | null) => formatPValue(value).replace(/^p /, "");
  if (change.status === "exact") {
    return `exact: ${formatNumber(metric.base.values[0] ?? null, 3)} → ${formatNumber(metric.head.values[0] ?? null, 3)}`;
  }
  if (metric.test === "ab-pairs") {
    const target = formatDeltaPct(metric.detectablePct ?? null);
    if (change.status === "undecided") return `undecided: the A/B job's pairs so far lean towards a slowdown of ${target}, not yet beyond doubt (another pair decides)`;
    return `${change.status === "improved" ? "improved" : "significant"}: the A/B job's pairs, sequential test against ${change.status === "improved" ? "a speed-up" : "a slowdown"} of ${target}`;
  }
  if (change.status === "undecided") {
    if (metric.undecidedBy === "machine") {
      return `undecided: significant (p ${p(metric.pValue)}), but a burst of other work on the runner could do as much to a ${wordsOf(options.kind).noun}: the machine or the code (an A/B job tells)`;
    }
    return `undecided: significant alone (p ${p(metric.pValue)}), not once corrected (Holm-adjusted p ${p(metric.adjustedPValue)})`;
  }
  if (metric.isBeyondEnvelope) return `${change.status}: the whole run moved far beyond any shift the series has shown`;
  if (metric.test === "noise-band") return `${change.status}: beyond the ±${(metric.noiseBandPct ?? 0).toFixed(1)}% noise band`;
  const adjusted = metric.adjustedPValue === null ? "" : `, Holm-adjusted p ${p(metric.adjustedPValue)}`;
  return `${change.status === "improved" ? "improved" : "significant"}: p ${p(metric.pValue)}${adjusted}`;
}

/** "sort > BenchmarkSortInts/n=100 mean time/op +60.1% (significant: p < 0.001, …)": a named change in one phrase. */
export function describeNamedChange(change: NamedChange, kind: ResultKinds): string {
  return `${describeResultMetric(change.endpoint, change.protocol, change.metric.metric)} ${formatDeltaPct(change.metric.deltaPct)} (${describeChangeStatus(change, { kind })})`;
}

export interface ObservedChange {
  endpoint: string;
  /** The endpoint's protocol ("benchmark" for a benchmark). */
  protocol: string | null;
  metric: MetricComparison;
  /** false: seen, not judged (inconclusive, or a metric whose direction nobody stated). */
  isJudged: boolean;
}

/**
 * What to show as a comparison's changes: the metrics that regressed or improved, largest |Δ| first;
 * when none could be judged at all, the largest changes seen anyway, gate metrics first, each marked as
 * not judged (the "+73%" of two runs says nothing yet, but hiding it would say less).
 */
export function headlineChanges(comparison: GateView, limit: number): ObservedChange[] {
  const byMagnitude = (a: ObservedChange, b: ObservedChange) =>
    Math.abs(b.metric.deltaPct ?? 0) - Math.abs(a.metric.deltaPct ?? 0) || Number(b.metric.gate) - Number(a.metric.gate);
  const all = [...comparison.endpoints, comparison.aggregate].flatMap((endpoint) =>
    endpoint.metrics.map((metric) => ({ endpoint: endpoint.name, protocol: endpoint.protocol, metric, isJudged: metric.verdict !== "inconclusive" })),
  );
  // Runs of several tools: a pooled Δ mixes series, so there is no change to show, seen or judged.
  if (comparison.notComparable !== null) return [];
  if (explainInconclusive(comparison) === null) {
    return all.filter(({ metric }) => metric.verdict === "regressed" || metric.verdict === "improved").sort(byMagnitude).slice(0, limit);
  }
  // The aggregate of runs with endpoints repeats them: only its run-level custom metrics are its own,
  // unless it is what the gate judges (no endpoint measured on both sides).
  const isOwn = ({ endpoint, metric }: ObservedChange) =>
    metric.gate || endpoint !== comparison.aggregate.name || comparison.endpoints.length === 0 || customMetricKey(metric.metric) !== null;
  const seen = all
    .filter((change) => change.metric.deltaPct !== null && change.metric.deltaPct !== 0 && isOwn(change))
    .map((change) => ({ ...change, isJudged: false }));
  const gate = seen.filter(({ metric }) => metric.gate).sort(byMagnitude);
  const others = seen.filter(({ metric }) => !metric.gate).sort(byMagnitude);
  return [...gate, ...others].slice(0, limit);
}
