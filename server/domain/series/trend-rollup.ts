/**
 * Rollups: a series' runs summarised by day or week (UTC), so a trend over years reads a few
 * hundred rows instead of every run (docs/rollups.md). Pure: bucket arithmetic, merging summaries, and
 * the points a bucket chart draws. The SQL that fills and reads them is server/services/trends/trend-rollups.ts.
 *
 * What a bucket keeps, and why each is exact when buckets are merged (a day's summaries into a
 * series' week, or several branches' series into the page's "every branch"):
 * - counts and sums (runs, requests, failures, and per column the number of values and their sum) add;
 * - min and max take the min and max;
 * - the latency histograms pooled: HDR buckets' edges depend only on the precision, never on the data
 *   (latency-histogram.ts), so adding two pooled histograms is the histogram of all their runs'
 *   samples (pooled-percentile.ts:poolHistograms). A bucket keeps one only when every run has one: a
 *   percentile pooled over some of the runs would be a different number under the same name.
 * A mean of per-run p95s is not a p95 of the bucket's requests: the chart names it "mean of runs' p95",
 * draws the runs' min–max beside it, and a pooled percentile only where the histograms make it exact.
 */
import { z } from "zod";
import type { HistogramBucket } from "../run";
import { poolHistograms, readPooledPercentile } from "../stats/pooled-percentile";

/**
 * Stored grains. No hours: the trend page's shortest range (30 days) never draws hourly buckets, and
 * hourly rows of a series with a run or two an hour copied the results table (5.4 GB of rollups
 * beside 1.8 GB of results at 3.15M rows, docs/rollups.md).
 */
export const ROLLUP_GRAINS = ["day", "week"] as const;
export type RollupGrain = (typeof ROLLUP_GRAINS)[number];

const HOUR_MS = 3_600_000;
export const GRAIN_MS: Readonly<Record<RollupGrain, number>> = { day: 24 * HOUR_MS, week: 7 * 24 * HOUR_MS };

/**
 * The most runs the trend page draws run by run: above it, a zoomed-out view draws buckets. Why 20,000:
 * the run-level read numbers every run of the range in one statement, ~3 µs a run on PostgreSQL (33,000
 * runs ≈ 100 ms, trend-series.ts), so 20,000 runs stay near 60 ms; the bucket read costs the same at any
 * size (measured by npm run bench -- --pages, docs/rollups.md).
 */
export const RUN_LEVEL_MAX_RUNS = 20_000;

/** The start (UTC) of the bucket of `grain` holding `time`: the day, the week from Monday 00:00. */
export function bucketStartOf(time: Date, grain: RollupGrain): Date {
  const start = new Date(time.getTime());
  start.setUTCHours(0, 0, 0, 0);
  if (grain === "day") return start;
  // getUTCDay: 0 is Sunday; a week starts on Monday (ISO 8601, as PostgreSQL's date_trunc('week')).
  start.setUTCDate(start.getUTCDate() - ((start.getUTCDay() + 6) % 7));
  return start;
}

/**
 * The finest grain whose buckets over [first, last] number at most `maxPoints` (weeks however long the
 * span: ten years are 522 weeks, a chart's width). Finer is better: each bucket hides less.
 */
export function chooseGrain(first: Date, last: Date, maxPoints: number): RollupGrain {
  for (const grain of ROLLUP_GRAINS) {
    const buckets = (bucketStartOf(last, grain).getTime() - bucketStartOf(first, grain).getTime()) / GRAIN_MS[grain] + 1;
    if (buckets <= maxPoints) return grain;
  }
  return "week";
}

/** The finite values of one column (or custom metric) in a bucket: how many, their sum, min and max. */
export const rollupStatSchema = z.object({ n: z.number().int().nonnegative(), sum: z.number(), min: z.number(), max: z.number() });
export type RollupStat = z.infer<typeof rollupStatSchema>;

/** The results columns a bucket summarises. */
export const ROLLUP_COLUMNS = ["p50Ms", "p90Ms", "p95Ms", "p99Ms", "meanMs", "maxMs", "errorRate", "throughput"] as const;
export type RollupColumn = (typeof ROLLUP_COLUMNS)[number];

/** `stats` as stored: a column without a finite value in the bucket is absent (never a 0). */
export const rollupStatsSchema = z.partialRecord(z.enum(ROLLUP_COLUMNS), rollupStatSchema);
export const rollupMetricsSchema = z.record(z.string(), rollupStatSchema);
export const rollupHistogramSchema = z.array(z.object({ upperMs: z.number(), count: z.number().nonnegative() }));

/** One bucket of one series (or several merged). */
export interface RollupBucket {
  bucketStart: Date;
  runs: number;
  requests: number | null;
  failures: number | null;
  firstRunAt: Date;
  lastRunAt: Date;
  stats: Partial<Record<RollupColumn, RollupStat>>;
  metrics: Record<string, RollupStat>;
  histogram: HistogramBucket[] | null;
}

/** Two stats of the same column merged (the min of mins, the sum of sums…). */
export function mergeStat(a: RollupStat | undefined, b: RollupStat | undefined): RollupStat | undefined {
  if (!a) return b;
  if (!b) return a;
  return { n: a.n + b.n, sum: a.sum + b.sum, min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) };
}

function mergeStatRecords<K extends string>(a: Partial<Record<K, RollupStat>>, b: Partial<Record<K, RollupStat>>): Partial<Record<K, RollupStat>> {
  const merged: Partial<Record<K, RollupStat>> = { ...a };
  for (const key of Object.keys(b) as K[]) merged[key] = mergeStat(a[key], b[key]);
  return merged;
}

const sumOrNull = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : a + b);

/** Two buckets of one time slot merged: exact for every field (see the module comment). */
export function mergeBuckets(a: RollupBucket, b: RollupBucket): RollupBucket {
  return {
    bucketStart: a.bucketStart,
    runs: a.runs + b.runs,
    requests: sumOrNull(a.requests, b.requests),
    failures: sumOrNull(a.failures, b.failures),
    firstRunAt: a.firstRunAt <= b.firstRunAt ? a.firstRunAt : b.firstRunAt,
    lastRunAt: a.lastRunAt >= b.lastRunAt ? a.lastRunAt : b.lastRunAt,
    stats: mergeStatRecords(a.stats, b.stats),
    metrics: mergeStatRecords(a.metrics, b.metrics) as Record<string, RollupStat>,
    // Pooled only while every run has one: one side without makes the whole bucket without.
    histogram: a.histogram && b.histogram ? poolHistograms([a.histogram, b.histogram]) : null,
  };
}

/** Buckets of several series (branches, labels…) → one per time slot, oldest first. */
export function combineSeriesBuckets(buckets: readonly RollupBucket[]): RollupBucket[] {
  const bySlot = new Map<number, RollupBucket>();
  for (const bucket of buckets) {
    const slot = bucket.bucketStart.getTime();
    const held = bySlot.get(slot);
    bySlot.set(slot, held ? mergeBuckets(held, bucket) : bucket);
  }
  return [...bySlot.values()].sort((a, b) => a.bucketStart.getTime() - b.bucketStart.getTime());
}

/** What a bucket chart draws of one bucket: null where the bucket's runs gave no value (never 0). */
export interface BucketPoint {
  /** The bucket's start (epoch ms): the x of the point, and what a click zooms into. */
  time: number;
  /** Its end (exclusive, epoch ms). */
  endTime: number;
  runs: number;
  firstRunTime: number;
  lastRunTime: number;
  /** Means of the runs' values (sum / n over the runs that have one). */
  p50Ms: number | null;
  p90Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  meanMs: number | null;
  maxMs: number | null;
  throughput: number | null;
  /** Failures / requests over the bucket's runs (pooled), else the mean of the runs' error rates. */
  errorRate: number | null;
  /** The lowest and highest run p95 of the bucket, drawn as a band. */
  p95RangeMs: [number, number] | null;
  /** The highest max latency of any run in the bucket. */
  worstMaxMs: number | null;
  /** Percentiles of every request of the bucket, from its pooled histogram; null without one. */
  pooledP50Ms: number | null;
  pooledP95Ms: number | null;
  pooledP99Ms: number | null;
}

const meanOf = (stat: RollupStat | undefined) => (stat && stat.n > 0 ? stat.sum / stat.n : null);

function pooledPercentile(histogram: HistogramBucket[] | null, percentile: number): number | null {
  if (!histogram) return null;
  const reading = readPooledPercentile([histogram], percentile);
  return reading.status === "ok" ? reading.valueMs : null;
}

/** A bucket → its chart point. */
export function toBucketPoint(bucket: RollupBucket, grain: RollupGrain): BucketPoint {
  const { stats } = bucket;
  const p95 = stats.p95Ms;
  return {
    time: bucket.bucketStart.getTime(),
    endTime: bucket.bucketStart.getTime() + GRAIN_MS[grain],
    runs: bucket.runs,
    firstRunTime: bucket.firstRunAt.getTime(),
    lastRunTime: bucket.lastRunAt.getTime(),
    p50Ms: meanOf(stats.p50Ms),
    p90Ms: meanOf(stats.p90Ms),
    p95Ms: meanOf(p95),
    p99Ms: meanOf(stats.p99Ms),
    meanMs: meanOf(stats.meanMs),
    maxMs: meanOf(stats.maxMs),
    throughput: meanOf(stats.throughput),
    errorRate:
      bucket.requests !== null && bucket.requests > 0 && bucket.failures !== null
        ? bucket.failures / bucket.requests
        : meanOf(stats.errorRate),
    p95RangeMs: p95 && p95.n > 0 ? [p95.min, p95.max] : null,
    worstMaxMs: stats.maxMs && stats.maxMs.n > 0 ? stats.maxMs.max : null,
    pooledP50Ms: pooledPercentile(bucket.histogram, 50),
    pooledP95Ms: pooledPercentile(bucket.histogram, 95),
    pooledP99Ms: pooledPercentile(bucket.histogram, 99),
  };
}

/** A custom metric's bucket point: the mean of its runs' values and their range. */
export interface MetricBucketPoint {
  time: number;
  endTime: number;
  runs: number;
  value: number;
  range: [number, number];
}

/** Every custom metric's bucket points, by key (a key's buckets without a value are left out). */
export function toMetricBucketPoints(buckets: readonly RollupBucket[], grain: RollupGrain): Map<string, MetricBucketPoint[]> {
  const byKey = new Map<string, MetricBucketPoint[]>();
  for (const bucket of buckets) {
    for (const [key, stat] of Object.entries(bucket.metrics)) {
      if (stat.n === 0) continue;
      const points = byKey.get(key) ?? [];
      points.push({
        time: bucket.bucketStart.getTime(),
        endTime: bucket.bucketStart.getTime() + GRAIN_MS[grain],
        runs: stat.n,
        value: stat.sum / stat.n,
        range: [stat.min, stat.max],
      });
      byKey.set(key, points);
    }
  }
  return byKey;
}

/** "Weekly summaries of 48,210 runs" words for a grain. */
export const GRAIN_ADJECTIVE: Readonly<Record<RollupGrain, string>> = { day: "Daily", week: "Weekly" };
