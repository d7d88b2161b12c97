import { formatNumber, formatPct } from "@/server/domain/format";
import { cn } from "@/components/lib/cn";
import { STACKED_PAIR_ROW, Table, Td, Th } from "@/components/ui/table";
import { ReportSection } from "./report-section";
import type { RunReportData } from "./types";

/** What the tool itself judged: k6 thresholds (pass/fail) and checks (assertion counts). */
export function ToolChecks({ thresholds, checks, tool }: Pick<RunReportData, "thresholds" | "checks"> & { tool: string }) {
  const failedThresholds = thresholds.filter((threshold) => !threshold.passed).length;
  return (
    <>
      {thresholds.length > 0 && (
        <ReportSection
          id="thresholds"
          title="Thresholds"
          description={`Evaluated by ${tool}: ${thresholds.length - failedThresholds} passed, ${failedThresholds} failed.`}
        >
          <Table label="Thresholds">
            <thead>
              <tr>
                <Th>Metric</Th>
                <Th>Threshold</Th>
                <Th>Result</Th>
              </tr>
            </thead>
            <tbody>
              {thresholds.map((threshold) => (
                <tr key={`${threshold.metric}\u0000${threshold.expression}`} data-testid="threshold-row">
                  <Td className="font-mono text-xs">{threshold.metric}</Td>
                  <Td className="font-mono text-xs">{threshold.expression}</Td>
                  <Td className={cn("font-medium", threshold.passed ? "text-good" : "text-bad")}>
                    <span aria-hidden="true">{threshold.passed ? "✓" : "✗"}</span> {threshold.passed ? "passed" : "failed"}
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </ReportSection>
      )}
      {checks.length > 0 && (
        <ReportSection id="checks" title="Checks">
          <Table label="Checks" stacked>
            <thead>
              <tr>
                <Th>Check</Th>
                <Th>Group</Th>
                <Th numeric>Passes</Th>
                <Th numeric>Fails</Th>
                <Th numeric>Pass rate</Th>
              </tr>
            </thead>
            <tbody>
              {checks.map((check) => (
                // Below `sm`: the check and its pass rate, then passes and fails, then its group.
                <tr key={`${check.group ?? ""}\u0000${check.name}`} className={STACKED_PAIR_ROW}>
                  <Td className="max-sm:order-1 max-sm:[overflow-wrap:anywhere]">{check.name}</Td>
                  <Td label="group" className={cn("text-text-muted max-sm:order-5 max-sm:col-span-2 max-sm:text-xs", check.group === null && "max-sm:hidden")}>
                    {check.group ?? "—"}
                  </Td>
                  <Td numeric label="passes" className="max-sm:order-3 max-sm:text-left">
                    {formatNumber(check.passes, 0)}
                  </Td>
                  <Td numeric label="fails" className={cn("max-sm:order-4", check.fails > 0 && "text-bad")}>
                    {formatNumber(check.fails, 0)}
                  </Td>
                  <Td numeric className={cn("max-sm:order-2 max-sm:font-medium", check.fails > 0 ? "text-bad" : "text-good")}>
                    {formatPct(check.passRate)}
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        </ReportSection>
      )}
    </>
  );
}
