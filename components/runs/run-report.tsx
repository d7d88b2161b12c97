"use client";

import { useSuspenseQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { pagePaths } from "@/server/domain/urls";
import { CustomMetricsTable } from "./custom-metrics-table";
import { EndpointTable } from "./endpoint-table";
import { LatencyDistribution } from "./latency-distribution";
import { ReportSection } from "./report-section";
import { RunTimeline } from "./run-timeline";
import { RunGate } from "./run-gate";
import { RunHeader } from "./run-header";
import { SlaChecks } from "./sla-checks";
import { StatusAndErrors } from "./status-and-errors";
import { ToolChecks } from "./tool-checks";

/**
 * The run report: header, per-endpoint table, latency distribution, the run's timeline, custom metrics, status codes and
 * errors, the tool's own thresholds and checks. Data comes prefetched from the server (no spinner on
 * first paint). Relative times count from when the data was fetched, which hydrates with the data,
 * so the server and the browser render the same text.
 */
export function RunReport({ project, id }: { project: string; id: string }) {
  const trpc = useTRPC();
  const { data: report, dataUpdatedAt } = useSuspenseQuery(trpc.run.get.queryOptions({ project, id }));

  const endpointCount = report.endpoints.length;
  return (
    <div className="flex flex-col gap-6" data-testid="run-report">
      <RunHeader report={report} now={dataUpdatedAt} />

      <RunGate verdict={report.verdict} />

      <ReportSection
        id="endpoints"
        title="Endpoints"
        description={
          endpointCount === 0
            ? "The tool reported only the aggregate for this run, no per-endpoint numbers. Latency in milliseconds."
            : `${endpointCount} ${endpointCount === 1 ? "endpoint" : "endpoints"}; sort by any column (its header, or the menu on a phone), click an endpoint for its trends. Latency in milliseconds.`
        }
      >
        <EndpointTable endpoints={report.endpoints} aggregate={report.aggregate} showSla={report.grade !== null} />
      </ReportSection>

      <SlaChecks grade={report.grade} settingsHref={pagePaths.settings(report.project.slug)} />

      <LatencyDistribution histograms={report.histograms} />
      <RunTimeline timelines={report.timelines} />

      <ToolChecks thresholds={report.thresholds} checks={report.checks} tool={report.run.tool} />
      <CustomMetricsTable metrics={report.metrics} />
      <StatusAndErrors statusCodes={report.statusCodes} errors={report.errors} />
    </div>
  );
}
