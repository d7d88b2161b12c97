import { formatMetricValue } from "@/server/domain/format";
import { cn } from "@/components/lib/cn";
import { OutsideShareHidden, ScopedLink } from "@/components/share/share-context";
import { STACKED_PAIR_ROW, Table, Td, Th } from "@/components/ui/table";
import type { SlaGrade } from "@/server/domain/sla/grade";
import { ReportSection } from "./report-section";
import { resultDisplayName, wordsOf } from "@/server/domain/result-kind";
import type { ResultKinds } from "@/server/domain/result-kind";

function describeScope(scope: SlaGrade["checks"][number]["target"]["scope"]): string {
  return typeof scope === "string" ? scope : `endpoints matching ${scope.match}`;
}

/** Below `sm` each check is a section of one card: endpoint and result, the target, value against threshold, the headroom. */
const PHONE = {
  endpoint: "max-sm:order-1 max-sm:[overflow-wrap:anywhere]",
  result: "max-sm:order-2 max-sm:text-right",
  target: "max-sm:order-3 max-sm:col-span-2",
  value: "max-sm:order-4 max-sm:text-left",
  threshold: "max-sm:order-5",
  headroom: "max-sm:order-6 max-sm:col-span-2 max-sm:text-xs max-sm:empty:hidden",
} as const;

/** "Why this grade": every check, the limiting condition first, with its headroom. */
export function SlaChecks({ grade, settingsHref, kind }: { grade: SlaGrade | null; settingsHref: string; kind: ResultKinds }) {
  const words = wordsOf(kind);
  if (grade === null) {
    return (
      <ReportSection id="sla" title="SLA" description="This project has no SLA policy, so the run is not graded.">
        {/* Settings are outside any share link: a shared page does not offer them. */}
        <OutsideShareHidden href={settingsHref}>
          <p className="text-sm">
            <ScopedLink href={settingsHref} className="text-accent underline">
              Set SLA targets
            </ScopedLink>{" "}
            ({words.hasLoad ? "e.g. p95 ≤ 50 ms, error rate ≤ 1%" : "e.g. mean ≤ 5 us/op"}) to grade every run.
          </p>
        </OutsideShareHidden>
      </ReportSection>
    );
  }
  const summary =
    grade.letter === null
      ? `No grade: ${grade.reason}.`
      : `Grade ${grade.letter} (${grade.score}%): ${grade.passed} of ${grade.evaluated} checks passed; ${grade.endpointsCompliant} of ${grade.endpointsEvaluated} ${words.nouns} compliant. A = 100%, B ≥ 90%, C ≥ 75%, D ≥ 50%, F below.`;
  return (
    <ReportSection id="sla" title="SLA: why this grade" description={summary}>
      <Table label="SLA checks, limiting first" stacked>
        <thead>
          <tr>
            <Th>{words.nounTitle}</Th>
            <Th>Target</Th>
            <Th numeric>Value</Th>
            <Th numeric>Threshold</Th>
            <Th>Result</Th>
            <Th>Headroom</Th>
          </tr>
        </thead>
        <tbody>
          {grade.checks.map((check, index) => (
            <tr
              key={`${check.targetIndex}-${check.endpoint}`}
              data-testid="sla-check"
              className={cn(STACKED_PAIR_ROW, index === 0 && check.passed === false && "bg-surface-muted")}
            >
              <Td className={cn("font-medium", PHONE.endpoint)} data-column="endpoint">
                {resultDisplayName(check.endpoint, kind)}
              </Td>
              <Td className={PHONE.target} data-column="target">
                {check.target.metric} {check.target.op}{" "}
                <span className="text-text-muted">({describeScope(check.target.scope)}{check.target.weight !== 1 ? `, weight ${check.target.weight}` : ""})</span>
              </Td>
              <Td numeric label="value" className={PHONE.value} data-column="value">
                {formatMetricValue(check.target.metric, check.unit, check.value)}
              </Td>
              <Td numeric label="threshold" className={PHONE.threshold} data-column="threshold">
                {formatMetricValue(check.target.metric, check.unit, check.threshold)}
              </Td>
              <Td className={PHONE.result} data-column="result">
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
              <Td className={cn("text-text-muted", PHONE.headroom)} data-column="headroom">
                {check.headroom?.label ?? check.noDataReason ?? ""}
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
      {grade.notes.length > 0 && <p className="mt-2 text-xs text-text-muted">{grade.notes.join(" · ")}</p>}
    </ReportSection>
  );
}
