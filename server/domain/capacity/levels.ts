/**
 * A capacity curve's points: one endpoint's results (or the run aggregate's) of one series, grouped by
 * load level and pooled, each graded against the project's SLA (docs/statistics.md, "Capacity").
 */
import { formatMetricValue } from "../format";
import { AGGREGATE_NAME, errorRateOf } from "../run";
import type { CustomMetric, EndpointResult } from "../run";
import { gradeRun } from "../sla/grade";
import { median } from "../stats/descriptive";
import type { SlaPolicy } from "../sla/policy";
import { loadLevelOf, type LoadLevelKey } from "./load-level";

/** One run's result for the endpoint, with what a curve needs to know of the run. */
export interface CapacityRunResult {
  runId: string;
  /** ISO 8601. */
  startedAt: string;
  config: Readonly<Record<string, string | number | boolean>>;
  /** The endpoint's result in that run (for the aggregate: the run's, its run-level metrics included). */
  result: EndpointResult;
}

/** Whether a level met the SLA targets that apply to the endpoint, and which it missed. */
export interface LevelSla {
  /** Every evaluated check passed; null when none had data. */
  passed: boolean | null;
  /** The failed checks in words, worst first: "p95 18.2 ms, target <= 15 ms". */
  failures: string[];
}

export interface CapacityLevel {
  load: number;
  /** Runs pooled into the level, newest first. */
  runIds: string[];
  /** Median over the runs (req/s). */
  throughput: number | null;
  /** Medians over the runs that report them (ms). */
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  /** Pooled: Σ failures / Σ requests (null unless every run reports both). */
  errorRate: number | null;
  /** Null: no SLA target applies to this endpoint. */
  sla: LevelSla | null;
}

/**
 * The median of what `read` finds in each run. Why medians: one slow round at a level (a noisy neighbour,
 * a GC pause) must not move the point, and percentiles do not average anyway.
 */
function medianOf<T>(items: readonly T[], read: (item: T) => number | null | undefined): number | null {
  return median(
    items.map(read).filter((value): value is number => typeof value === "number" && Number.isFinite(value)),
  );
}

/**
 * The runs of one level as one result: medians of throughput, latency statistics, every percentile any
 * run gives (tools spell them "99.9" or "99.90": keys are read as numbers) and custom metrics reported
 * in one unit; requests and failures summed, so the error rate is pooled exactly.
 */
export function poolResults(results: readonly EndpointResult[]): EndpointResult {
  const first = results[0];
  if (!first) throw new RangeError("poolResults needs at least one result");
  const percentileKeys = [
    ...new Set(results.flatMap((result) => Object.keys(result.latency.percentiles).map((key) => String(Number(key))))),
  ];
  const percentiles: Record<string, number> = {};
  for (const key of percentileKeys) {
    const value = medianOf(results, (result) => percentileOf(result, Number(key)));
    if (value !== null) percentiles[key] = value;
  }
  const counted = results.every((result) => result.requests !== null && result.failures !== null);
  return {
    ...first,
    requests: counted ? results.reduce((sum, result) => sum + result.requests!, 0) : null,
    failures: counted ? results.reduce((sum, result) => sum + result.failures!, 0) : null,
    throughput: medianOf(results, (result) => result.throughput),
    latency: {
      minMs: medianOf(results, (result) => result.latency.minMs),
      meanMs: medianOf(results, (result) => result.latency.meanMs),
      maxMs: medianOf(results, (result) => result.latency.maxMs),
      stdDevMs: null,
      percentiles,
    },
    histogram: null,
    statusCodes: null,
    errors: null,
    metrics: poolMetrics(results.map((result) => result.metrics)),
    timeline: null,
  };
}

function percentileOf(result: EndpointResult, percentile: number): number | null {
  for (const [key, value] of Object.entries(result.latency.percentiles)) if (Number(key) === percentile) return value;
  return null;
}

function poolMetrics(maps: readonly Record<string, CustomMetric>[]): Record<string, CustomMetric> {
  const pooled: Record<string, CustomMetric> = {};
  for (const key of new Set(maps.flatMap((metrics) => Object.keys(metrics)))) {
    const reported = maps.flatMap((metrics) => (Object.hasOwn(metrics, key) ? [metrics[key]!] : []));
    const unit = reported[0]!.unit;
    // Free-text units are not converted: a metric reported in two units has no pooled value.
    if (reported.some((metric) => metric.unit !== unit)) continue;
    const value = median(reported.map((metric) => metric.value));
    if (value !== null) pooled[key] = { value, unit, better: reported[0]!.better };
  }
  return pooled;
}

/**
 * Groups the runs by their level for `key` (runs without one are left out by the caller), pools each
 * level and grades it. Levels come in increasing load order.
 */
export function buildLevels(
  runs: readonly CapacityRunResult[],
  key: LoadLevelKey,
  policy: SlaPolicy | null,
  isAggregate: boolean,
): CapacityLevel[] {
  const byLoad = new Map<number, CapacityRunResult[]>();
  for (const run of runs) {
    const load = loadLevelOf(run.config, key);
    if (load === null) continue;
    byLoad.set(load, [...(byLoad.get(load) ?? []), run]);
  }
  return [...byLoad.entries()]
    .sort(([a], [b]) => a - b)
    .map(([load, levelRuns]) => {
      const newestFirst = [...levelRuns].sort(
        (a, b) => b.startedAt.localeCompare(a.startedAt) || b.runId.localeCompare(a.runId),
      );
      const pooled = poolResults(newestFirst.map((run) => run.result));
      return {
        load,
        runIds: newestFirst.map((run) => run.runId),
        throughput: pooled.throughput,
        p50Ms: percentileOf(pooled, 50),
        p95Ms: percentileOf(pooled, 95),
        p99Ms: percentileOf(pooled, 99),
        errorRate: errorRateOf(pooled),
        sla: gradeLevel(policy, pooled, isAggregate),
      };
    });
}

/**
 * A pooled level against the SLA targets that apply to it (sla/grade.ts): for an endpoint, the targets
 * whose scope takes it (each endpoint, or a matching glob); for the aggregate, the aggregate's. Passing
 * is what the run report's SLA column shows: every evaluated check passed. Null when no target applies.
 */
export function gradeLevel(policy: SlaPolicy | null, pooled: EndpointResult, isAggregate: boolean): LevelSla | null {
  if (!policy) return null;
  const targets = policy.targets.filter((target) => (target.scope === "aggregate") === isAggregate);
  if (targets.length === 0) return null;
  const name = isAggregate ? AGGREGATE_NAME : pooled.name;
  const grade = gradeRun(
    { targets },
    isAggregate
      ? { aggregate: pooled, endpoints: [], metrics: pooled.metrics }
      : { aggregate: pooled, endpoints: [pooled] },
  );
  const mine = grade.checks.filter((check) => check.endpoint === name);
  if (mine.length === 0) return null;
  const evaluated = mine.filter((check) => check.passed !== null);
  return {
    passed: evaluated.length === 0 ? null : evaluated.every((check) => check.passed === true),
    // Checks come limiting first (grade.ts): the failed ones by worst headroom.
    failures: mine
      .filter((check) => check.passed === false)
      .map((check) => {
        const format = (value: number | null) => formatMetricValue(check.target.metric, check.unit, value);
        return `${check.target.metric} ${format(check.value)}, target ${check.target.op} ${format(check.threshold)}`;
      }),
  };
}
