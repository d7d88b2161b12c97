import { formatNumber } from "@/server/domain/format";
import { Table, Td, Th } from "@/components/ui/table";
import { wordsOf } from "@/server/domain/result-kind";
import type { ResultKinds } from "@/server/domain/result-kind";
import { ReportSection } from "./report-section";
import type { RunReportData } from "./types";

/** Custom measurements (CPU %, memory, messages/s, B/op) of the run and of its endpoints or benchmarks, with their direction. */
export function CustomMetricsTable({ metrics, kind }: { metrics: RunReportData["metrics"]; kind: ResultKinds }) {
  if (metrics.length === 0) return null;
  const words = wordsOf(kind);
  return (
    <ReportSection
      id="custom-metrics"
      title="Custom metrics"
      description={`Measurements beside ${words.latency}, at run or ${words.noun} level${words.hasLoad ? "" : ", in the tool's own units"}.`}
    >
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
