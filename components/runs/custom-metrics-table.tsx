import { formatNumber } from "@/server/domain/format";
import { Table, Td, Th } from "@/components/ui/table";
import { ReportSection } from "./report-section";
import type { RunReportData } from "./types";

/** Custom measurements (CPU %, memory, messages/s) of the run and of its endpoints, with their direction. */
export function CustomMetricsTable({ metrics }: { metrics: RunReportData["metrics"] }) {
  if (metrics.length === 0) return null;
  return (
    <ReportSection id="custom-metrics" title="Custom metrics" description="Measurements beside latency, at run or endpoint level.">
      <Table label="Custom metrics">
        <thead>
          <tr>
            <Th>Scope</Th>
            <Th>Metric</Th>
            <Th numeric>Value</Th>
            <Th>Unit</Th>
            <Th>Direction</Th>
          </tr>
        </thead>
        <tbody>
          {metrics.map((metric) => (
            <tr key={`${metric.endpoint ?? ""}\u0000${metric.key}`}>
              <Td className={metric.endpoint === null ? "font-medium" : undefined}>{metric.endpoint ?? "Run"}</Td>
              <Td className="font-mono text-xs">{metric.key}</Td>
              <Td numeric>{formatNumber(metric.value, 3)}</Td>
              <Td className="text-text-muted">{metric.unit ?? "—"}</Td>
              <Td className="text-text-muted">{metric.better === null ? "unknown" : `${metric.better} is better`}</Td>
            </tr>
          ))}
        </tbody>
      </Table>
    </ReportSection>
  );
}
