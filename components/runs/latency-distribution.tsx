"use client";

import { LatencyHistogram } from "@/components/charts/latency-histogram";
import { formatMs, formatNumber } from "@/server/domain/format";
import { Card } from "@/components/ui/card";
import type { ResultKinds } from "@/server/domain/result-kind";
import { EndpointPicker, useEndpointInUrl } from "./endpoint-picker";
import type { RunReportData } from "./types";

/**
 * The latency histogram of one endpoint at a time (a benchmark's: of its samples' time per operation);
 * which one lives in the URL (`?hist=GetListing`).
 */
export function LatencyDistribution({ histograms, kind }: { histograms: RunReportData["histograms"]; kind: ResultKinds }) {
  const { selected, select } = useEndpointInUrl(histograms, "hist");
  const isBenchmarks = kind === "benchmark";
  const title = isBenchmarks ? "Time per operation distribution" : "Latency distribution";
  if (!selected) {
    return (
      <Card title={title} data-testid="latency-distribution">
        {isBenchmarks ? (
          <p className="text-sm text-text-muted" role="status">
            This run has no histogram: its file keeps no samples, only what the tool summed up. Formats with each
            sample&apos;s time (go test text and JSON, hyperfine JSON, pytest-benchmark JSON, Google Benchmark with
            repetitions) have one.
          </p>
        ) : (
          <p className="text-sm text-text-muted" role="status">
            This run has no latency histogram: its format carries none. Formats with one per request (k6 NDJSON, hey and
            ghz CSV, ghz JSON with its details, JMeter JTL) and those with the tool&apos;s own histogram (Locust
            <code className="mx-1">--json</code>, hey&apos;s text report, vegeta&apos;s hist report) do.
          </p>
        )}
      </Card>
    );
  }
  const highest = selected.bars[selected.bars.length - 1];

  const summary = `${formatNumber(selected.total, 0)} ${isBenchmarks ? "samples" : "calls"} in ${selected.bars.length} buckets, up to ${formatMs(highest?.upperMs)}`;

  return (
    <Card
      title={title}
      data-testid="latency-distribution"
      actions={<EndpointPicker items={histograms} selected={selected} onSelect={select} testId="histogram-select" />}
    >
      <p className="mb-2 text-xs text-text-muted">
        {selected.displayName}: {summary}. Hover a bar, or focus the chart and use the arrow keys, for its range and count.
      </p>
      <LatencyHistogram key={selected.endpoint} bars={selected.bars} label={`${isBenchmarks ? "Time per operation" : "Latency"} histogram of ${selected.displayName}: ${summary}`} />
    </Card>
  );
}
