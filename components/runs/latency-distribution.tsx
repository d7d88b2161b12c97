"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useId } from "react";
import { LatencyHistogram } from "@/components/charts/latency-histogram";
import { formatMs, formatNumber } from "@/server/domain/format";
import { Card } from "@/components/ui/card";
import type { RunReportData } from "./types";

/** The latency histogram of one endpoint at a time; which one lives in the URL (`?hist=GetListing`). */
export function LatencyDistribution({ histograms }: { histograms: RunReportData["histograms"] }) {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const selectId = useId();

  const first = histograms[0];
  if (!first) {
    return (
      <Card title="Latency distribution" data-testid="latency-distribution">
        <p className="text-sm text-text-muted" role="status">
          This run has no latency histogram: its format carries none. Formats with one per request (k6 NDJSON, hey and
          ghz CSV, ghz JSON with its details, JMeter JTL) and those with the tool&apos;s own histogram (Locust
          <code className="mx-1">--json</code>, hey&apos;s text report, vegeta&apos;s hist report) do.
        </p>
      </Card>
    );
  }
  const wanted = searchParams.get("hist");
  const selected = histograms.find((histogram) => histogram.endpoint === wanted) ?? first;
  const highest = selected.bars[selected.bars.length - 1];

  const onSelect = (endpoint: string) => {
    const params = new URLSearchParams(searchParams.toString());
    params.set("hist", endpoint);
    window.history.replaceState(null, "", `${pathname}?${params.toString()}`);
  };

  const summary = `${formatNumber(selected.total, 0)} calls in ${selected.bars.length} buckets, up to ${formatMs(highest?.upperMs)}`;

  return (
    <Card
      title="Latency distribution"
      data-testid="latency-distribution"
      actions={
        histograms.length > 1 ? (
          <div className="flex items-center gap-2 text-sm">
            <label htmlFor={selectId} className="text-text-muted">
              Endpoint
            </label>
            <select
              id={selectId}
              value={selected.endpoint}
              onChange={(event) => onSelect(event.target.value)}
              className="max-w-[14rem] rounded-md border border-border bg-surface px-2 py-1 text-sm"
              data-testid="histogram-select"
            >
              {histograms.map((histogram) => (
                <option key={histogram.endpoint} value={histogram.endpoint}>
                  {histogram.displayName}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <span className="text-sm text-text-muted">{selected.displayName}</span>
        )
      }
    >
      <p className="mb-2 text-xs text-text-muted">
        {selected.displayName}: {summary}. Hover a bar, or focus the chart and use the arrow keys, for its range and count.
      </p>
      <LatencyHistogram key={selected.endpoint} bars={selected.bars} label={`Latency histogram of ${selected.displayName}: ${summary}`} />
    </Card>
  );
}
