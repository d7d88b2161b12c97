import type { Comparison, EndpointComparison, MetricComparison } from "@/server/domain/compare/compare-runs";
import { comparisonKindOf, INCONCLUSIVE_KIND_WORDS } from "@/server/domain/compare/gate-summary";
import { AGGREGATE_NAME } from "@/server/domain/run";
import { resultDisplayName, resultKindOf } from "@/server/domain/result-kind";
import type { ResultKind } from "@/server/domain/result-kind";
import type { SignificanceTest } from "@/server/domain/stats/verdict";
import type { ComparisonData } from "./types";

/** Pure shaping of a comparison for the compare page's table, chart and per-round table. */

export interface TableRow {
  metric: MetricComparison;
  /** Why this gate metric could not be judged, in full, shown under its row; null otherwise. */
  reason: string | null;
  /** Why another metric was not judged, in a few words ("too few requests"); null otherwise. */
  note: string | null;
}

export interface TableGroup {
  endpoint: string;
  /** An endpoint or a benchmark (server/domain/result-kind.ts): the words and units of its rows. */
  kind: ResultKind;
  verdict: EndpointComparison["verdict"];
  /** The metric the CI gate judges this endpoint on, and why that one; null for the aggregate of runs with endpoints. */
  gateMetric: EndpointComparison["gateMetric"];
  rows: TableRow[];
}

/** The table's filter: each endpoint's gate metric and whatever else regressed or improved, or every metric. */
export type TableShow = "gate" | "all";

function tableRow(metric: MetricComparison, isNotComparable: boolean): TableRow {
  if (metric.verdict !== "inconclusive") return { metric, reason: null, note: null };
  // Runs of several tools: the one reason is said once, above the table.
  const words = metric.inconclusiveKind ? INCONCLUSIVE_KIND_WORDS[metric.inconclusiveKind] : "not judged";
  if (metric.gate && !isNotComparable) return { metric, reason: metric.reason, note: words };
  return { metric, reason: null, note: metric.better === null ? "direction unknown" : words };
}

/**
 * The results the page shows a comparison of: its endpoints and its aggregate; a comparison of
 * benchmarks' endpoints only, since their aggregate holds no numbers (each benchmark is judged alone).
 */
export function comparedResults(comparison: Pick<Comparison, "endpoints" | "aggregate">): EndpointComparison[] {
  if (comparisonKindOf(comparison) === "benchmark" && comparison.endpoints.length > 0) return comparison.endpoints;
  return [...comparison.endpoints, comparison.aggregate];
}

/**
 * Endpoints (aggregate last) with their metrics. With `show: "gate"`, each endpoint's gate metric
 * whatever its verdict (an inconclusive one says why) and the other metrics that regressed or improved;
 * endpoints left with nothing are dropped. Regressions come first, then improvements.
 */
export function tableGroups(comparison: Comparison, show: TableShow): TableGroup[] {
  const rank = { regressed: 0, improved: 1, unchanged: 2, inconclusive: 3 } as const;
  const isNotComparable = comparison.notComparable !== null;
  const isShown = (metric: MetricComparison) => show === "all" || metric.gate || metric.verdict === "regressed" || metric.verdict === "improved";
  return comparedResults(comparison)
    .map((endpoint) => ({
      endpoint: endpoint.name,
      kind: resultKindOf(endpoint),
      verdict: endpoint.verdict,
      gateMetric: endpoint.gateMetric,
      // The gate metric first: it is what the endpoint's verdict is.
      rows: [...endpoint.metrics.filter((metric) => metric.gate), ...endpoint.metrics.filter((metric) => !metric.gate)]
        .filter(isShown)
        .map((metric) => tableRow(metric, isNotComparable)),
    }))
    .filter((group) => group.rows.length > 0)
    .sort((a, b) => {
      if (a.endpoint === AGGREGATE_NAME) return 1;
      if (b.endpoint === AGGREGATE_NAME) return -1;
      return rank[a.verdict] - rank[b.verdict] || a.endpoint.localeCompare(b.endpoint);
    });
}

/** What the compare page's test choice offers, in its words. */
export const TEST_CHOICES: readonly { test: SignificanceTest; label: string }[] = [
  { test: "welch", label: "Welch's t" },
  { test: "student", label: "pooled t (as the CI gate)" },
  { test: "mann-whitney", label: "Mann–Whitney" },
];

export interface ChartDatum {
  name: string;
  base: number | null;
  head: number | null;
  /** [below, above] distances from the mean to the 95% CI bounds, as Recharts' ErrorBar wants. */
  baseError: [number, number] | null;
  headError: [number, number] | null;
  verdict: MetricComparison["verdict"];
}

/** One bar pair per endpoint for `metric`, with CI whiskers; the aggregate only when there are no endpoints. */
export function chartData(comparison: Comparison, metric: string): ChartDatum[] {
  const endpoints = comparison.endpoints.length > 0 ? comparison.endpoints : [comparison.aggregate];
  return endpoints.flatMap((endpoint) => {
    const found = endpoint.metrics.find((candidate) => candidate.metric === metric);
    if (!found || (found.base.mean === null && found.head.mean === null)) return [];
    const whisker = (side: MetricComparison["base"]): [number, number] | null =>
      side.ci95 && side.mean !== null ? [side.mean - side.ci95[0], side.ci95[1] - side.mean] : null;
    return [
      {
        name: resultDisplayName(endpoint.name, resultKindOf(endpoint)),
        base: found.base.mean,
        head: found.head.mean,
        baseError: whisker(found.base),
        headError: whisker(found.head),
        verdict: found.verdict,
      },
    ];
  });
}

export interface ChangeDatum {
  name: string;
  /** 100 · (head − base) / base. */
  deltaPct: number;
  /** [below, above] distances from Δ to its 95% CI bounds (ErrorBar's shape); null without an interval (1 vs 1: a noise band). */
  error: [number, number] | null;
  verdict: MetricComparison["verdict"];
}

/**
 * One bar per benchmark for `metric`: its relative change, head against base, with the 95% CI of Δ as a
 * whisker where the comparison has one. Benchmarks' values span ns to ms, so bars of the values side by
 * side hide the small ones; their changes share one axis.
 */
export function changeChartData(comparison: Comparison, metric: string): ChangeDatum[] {
  return comparedResults(comparison).flatMap((endpoint) => {
    const found = endpoint.metrics.find((candidate) => candidate.metric === metric);
    if (!found || found.deltaPct === null) return [];
    const ci = found.deltaPctCi95;
    return [
      {
        name: resultDisplayName(endpoint.name, resultKindOf(endpoint)),
        deltaPct: found.deltaPct,
        error: ci ? [found.deltaPct - ci[0], ci[1] - found.deltaPct] : null,
        verdict: found.verdict,
      },
    ];
  });
}

export interface RoundRow {
  runId: string;
  label: string | null;
  round: number | null;
  startedAt: Date;
  values: Record<string, number | null>;
}

export interface RoundsSide {
  rows: RoundRow[];
  mean: Record<string, number | null>;
}

export interface RoundsTable {
  /** The metrics with a value in at least one run, in comparison order. */
  columns: { metric: string; unit: string | null }[];
  base: RoundsSide;
  head: RoundsSide;
}

/**
 * Each run of a side (oldest first) with its values for one endpoint, and the mean row ("Avg"), the
 * way teams tabulate rounds by hand. Metrics nobody reported are left out.
 */
export function roundsTable(result: Pick<ComparisonData, "base" | "head" | "comparison">, endpoint: string): RoundsTable {
  const comparison =
    endpoint === AGGREGATE_NAME
      ? result.comparison.aggregate
      : (result.comparison.endpoints.find((candidate) => candidate.name === endpoint) ?? result.comparison.aggregate);
  const metrics = comparison.metrics.filter((metric) => metric.base.n + metric.head.n > 0);
  const side = (which: "base" | "head"): RoundsSide => {
    const rows = [...result[which].runs].reverse().map((run) => {
      const values: Record<string, number | null> = {};
      for (const metric of metrics) {
        const index = metric[which].runIds.indexOf(run.id);
        values[metric.metric] = index >= 0 ? (metric[which].values[index] ?? null) : null;
      }
      return { runId: run.id, label: run.label, round: run.round, startedAt: run.startedAt, values };
    });
    const mean = Object.fromEntries(metrics.map((metric) => [metric.metric, metric[which].mean]));
    return { rows, mean };
  };
  return { columns: metrics.map(({ metric, unit }) => ({ metric, unit })), base: side("base"), head: side("head") };
}

export interface Choice {
  value: string;
  runs: number;
  latestAt: string | null;
}

/**
 * The two selections offered first: the two most recently active labels (a label and a branch when
 * there is one label), the one whose newest run is older on the base side.
 */
export function defaultSides(labels: readonly Choice[], branches: readonly Choice[]): { base: string; head: string } | null {
  const options = [
    ...labels.map((label) => ({ value: `label:${label.value}`, latestAt: label.latestAt ?? "" })),
    ...branches.map((branch) => ({ value: `branch:${branch.value}`, latestAt: branch.latestAt ?? "" })),
  ];
  const pool = labels.length >= 2 ? options.slice(0, labels.length) : options;
  const [newest, next] = [...pool].sort((a, b) => b.latestAt.localeCompare(a.latestAt));
  if (!newest) return null;
  return { base: (next ?? newest).value, head: newest.value };
}

