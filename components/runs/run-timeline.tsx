"use client";

import { TimelineChart, type TimelineChartLine, type TimelineChartRow } from "@/components/charts/timeline-chart";
import { Card } from "@/components/ui/card";
import { formatDuration, formatMs, formatNumber } from "@/server/domain/format";
import { EndpointPicker, useEndpointInUrl } from "./endpoint-picker";
import type { RunReportData } from "./types";

type Timeline = RunReportData["timelines"][number];

const THROUGHPUT_LINES: readonly TimelineChartLine[] = [
  {
    dataKey: "requestsPerSecond",
    name: "Requests/s",
    color: "var(--chart-1)",
    axis: "left",
    format: (value) => `${formatNumber(value)} /s`,
  },
  {
    dataKey: "failuresPerSecond",
    name: "Failures/s",
    color: "var(--bad)",
    axis: "left",
    format: (value) => `${formatNumber(value)} /s`,
  },
];
const USERS_LINE: TimelineChartLine = {
  dataKey: "users",
  name: "Users",
  color: "var(--chart-3)",
  axis: "right",
  dashed: true,
  format: (value) => formatNumber(value, 0),
};
const LATENCY_LINES: readonly TimelineChartLine[] = [
  { dataKey: "p50Ms", name: "p50", color: "var(--chart-2)", axis: "left", format: formatMs },
  { dataKey: "p95Ms", name: "p95", color: "var(--chart-4)", axis: "left", format: formatMs },
];

/**
 * The run's course over time, one endpoint (or the aggregate) at a time; which one lives in the URL
 * (`?timeline=GetListing`). Shown only for tools that write figures while the test runs (Locust's
 * history, artillery's periods) or every sample with its time (k6 NDJSON, counted second by second).
 */
export function RunTimeline({ timelines }: { timelines: RunReportData["timelines"] }) {
  const { selected, select } = useEndpointInUrl<Timeline>(timelines, "timeline");
  if (!selected) return null;

  const rows: TimelineChartRow[] = selected.rows.map((row) => ({ ...row }));
  const last = selected.rows[selected.rows.length - 1];
  const span = last ? formatDuration(last.seconds) : "";
  const perSecond = selected.windows === "per-second";
  const points = perSecond ? "one-second windows counted from the tool's samples" : "points the tool wrote";
  const thinned =
    selected.step > 1
      ? ` Showing one in every ${selected.step} of the ${formatNumber(selected.total, 0)} ${points}.`
      : perSecond
        ? ` ${formatNumber(selected.total, 0)} ${points}.`
        : ` ${formatNumber(selected.total, 0)} points, as the tool wrote them.`;

  return (
    <Card
      title="Over the run"
      data-testid="run-timeline"
      actions={<EndpointPicker items={timelines} selected={selected} onSelect={select} testId="timeline-select" />}
    >
      <p className="text-text-muted mb-2 text-xs">
        {selected.displayName} over {span}, window by window.{thinned}
      </p>
      <TimelineChart
        key={`${selected.endpoint}-throughput`}
        rows={rows}
        lines={selected.hasUsers ? [...THROUGHPUT_LINES, USERS_LINE] : THROUGHPUT_LINES}
        leftLabel="per second"
        rightLabel="users"
        label={`Requests and failures per second of ${selected.displayName} over the run`}
        testId="timeline-throughput"
      />
      {selected.hasLatency ? (
        <TimelineChart
          key={`${selected.endpoint}-latency`}
          rows={rows}
          lines={LATENCY_LINES}
          leftLabel="ms"
          alignRightAxis={selected.hasUsers}
          label={`p50 and p95 latency of ${selected.displayName} over the run`}
          testId="timeline-latency"
        />
      ) : (
        <p className="text-text-muted mt-2 text-xs" role="status">
          The tool wrote no latency percentiles per window for {selected.displayName}.
        </p>
      )}
    </Card>
  );
}
