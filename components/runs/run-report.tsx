"use client";

import { useSuspenseQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { countNouns, wordsOf } from "@/server/domain/result-kind";
import type { ResultKind } from "@/server/domain/result-kind";
import { pagePaths } from "@/server/domain/urls";
import { CustomMetricsTable } from "./custom-metrics-table";
import { EndpointTable } from "./endpoint-table";
import { LatencyDistribution } from "./latency-distribution";
import { ReportSection } from "./report-section";
import { RunTimeline } from "./run-timeline";
import { RunGate } from "./run-gate";
import { RunHeader } from "./run-header";
import { RunLead } from "./run-lead";
import { IncidentsStartedHere } from "./run-incidents";
import { SlaChecks } from "./sla-checks";
import { StatusAndErrors } from "./status-and-errors";
import { ToolChecks } from "./tool-checks";

/**
 * The run report: header (with the gate's outcome, its reason and largest changes right under the title), the incidents that started at this run, its CI gate, per-endpoint (or per-benchmark) table, latency distribution, the run's timeline, custom
 * metrics, status codes and errors, the tool's own thresholds and checks; sections a run has no data for
 * (a benchmark's timeline, status codes) are left out. Data comes prefetched from the server (no spinner on
 * first paint). Relative times count from when the data was fetched, which hydrates with the data,
 * so the server and the browser render the same text.
 */
export function RunReport({ project, id, baseUrl }: { project: string; id: string; baseUrl: string }) {
  const trpc = useTRPC();
  const { data: report, dataUpdatedAt } = useSuspenseQuery(trpc.run.get.queryOptions({ project, id, baseUrl }));

  const endpointCount = report.endpoints.length;
  const { kind } = report.run;
  const words = wordsOf(kind);
  const kinds = new Map(report.endpoints.map((row) => [row.name, row.kind]));
  const kindOf = (endpoint: string | null): ResultKind =>
    (endpoint === null ? report.aggregate?.kind : kinds.get(endpoint)) ??
    (kind === "benchmark" ? "benchmark" : "endpoint");
  const description =
    endpointCount === 0
      ? `The tool reported only the aggregate for this run, no per-${words.noun} numbers. Latency in milliseconds.`
      : kind === "benchmark"
        ? `${countNouns(endpointCount, kind)}, each judged on its own (no aggregate: a mean over unrelated benchmarks means nothing); sort by any column (its header, or the menu on a phone), click a benchmark for its trends. Time per operation in ns, µs or ms.`
        : `${countNouns(endpointCount, kind)}; sort by any column (its header, or the menu on a phone), click ${kind === "mixed" ? "a name" : "an endpoint"} for its trends. Latency in milliseconds.`;
  return (
    <div className="flex flex-col gap-6" data-testid="run-report">
      <RunHeader report={report} now={dataUpdatedAt} lead={<RunLead report={report} kindOf={kindOf} />} />

      <IncidentsStartedHere slug={report.project.slug} incidents={report.incidentsStarted} />

      <RunGate gate={report.gate} kind={kind} kindOf={kindOf} slug={report.project.slug} />

      <ReportSection id="endpoints" title={words.nounsTitle} description={description}>
        <EndpointTable
          kind={kind}
          endpoints={report.endpoints}
          aggregate={report.aggregate}
          showSla={report.grade !== null}
        />
      </ReportSection>

      <SlaChecks grade={report.grade} settingsHref={pagePaths.settings(report.project.slug)} kind={kind} />

      <LatencyDistribution histograms={report.histograms} kind={kind} />
      <RunTimeline timelines={report.timelines} />

      <ToolChecks thresholds={report.thresholds} checks={report.checks} tool={report.run.tool} />
      <CustomMetricsTable metrics={report.metrics} kind={kind} />
      <StatusAndErrors statusCodes={report.statusCodes} errors={report.errors} />
    </div>
  );
}
