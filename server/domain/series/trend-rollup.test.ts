import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { latencyHistogramOf } from "../stats/latency-histogram";
import { readPooledPercentile } from "../stats/pooled-percentile";
import { bucketStartOf, chooseGrain, combineSeriesBuckets, mergeBuckets, toBucketPoint, toMetricBucketPoints } from "./trend-rollup";
import type { RollupBucket } from "./trend-rollup";

/** hey's per-request response times (seconds) of a real run, in ms. */
const HEY_SAMPLES_MS = readFileSync("/work/shared/fixtures/hey/baseline/csv/hey.csv", "utf8")
  .trim()
  .split("\n")
  .slice(1)
  .map((line) => Number(line.split(",")[0]) * 1000);

const at = (iso: string) => new Date(iso);

function bucketOf(samples: readonly number[], overrides: Partial<RollupBucket> = {}): RollupBucket {
  const sorted = [...samples].sort((a, b) => a - b);
  const p95 = sorted[Math.floor(0.95 * (sorted.length - 1))]!;
  return {
    bucketStart: at("2026-11-16T00:00:00Z"),
    runs: 1,
    requests: samples.length,
    failures: 1,
    firstRunAt: at("2026-11-16T10:00:00Z"),
    lastRunAt: at("2026-11-16T10:00:00Z"),
    stats: { p95Ms: { n: 1, sum: p95, min: p95, max: p95 } },
    metrics: { cpu: { n: 1, sum: 40, min: 40, max: 40 } },
    histogram: latencyHistogramOf(samples),
    ...overrides,
  };
}

describe("bucketStartOf", () => {
  it("truncates to the UTC day, and the week from Monday", () => {
    const time = at("2026-11-22T17:45:12.345Z"); // a Sunday
    expect(bucketStartOf(time, "day").toISOString()).toBe("2026-11-22T00:00:00.000Z");
    expect(bucketStartOf(time, "week").toISOString()).toBe("2026-11-16T00:00:00.000Z");
    expect(bucketStartOf(at("2026-11-16T00:00:00Z"), "week").toISOString()).toBe("2026-11-16T00:00:00.000Z");
  });
});

describe("chooseGrain", () => {
  it("picks the finest grain whose buckets fit the chart", () => {
    expect(chooseGrain(at("2026-11-01T00:00:00Z"), at("2026-11-10T00:00:00Z"), 300)).toBe("day"); // 10 days
    expect(chooseGrain(at("2026-01-01T00:00:00Z"), at("2026-09-01T00:00:00Z"), 300)).toBe("day"); // 244 days
    expect(chooseGrain(at("2016-01-01T00:00:00Z"), at("2026-01-01T00:00:00Z"), 300)).toBe("week"); // 10 years: 523 weeks, still weeks
  });
});

describe("merging buckets", () => {
  const first = HEY_SAMPLES_MS.slice(0, 250);
  const second = HEY_SAMPLES_MS.slice(250);

  it("pools HDR histograms exactly: merged buckets read the percentiles of all samples together", () => {
    const merged = mergeBuckets(bucketOf(first), bucketOf(second));
    const whole = latencyHistogramOf(HEY_SAMPLES_MS)!;
    expect(merged.histogram).toEqual(whole);
    const point = toBucketPoint(merged, "week");
    const direct = readPooledPercentile([whole], 95);
    expect(direct.status).toBe("ok");
    expect(point.pooledP95Ms).toBe(direct.status === "ok" ? direct.valueMs : null);
  });

  it("adds counts and sums, keeps min and max, and pools the error rate as failures over requests", () => {
    const a = bucketOf(first, { requests: 100, failures: 1, stats: { p95Ms: { n: 2, sum: 20, min: 8, max: 12 } } });
    const b = bucketOf(second, {
      requests: 300,
      failures: 9,
      lastRunAt: at("2026-11-18T10:00:00Z"),
      stats: { p95Ms: { n: 1, sum: 30, min: 30, max: 30 }, throughput: { n: 1, sum: 50, min: 50, max: 50 } },
    });
    const point = toBucketPoint(mergeBuckets(a, b), "week");
    expect(point.runs).toBe(2);
    expect(point.p95Ms).toBeCloseTo(50 / 3, 12);
    expect(point.p95RangeMs).toEqual([8, 30]);
    expect(point.throughput).toBe(50);
    expect(point.p50Ms).toBeNull(); // no run gave a p50: null, never 0
    expect(point.errorRate).toBeCloseTo(10 / 400, 12);
    expect(point.lastRunTime).toBe(at("2026-11-18T10:00:00Z").getTime());
    expect(point.endTime - point.time).toBe(7 * 86_400_000);
  });

  it("keeps a pooled histogram only when every run of the bucket has one", () => {
    const merged = mergeBuckets(bucketOf(first), bucketOf(second, { histogram: null }));
    expect(merged.histogram).toBeNull();
    expect(toBucketPoint(merged, "day").pooledP95Ms).toBeNull();
  });

  it("combines several series' buckets per time slot, oldest first", () => {
    const later = at("2026-11-23T00:00:00Z");
    const combined = combineSeriesBuckets([
      bucketOf(first, { bucketStart: later }),
      bucketOf(first),
      bucketOf(second),
    ]);
    expect(combined.map((bucket) => [bucket.bucketStart.toISOString(), bucket.runs])).toEqual([
      ["2026-11-16T00:00:00.000Z", 2],
      ["2026-11-23T00:00:00.000Z", 1],
    ]);
    expect(toMetricBucketPoints(combined, "week").get("cpu")?.map((point) => [point.runs, point.value])).toEqual([
      [2, 40],
      [1, 40],
    ]);
  });
});
