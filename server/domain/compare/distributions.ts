/**
 * Base vs head as latency distributions, not only percentiles: each side's histograms pooled across its
 * rounds, the two CDFs as a chart series, a few pooled percentiles, and a binned two-sample KS test
 * (stats/binned-ks.ts). See docs/statistics.md for what the test does and does not prove.
 *
 * Pooling is exact: counts add bucket by bucket, never percentiles averaged. That is only possible when
 * the rounds' buckets line up — HDR histograms (stats/latency-histogram.ts) share one fixed grid; Locust
 * counts exact (rounded) values; vegeta's hist report uses the buckets the user asked for. When one
 * round's bucket with samples straddles another round's edge (hey's text report picks its 10 buckets from
 * each run's own min..max), the rounds cannot be added exactly and the side says so instead.
 */
import type { HistogramBucket } from "../run";
import { AGGREGATE_NAME } from "../run";
import { resultKindOf } from "../result-kind";
import { binnedKsTest, HistogramCdf, type BinnedKsResult } from "../stats/binned-ks";
import { insufficientData, isInsufficient, type InsufficientData } from "../stats/insufficient";
import { isPoolableHistogram, readPooledPercentile } from "../stats/pooled-percentile";
import type { ComparableRun } from "./compare-runs";

/** Pooled percentiles shown beside the chart. */
export const DISTRIBUTION_PERCENTILES = [50, 90, 95, 99, 99.9] as const;

/** The chart's points per CDF: enough for a smooth log axis, few enough for the page payload. */
export const MAX_CDF_POINTS = 160;

/** Tools whose histograms count exact (rounded) values, one bucket per value: F is known everywhere. */
const EXACT_VALUE_TOOLS: ReadonlySet<string> = new Set(["locust"]);

export interface DistributionSide {
  runs: number;
  runsWithHistogram: number;
  /** Requests in the pooled histogram (0 when unavailable). */
  count: number;
}

/** One x of the chart: the share of requests at or below `ms` on each side (0..1). */
export interface CdfPoint {
  ms: number;
  base: number;
  head: number;
}

export interface PooledQuantile {
  percentile: number;
  baseMs: number | null;
  headMs: number | null;
}

export interface AvailableDistribution {
  status: "ok";
  endpoint: string;
  base: DistributionSide;
  head: DistributionSide;
  cdf: CdfPoint[];
  quantiles: PooledQuantile[];
  test: BinnedKsResult;
}

export interface UnavailableDistribution {
  status: "unavailable";
  endpoint: string;
  base: DistributionSide;
  head: DistributionSide;
  /** Why there is no overlay, in a sentence for the page. */
  reason: string;
}

export type EndpointDistribution = AvailableDistribution | UnavailableDistribution;

export interface DistributionComparison {
  /** The aggregate first, then each endpoint both sides have, in base order. */
  endpoints: EndpointDistribution[];
  /** The endpoint (not the aggregate) whose shape changed most (largest KS D); null when none compares. */
  biggestChange: string | null;
}

export interface PooledHistogram {
  status: "ok";
  buckets: HistogramBucket[];
}

/**
 * Adds histograms bucket by bucket. Exact when their buckets line up (see the header); otherwise
 * insufficient data, because spreading a bucket's count over another's edges would invent positions.
 * `exactValues`: each bucket's count sits at its upper edge (Locust), so any edges add exactly.
 */
export function addAlignedHistograms(
  histograms: readonly (readonly HistogramBucket[])[],
  options: { exactValues?: boolean } = {},
): PooledHistogram | InsufficientData {
  if (histograms.length === 0) return insufficientData("insufficient data: no histogram to pool");
  // A histogram whose edges do not ascend, each once (stored before uploads were checked for it:
  // validate.ts), has no buckets to add.
  if (!histograms.every((histogram) => isPoolableHistogram(histogram))) {
    return insufficientData("a round's histogram has upper edges that do not ascend, each once, so its buckets cannot be added");
  }
  const edges = [...new Set(histograms.flatMap((histogram) => histogram.map((bucket) => bucket.upperMs)))].sort((a, b) => a - b);
  if (!options.exactValues) {
    for (const histogram of histograms) {
      let lower = 0;
      // The first edge above `lower`: buckets ascend, so one walk over the edges per histogram.
      let next = 0;
      for (const bucket of histogram) {
        while (next < edges.length && edges[next]! <= lower) next += 1;
        const straddled = bucket.count > 0 && next < edges.length && edges[next]! < bucket.upperMs;
        if (straddled) {
          return insufficientData(
            `the rounds' histograms have different bucket edges (a bucket ${lower}–${bucket.upperMs} ms of one holds another's edge), so they cannot be added exactly`,
          );
        }
        lower = bucket.upperMs;
      }
    }
  }
  const counts = new Map<number, number>(edges.map((edge) => [edge, 0]));
  for (const histogram of histograms) {
    for (const bucket of histogram) counts.set(bucket.upperMs, (counts.get(bucket.upperMs) ?? 0) + bucket.count);
  }
  return { status: "ok", buckets: edges.map((upperMs) => ({ upperMs, count: counts.get(upperMs) ?? 0 })) };
}

/**
 * Both sides' CDFs on one log-spaced grid of latencies (ms > 0), as steps: at x, the share of requests
 * in buckets whose upper edge is ≤ x. The grid runs from the smallest to the largest edge of either side
 * and includes `alsoAt` (the KS gap), so the chart shows the gap the test reports.
 */
export function toCdfSeries(
  base: readonly HistogramBucket[],
  head: readonly HistogramBucket[],
  options: { maxPoints?: number; alsoAt?: readonly number[] } = {},
): CdfPoint[] {
  const maxPoints = options.maxPoints ?? MAX_CDF_POINTS;
  const baseCdf = new HistogramCdf(base);
  const headCdf = new HistogramCdf(head);
  const edges = [...new Set([...baseCdf.edges, ...headCdf.edges])].filter((edge) => edge > 0).sort((a, b) => a - b);
  const low = edges[0];
  const high = edges[edges.length - 1];
  if (low === undefined || high === undefined) return [];
  let xs: number[];
  if (edges.length <= maxPoints) {
    xs = edges;
  } else {
    const steps = maxPoints - 1;
    const ratio = Math.log(high / low);
    xs = Array.from({ length: maxPoints }, (_, index) => (index === steps ? high : low * Math.exp((ratio * index) / steps)));
  }
  xs = [...new Set([...xs, ...(options.alsoAt ?? []).filter((x) => x >= low && x <= high)])].sort((a, b) => a - b);
  return xs.map((ms) => ({ ms: Number(ms.toPrecision(6)), base: baseCdf.stepAt(ms), head: headCdf.stepAt(ms) }));
}

type Side = "base" | "head";

function histogramOf(run: ComparableRun, endpoint: string): HistogramBucket[] | null {
  if (endpoint === AGGREGATE_NAME) return run.aggregate.histogram;
  return run.endpoints.find((candidate) => candidate.name === endpoint)?.histogram ?? null;
}

function sideInfo(runs: readonly ComparableRun[], endpoint: string, count: number): DistributionSide {
  return { runs: runs.length, runsWithHistogram: runs.filter((run) => (histogramOf(run, endpoint)?.length ?? 0) > 0).length, count };
}

/** Whether `endpoint` is a benchmark in these runs (../result-kind.ts), for the words of a missing histogram. */
function isBenchmarkIn(runs: readonly ComparableRun[], endpoint: string): boolean {
  const results = runs.map((run) => (endpoint === AGGREGATE_NAME ? run.aggregate : run.endpoints.find((candidate) => candidate.name === endpoint)));
  return results.some((result) => result !== undefined && resultKindOf(result) === "benchmark");
}

function missingSentence(side: Side, info: DistributionSide, isBenchmark: boolean): string {
  if (info.runsWithHistogram === 0 && isBenchmark) {
    return `No ${side} run carries a histogram of this benchmark: its file keeps no samples, only what the tool summed up (go test text and JSON, hyperfine JSON, pytest-benchmark JSON and Google Benchmark with repetitions keep them).`;
  }
  if (info.runsWithHistogram === 0) {
    return `No ${side} run carries a latency histogram here: its format keeps none (per-request formats do — k6 NDJSON, hey and ghz CSV, ghz JSON with details, JMeter JTL — and Locust --json, hey's text report, vegeta's hist report).`;
  }
  return `Only ${info.runsWithHistogram} of the ${info.runs} ${side} runs carry a histogram here; pooling some rounds only would not be the side's distribution.`;
}

/** One endpoint's (or the aggregate's) overlay and test. */
export function compareEndpointDistribution(
  baseRuns: readonly ComparableRun[],
  headRuns: readonly ComparableRun[],
  endpoint: string,
): EndpointDistribution {
  const unavailable = (reason: string, counts: Record<Side, number> = { base: 0, head: 0 }): UnavailableDistribution => ({
    status: "unavailable",
    endpoint,
    base: sideInfo(baseRuns, endpoint, counts.base),
    head: sideInfo(headRuns, endpoint, counts.head),
    reason,
  });
  const tools = new Set([...baseRuns, ...headRuns].map((run) => run.tool));
  if (tools.size > 1) return unavailable(`Runs of different tools (${[...tools].join(", ")}) measure latency differently; their distributions are not compared.`);
  const exactValues = [...tools].every((tool) => EXACT_VALUE_TOOLS.has(tool));

  const pooled: Partial<Record<Side, HistogramBucket[]>> = {};
  for (const [side, runs] of [["base", baseRuns], ["head", headRuns]] as const) {
    const info = sideInfo(runs, endpoint, 0);
    if (info.runsWithHistogram < info.runs || info.runs === 0) return unavailable(missingSentence(side, info, isBenchmarkIn(runs, endpoint)));
    const result = addAlignedHistograms(runs.map((run) => histogramOf(run, endpoint) ?? []), { exactValues });
    if (isInsufficient(result)) return unavailable(`The ${side} side cannot be pooled: ${result.reason}.`);
    pooled[side] = result.buckets;
  }
  const base = pooled.base!;
  const head = pooled.head!;
  const test = binnedKsTest(base, head, { exactValues });
  const total = (buckets: readonly HistogramBucket[]) => buckets.reduce((sum, bucket) => sum + bucket.count, 0);
  if (isInsufficient(test)) return unavailable(test.reason, { base: total(base), head: total(head) });
  const read = (buckets: HistogramBucket[], percentile: number) => {
    const reading = readPooledPercentile([buckets], percentile);
    return isInsufficient(reading) ? null : reading.valueMs;
  };
  return {
    status: "ok",
    endpoint,
    base: sideInfo(baseRuns, endpoint, test.baseCount),
    head: sideInfo(headRuns, endpoint, test.headCount),
    cdf: toCdfSeries(base, head, { alsoAt: [test.atMs] }),
    quantiles: DISTRIBUTION_PERCENTILES.map((percentile) => ({ percentile, baseMs: read(base, percentile), headMs: read(head, percentile) })),
    test,
  };
}

/** The aggregate's and every shared endpoint's distributions, and which endpoint's shape changed most. */
export function compareDistributions(baseRuns: readonly ComparableRun[], headRuns: readonly ComparableRun[]): DistributionComparison {
  const headNames = new Set(headRuns.flatMap((run) => run.endpoints.map((endpoint) => endpoint.name)));
  const shared = [...new Set(baseRuns.flatMap((run) => run.endpoints.map((endpoint) => endpoint.name)))].filter((name) => headNames.has(name));
  const endpoints = [AGGREGATE_NAME, ...shared].map((name) => compareEndpointDistribution(baseRuns, headRuns, name));
  let biggestChange: string | null = null;
  let largest = -1;
  for (const entry of endpoints) {
    if (entry.endpoint !== AGGREGATE_NAME && entry.status === "ok" && entry.test.statistic > largest) {
      largest = entry.test.statistic;
      biggestChange = entry.endpoint;
    }
  }
  return { endpoints, biggestChange };
}
