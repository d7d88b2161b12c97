"use client";

import { useRouter } from "next/navigation";
import { BucketChart } from "@/components/charts/bucket-chart";
import { Card } from "@/components/ui/card";
import { formatMs, formatNumber, formatPct } from "@/server/domain/format";
import { wordsOf } from "@/server/domain/result-kind";
import type { ResultKinds } from "@/server/domain/result-kind";
import { GRAIN_ADJECTIVE } from "@/server/domain/series/trend-rollup";
import type { RollupGrain } from "@/server/domain/series/trend-rollup";
import { pagePaths } from "@/server/domain/urls";
import { ERROR_RATE_CHART_LINE, errorRateTickDigits, metricChartLine, throughputChartLine, toChartMarkers } from "./trend-chart-data";
import type { EndpointTrendsData } from "./trend-chart-data";
import { NOISE_BAND_COLOR, TREND_LINE_STYLE } from "./trend-lines";

type BucketTrendData = NonNullable<EndpointTrendsData["buckets"]>;

const day = (epochMs: number) => new Date(epochMs).toISOString().slice(0, 10);

/** "Week of 2026-11-16 · 912 runs", "2026-11-16 · 40 runs". */
function describeBucket(grain: RollupGrain, point: { time: number; runs: number }): string {
  const runs = `${formatNumber(point.runs, 0)} ${point.runs === 1 ? "run" : "runs"}`;
  if (grain === "week") return `Week of ${day(point.time)} (Mon, UTC) · ${runs}`;
  return `${day(point.time)} (UTC) · ${runs}`;
}

/** The zoomed-out caption: what is drawn, from how many runs, and how to see runs. */
export function describeBuckets(grain: RollupGrain, totalRuns: number): string {
  return `${GRAIN_ADJECTIVE[grain]} summaries of ${formatNumber(totalRuns, 0)} runs — zoom in to see runs`;
}

/**
 * The trend page zoomed out (docs/rollups.md): latency, throughput, error rate and custom metrics by
 * bucket. Each latency line is the mean of the bucket's runs' percentile, the band their lowest to
 * highest p95, and, where every run of a bucket has a histogram, a dashed line the p95 of all their
 * requests pooled (exact). A click lists the bucket's runs on the run history page.
 */
export function BucketTrends({
  projectSlug,
  data,
  buckets,
  kind,
  filters,
}: {
  projectSlug: string;
  data: EndpointTrendsData;
  buckets: BucketTrendData;
  kind: ResultKinds;
  filters: { branch: string | null; label: string | null };
}) {
  const router = useRouter();
  const words = wordsOf(kind);
  const isBenchmark = kind === "benchmark";
  const { grain, points } = buckets;
  const describe = (point: { time: number; runs: number }) => describeBucket(grain, point);
  const openBucket = (point: { time: number; endTime: number }) => {
    const query = new URLSearchParams();
    if (filters.branch !== null) query.set("branch", filters.branch);
    if (filters.label !== null) query.set("label", filters.label);
    if (data.tool !== null) query.set("tool", data.tool);
    query.set("from", day(point.time));
    query.set("to", day(point.endTime - 1));
    router.push(pagePaths.runs(projectSlug, query));
  };
  const latencyLines = [
    { dataKey: "p50Ms", name: "p50, mean of runs", color: TREND_LINE_STYLE.p50.color, format: formatMs },
    { dataKey: "p95Ms", name: "p95, mean of runs", color: TREND_LINE_STYLE.p95.color, format: formatMs },
    { dataKey: "p99Ms", name: "p99, mean of runs", color: TREND_LINE_STYLE.p99.color, format: formatMs },
    ...(buckets.hasPooledPercentiles
      ? [{ dataKey: "pooledP95Ms", name: "p95 of all requests (pooled histograms, exact)", color: TREND_LINE_STYLE.max.color, dashed: true, format: formatMs }]
      : []),
  ];
  const markers = toChartMarkers(buckets.markers, "time", [], { slug: data.project.slug });
  const p95Band = {
    dataKey: "p95RangeMs",
    name: "p95, lowest–highest run",
    color: NOISE_BAND_COLOR,
    format: ([low, high]: [number, number]) => `${formatMs(low)} – ${formatMs(high)}`,
  };
  const hasThroughput = points.some((point) => point.throughput !== null);
  const errorRateDigits = errorRateTickDigits(points.map((point) => point.errorRate));
  const hasErrorRate = points.some((point) => (isBenchmark && point.errorRate === 0 ? false : point.errorRate !== null));

  return (
    <div className="space-y-4" data-testid="bucket-trends">
      <div className="space-y-1">
        <p className="text-sm font-medium" data-testid="trend-count">
          {describeBuckets(grain, buckets.totalRuns)}
        </p>
        <p className="text-text-muted text-xs" data-testid="bucket-legend">
          Each point is one {grain} of runs: a line is the mean of the runs&apos; percentile, the band their lowest to
          highest p95{buckets.hasPooledPercentiles ? ", the dashed line the p95 of every request pooled from the runs' histograms (exact; only where every run has one)" : ""}. Pick a
          shorter range, or click a {grain} to list its runs.
        </p>
      </div>
      <Card title={`${words.latencyTitle} by ${grain}`}>
        <BucketChart
          data={points}
          lines={latencyLines}
          band={p95Band}
          yLabel={isBenchmark ? "time/op" : "Latency (ms)"}
          yTickFormat={(value) => (value === 0 ? "0" : formatMs(value))}
          height={300}
          title={`${GRAIN_ADJECTIVE[grain]} latency: means of the runs' p50, p95 and p99 with the p95 range, ${points.length} buckets of ${buckets.totalRuns} runs`}
          testId="latency-chart"
          markers={markers}
          describe={describe}
          onSelectBucket={openBucket}
        />
      </Card>
      <div className="grid gap-4 lg:grid-cols-2">
        {hasThroughput && (
          <Card title={`Throughput by ${grain}`}>
            <BucketChart
              data={points}
              lines={[{ ...throughputChartLine(kind), name: `${throughputChartLine(kind).name}, mean of runs` }]}
              yLabel={words.throughputUnit}
              height={200}
              title={`${GRAIN_ADJECTIVE[grain]} throughput, mean of the runs, ${points.length} buckets`}
              testId="throughput-chart"
              describe={describe}
              onSelectBucket={openBucket}
            />
          </Card>
        )}
        {hasErrorRate && (
          <Card title={`Error rate by ${grain}`}>
            <BucketChart
              data={points}
              lines={[{ ...ERROR_RATE_CHART_LINE, name: "failures / requests of all runs" }]}
              yLabel="errors (%)"
              yTickFormat={(value) => formatPct(value, errorRateDigits)}
              height={200}
              title={`${GRAIN_ADJECTIVE[grain]} error rate, failures over requests of the bucket's runs, ${points.length} buckets`}
              testId="error-rate-chart"
              describe={describe}
              onSelectBucket={openBucket}
            />
          </Card>
        )}
      </div>
      {buckets.metrics.length > 0 && (
        <div className="grid gap-4 lg:grid-cols-2" data-testid="metric-buckets">
          {buckets.metrics.map((metric) => {
            const line = metricChartLine(metric);
            return (
              <Card key={metric.key} title={`${line.name} by ${grain}`}>
                <BucketChart
                  data={metric.points}
                  lines={[{ ...line, name: `${line.name}, mean of runs` }]}
                  band={{ dataKey: "range", name: "lowest–highest run", color: NOISE_BAND_COLOR, format: ([low, high]) => `${line.format(low)} – ${line.format(high)}` }}
                  yLabel={metric.unit ?? ""}
                  height={200}
                  title={`${line.name} by ${grain}: mean and range of the runs`}
                  describe={describe}
                  onSelectBucket={openBucket}
                />
              </Card>
            );
          })}
        </div>
      )}
    </div>
  );
}

