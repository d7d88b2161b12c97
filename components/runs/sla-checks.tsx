import { formatMetricValue } from "@/server/domain/format";
import { Table, Td, Th } from "@/components/ui/table";
import type { SlaGrade } from "@/server/domain/sla/grade";
import { ReportSection } from "./report-section";
import { endpointDisplayName } from "@/server/domain/run";

function describeScope(scope: SlaGrade["checks"][number]["target"]["scope"]): string {
  return typeof scope === "string" ? scope : `endpoints matching ${scope.match}`;
}

/** "Why this grade": every check, the limiting condition first, with its headroom. */
export function SlaChecks({ grade, settingsHref }: { grade: SlaGrade | null; settingsHref: string }) {
  if (grade === null) {
    return (
      <ReportSection id="sla" title="SLA" description="This project has no SLA policy, so the run is not graded.">
        <p className="text-sm">
          <a href={settingsHref} className="text-accent underline">
            Set SLA targets
          </a>{" "}
          (e.g. p95 ≤ 50 ms, error rate ≤ 1%) to grade every run.
        </p>
      </ReportSection>
    );
  }
  const summary =
    grade.letter === null
      ? `No grade: ${grade.reason}.`
      : `Grade ${grade.letter} (${grade.score}%): ${grade.passed} of ${grade.evaluated} checks passed; ${grade.endpointsCompliant} of ${grade.endpointsEvaluated} endpoints compliant. A = 100%, B ≥ 90%, C ≥ 75%, D ≥ 50%, F below.`;
  return (
    <ReportSection id="sla" title="SLA: why this grade" description={summary}>
      <Table label="SLA checks, limiting first">
        <thead>
          <tr>
            <Th>Endpoint</Th>
            <Th>Target</Th>
            <Th numeric>Value</Th>
            <Th numeric>Threshold</Th>
            <Th>Result</Th>
            <Th>Headroom</Th>
          </tr>
        </thead>
        <tbody>
          {grade.checks.map((check, index) => (
            <tr key={`${check.targetIndex}-${check.endpoint}`} data-testid="sla-check" className={index === 0 && check.passed === false ? "bg-surface-muted" : undefined}>
              <Td className="font-medium">{endpointDisplayName(check.endpoint)}</Td>
              <Td>
                {check.target.metric} {check.target.op}{" "}
                <span className="text-text-muted">({describeScope(check.target.scope)}{check.target.weight !== 1 ? `, weight ${check.target.weight}` : ""})</span>
              </Td>
              <Td numeric>{formatMetricValue(check.target.metric, check.unit, check.value)}</Td>
              <Td numeric>{formatMetricValue(check.target.metric, check.unit, check.threshold)}</Td>
              <Td>
                {check.passed === null ? (
                  <span className="text-text-muted" title={check.noDataReason ?? undefined}>
                    no data
                  </span>
                ) : check.passed ? (
                  <span className="text-good">✓ pass</span>
                ) : (
                  <span className="font-medium text-bad">✗ fail</span>
                )}
              </Td>
              <Td className="text-text-muted">{check.headroom?.label ?? check.noDataReason ?? ""}</Td>
            </tr>
          ))}
        </tbody>
      </Table>
      {grade.notes.length > 0 && <p className="mt-2 text-xs text-text-muted">{grade.notes.join(" · ")}</p>}
    </ReportSection>
  );
}
