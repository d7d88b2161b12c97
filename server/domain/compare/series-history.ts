/**
 * A series' earlier values, as a comparison reads them (CompareOptions.history, comparison.ts): each
 * (endpoint, metric) value a run reports, keyed by `historyKey`, the run-level custom metrics on the
 * aggregate; read all at once (trendValues), one key at a time (lazyTrendValues: the gate), or each key
 * since its last known change (trendValuesSinceChanges: 1 vs 1's noise history, stats/noise-band.ts).
 */
import { sinceLastKnownChange } from "../stats/noise-band";
import type { RegimeStart } from "../stats/noise-band";
import type { EndpointResult, ParsedRun } from "../run";
import { AGGREGATE_NAME } from "../run";
import { COMPARED_METRICS, customMetricKey, customMetricsOf } from "../metrics";

export function historyKey(endpoint: string, metric: string): string {
  return `${endpoint}\u0000${metric}`;
}

/** What a run measured, as the history keys read it. */
type MeasuredValues = Pick<ParsedRun, "aggregate" | "endpoints" | "metrics">;

/** A run's aggregate with its run-level custom metrics attached: how they are compared and kept, on the aggregate. */
export function aggregateWithRunMetrics(run: Pick<ParsedRun, "aggregate" | "metrics">): EndpointResult {
  return { ...run.aggregate, metrics: { ...run.aggregate.metrics, ...run.metrics } };
}

/** Each (endpoint, metric) value a run reports, by `historyKey`: the aggregate (with the run-level metrics) and each endpoint. */
function eachTrendValue(run: MeasuredValues, add: (key: string, value: number) => void): void {
  const read = (endpoint: string, metric: string, value: number | null) => {
    if (value !== null && Number.isFinite(value)) add(historyKey(endpoint, metric), value);
  };
  const aggregate = aggregateWithRunMetrics(run);
  for (const spec of [...COMPARED_METRICS, ...customMetricsOf([aggregate.metrics])]) read(AGGREGATE_NAME, spec.name, spec.read(aggregate));
  for (const endpoint of run.endpoints) {
    for (const spec of [...COMPARED_METRICS, ...customMetricsOf([endpoint.metrics])]) read(endpoint.name, spec.name, spec.read(endpoint));
  }
}

/**
 * A series' earlier values under `historyKey(endpoint, metric)`, in the order of `runs` (give them
 * oldest first): the aggregate (with the run-level metrics) and each endpoint, every compared and
 * custom metric a run reports.
 */
export function trendValues(runs: readonly MeasuredValues[]): Map<string, number[]> {
  const history = new Map<string, number[]>();
  for (const run of runs) {
    eachTrendValue(run, (key, value) => {
      const values = history.get(key);
      if (values) values.push(value);
      else history.set(key, [value]);
    });
  }
  return history;
}

/** The earlier values of a series by `historyKey`, as a comparison reads them (CompareOptions.history). */
export interface SeriesValues {
  get(key: string): readonly number[] | undefined;
}

/**
 * One metric of a run, as eachTrendValue reads it: a compared metric by its name, a custom metric
 * ("metrics.<key>") where the result reports it; null for any other name (eachTrendValue keeps none).
 */
function trendReaderOf(metric: string): ((result: EndpointResult) => number | null) | null {
  const compared = COMPARED_METRICS.find((spec) => spec.name === metric);
  if (compared) return (result) => compared.read(result);
  const key = customMetricKey(metric);
  return key === null ? null : (result) => (Object.hasOwn(result.metrics, key) ? (result.metrics[key]!.value ?? null) : null);
}

/**
 * Each run's values of one metric by endpoint name, as trendValues keys them (the aggregate, with the
 * run-level metrics, under AGGREGATE_NAME first, then each endpoint), read once per run object and
 * metric: a run, stored or parsed, never changes, and the gate asks for one metric of a dozen.
 */
const runMetricIndexes = new WeakMap<MeasuredValues, Map<string, ReadonlyMap<string, readonly number[]>>>();

function metricIndexOf(run: MeasuredValues, metric: string): ReadonlyMap<string, readonly number[]> {
  let byMetric = runMetricIndexes.get(run);
  if (!byMetric) runMetricIndexes.set(run, (byMetric = new Map<string, ReadonlyMap<string, readonly number[]>>()));
  const known = byMetric.get(metric);
  if (known) return known;
  const index = new Map<string, number[]>();
  const read = trendReaderOf(metric);
  if (read) {
    const add = (endpoint: string, result: EndpointResult) => {
      const value = read(result);
      if (value === null || !Number.isFinite(value)) return;
      const values = index.get(endpoint);
      if (values) values.push(value);
      else index.set(endpoint, [value]);
    };
    add(AGGREGATE_NAME, aggregateWithRunMetrics(run));
    for (const endpoint of run.endpoints) add(endpoint.name, endpoint);
  }
  byMetric.set(metric, index);
  return index;
}

/**
 * trendValues read as a comparison asks, one key at a time: the gate reads its gate metrics' history
 * only (one or two of each endpoint's dozen metrics), and each run's values of a metric are indexed once for
 * the life of the run object (the gate's history runs are kept in memory between uploads: runs/run-numbers.ts).
 */
export function lazyTrendValues(runs: readonly MeasuredValues[]): SeriesValues {
  const read = new Map<string, readonly number[] | undefined>();
  return {
    get(key) {
      if (read.has(key)) return read.get(key);
      // historyKey's parts (a metric name holds no NUL).
      const split = key.lastIndexOf("\u0000");
      const endpoint = key.slice(0, split);
      const metric = key.slice(split + 1);
      const values: number[] = [];
      for (const run of runs) {
        const own = metricIndexOf(run, metric).get(endpoint);
        if (own) for (const value of own) values.push(value);
      }
      const found = values.length > 0 ? values : undefined;
      read.set(key, found);
      return found;
    },
  };
}

/**
 * A change the series is known to have had, as a noise history reads it: a recorded change (not
 * dismissed) of one endpoint's metric (`endpoint` is AGGREGATE_NAME for the aggregate), from its first
 * run on; or a change marker, which starts a new regime for every endpoint and metric.
 */
export type SeriesRegimeStart = { endpoint: string; metric: string; runId: string } | { at: number };

/**
 * The 1 vs 1 noise history of each (endpoint, metric): `trendValues` of the runs (oldest first, each
 * with its id and start time), each key's values since its own last known change at or before `until`
 * (the judged run's start), as stats/noise-band.ts `sinceLastKnownChange` cuts them. 1 vs 1 then learns
 * from their latest runs after any change point detected in them (`noiseHistory`, metric-comparison.ts).
 */
export function trendValuesSinceChanges(
  runs: readonly { runId: string; time: number; run: MeasuredValues }[],
  starts: readonly SeriesRegimeStart[],
  until: number,
): Map<string, number[]> {
  const points = new Map<string, { runId: string; time: number; value: number }[]>();
  for (const { runId, time, run } of runs) {
    eachTrendValue(run, (key, value) => {
      const list = points.get(key);
      if (list) list.push({ runId, time, value });
      else points.set(key, [{ runId, time, value }]);
    });
  }
  const markers: RegimeStart[] = starts.flatMap((start) => ("at" in start ? [{ at: start.at }] : []));
  return new Map(
    [...points].map(([key, list]) => {
      const recorded = starts.flatMap((start) =>
        "runId" in start && historyKey(start.endpoint, start.metric) === key ? [{ runId: start.runId }] : [],
      );
      return [key, sinceLastKnownChange(list, [...markers, ...recorded], until).map((point) => point.value)];
    }),
  );
}
