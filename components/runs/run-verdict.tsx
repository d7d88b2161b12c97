import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Table, Td, Th } from "@/components/ui/table";
import { formatDeltaPct, formatMetricValue, formatPValue } from "@/server/domain/format";
import { endpointDisplayName } from "@/server/domain/run";
import { ReportSection } from "./report-section";
import type { RunReportData } from "./types";

/**
 * The run's CI verdict, first on its page: the same answer its upload gave (the project's fail_on),
 * against which baseline, why, what regressed, and the tool's own failed thresholds.
 */
export function RunVerdict({ verdict }: { verdict: RunReportData["verdict"] }) {
  const { comparison, thresholds } = verdict;
  const failed = verdict.verdict === "fail";
  const hasBaseline = comparison.baseline.runs.length > 0;
  const description = hasBaseline ? (
    <>
      Against {comparison.baseline.how}
      {comparison.comparePath && (
        <>
          {" · "}
          <Link href={comparison.comparePath} className="text-accent hover:underline" data-testid="verdict-compare-link">
            compare with the baseline
          </Link>
        </>
      )}
      . A metric regresses when it is worse by at least the project&apos;s minimum effect and significant after
      correcting for every test of the comparison.
    </>
  ) : (
    `Nothing to compare with yet: ${comparison.baseline.how}. Later runs of this series will be judged against this one.`
  );

  return (
    <ReportSection
      id="run-verdict"
      title="Verdict"
      description={description}
      actions={
        <Badge tone={failed ? "bad" : "good"} title={`fail_on=${verdict.failOn.join(",") || "none"}`}>
          <span data-testid="verdict-badge">{failed ? "✗ FAIL" : "✓ PASS"}</span>
        </Badge>
      }
    >
      <div className="flex flex-col gap-3 rounded-lg border border-border bg-surface p-3 text-sm">
        {verdict.reasons.length > 0 ? (
          <ul className="list-disc pl-5" data-testid="verdict-reasons">
            {verdict.reasons.map((reason) => (
              <li key={reason} className="break-words">
                {reason}
              </li>
            ))}
          </ul>
        ) : (
          <p data-testid="verdict-reasons">
            {hasBaseline
              ? `Nothing failed: no metric regressed against the baseline${comparison.improvements > 0 ? ` (${comparison.improvements} improved)` : ""}${thresholds.evaluated > 0 ? `, and all ${thresholds.evaluated} ${thresholds.evaluated === 1 ? "threshold" : "thresholds"} of the tool passed` : ""}.`
              : thresholds.evaluated > 0
                ? `The tool's ${thresholds.evaluated} ${thresholds.evaluated === 1 ? "threshold" : "thresholds"} passed.`
                : "Nothing failed."}
          </p>
        )}
        {thresholds.failed.length > 0 && (
          <p data-testid="verdict-thresholds">
            <span className="font-medium text-bad">Tool thresholds failed</span> ({thresholds.failed.length} of {thresholds.evaluated}):{" "}
            {thresholds.failed.map(({ metric, expression }, index) => (
              <span key={`${metric} ${expression}`}>
                {index > 0 && ", "}
                <code>{expression}</code> on {metric}
              </span>
            ))}
          </p>
        )}
        {comparison.regressions.length > 0 && (
          <Table label="Metrics that regressed against the baseline">
            <thead>
              <tr>
                <Th>Endpoint</Th>
                <Th>Metric</Th>
                <Th numeric>Baseline</Th>
                <Th numeric>This run</Th>
                <Th numeric>Δ</Th>
                <Th numeric>p</Th>
              </tr>
            </thead>
            <tbody>
              {comparison.regressions.map((regression) => (
                <tr key={`${regression.endpoint ?? ""} ${regression.metric}`} data-testid="verdict-regression">
                  <Td className="font-medium">{endpointDisplayName(regression.endpoint)}</Td>
                  <Td>{regression.metric}</Td>
                  <Td numeric>{formatMetricValue(regression.metric, regression.unit, regression.base)}</Td>
                  <Td numeric>{formatMetricValue(regression.metric, regression.unit, regression.head)}</Td>
                  <Td numeric className="text-bad">
                    {formatDeltaPct(regression.deltaPct)}
                  </Td>
                  <Td numeric>{formatPValue(regression.pValue)}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </div>
    </ReportSection>
  );
}
