import { ScopedLink } from "@/components/share/share-context";
import { cn } from "@/components/lib/cn";
import { STACKED_LEAD, STACKED_PAIR_ROW, Table, Td, Th } from "@/components/ui/table";
import { formatDeltaPct } from "@/server/domain/format";
import { formatResultMetric, metricShortName, resultDisplayName, wordsOf } from "@/server/domain/result-kind";
import type { ResultKind, ResultKinds } from "@/server/domain/result-kind";
import { thresholdSubject } from "@/server/domain/tool-thresholds";
import { OUTCOME_LOOK, OUTCOME_TEXT_CLASS, OutcomeBadge } from "./outcome-badge";
import { ReportSection } from "./report-section";
import { WithIncidentLinks } from "./run-incidents";
import type { RunReportData } from "./types";

/** Below `sm` each change is a section of one card: endpoint and metric, Δ, its status (wrapping, the card's width), baseline → this run. */
const PHONE = {
  endpoint: "max-sm:order-1 max-sm:[overflow-wrap:anywhere]",
  metric: "max-sm:order-2 max-sm:text-right max-sm:font-medium",
  delta: `max-sm:order-3 ${STACKED_LEAD}`,
  status: "max-sm:order-4 max-sm:col-span-2",
  base: "max-sm:order-5 max-sm:text-left",
  head: "max-sm:order-6",
} as const;

/** A named change's status: its colour and its word (the reason's detail follows it); the run's lead colours its changes so too. */
export const STATUS_LOOK = {
  regressed: { label: "Regressed", className: "text-bad" },
  exact: { label: "Exact change", className: "text-bad" },
  undecided: { label: "Undecided", className: "text-warn" },
  improved: { label: "Improved", className: "text-good" },
} as const;

/**
 * The run's CI gate, first on its page: what its upload answered and, when it no longer holds (the SLA
 * policy, a pin, a triage or the history changed since), what the gate says now, beside it; against
 * which baseline (an A/B job's own base runs, pair by pair), why (a reason is always written out, never only
 * in a tooltip), what else to know, every endpoint (or benchmark) the gate named as changed with its status,
 * and the tool's own failed thresholds. `kind` is the run's,
 * `kindOf` an endpoint's by name (null: the aggregate), so each change reads in its own words.
 */
export function RunGate({
  gate,
  kind,
  kindOf,
  slug,
}: {
  gate: RunReportData["gate"];
  kind: ResultKinds;
  kindOf: (endpoint: string | null) => ResultKind;
  slug: string;
}) {
  const { comparison, thresholds, atUpload } = gate;
  // The open incident the baseline stops before: its mentions in the texts below link to it.
  const incident = comparison.baseline.openIncident;
  const linked = (text: string) => <WithIncidentLinks text={text} slug={slug} incident={incident} />;
  const words = wordsOf(kind);
  const name = (endpoint: string | null) => resultDisplayName(endpoint, kindOf(endpoint));
  const metricName = (change: { endpoint: string | null; metric: string }) => metricShortName(change.metric, kindOf(change.endpoint));
  const value = (change: { endpoint: string | null; metric: string; unit: string | null }, number: number | null) =>
    formatResultMetric(change.metric, change.unit, number, kindOf(change.endpoint));
  const shown = atUpload?.outcome ?? gate.outcome;
  const hasChanged = atUpload !== null && atUpload.outcome !== gate.outcome;
  const hasBaseline = comparison.baseline.runs.length > 0;
  const description = (
    <>
      {hasBaseline ? <>Against {linked(comparison.baseline.how)}</> : <>Nothing to compare with yet: {linked(comparison.baseline.how)}</>}
      {comparison.comparePath && (
        <>
          {" · "}
          <ScopedLink href={comparison.comparePath} className="text-accent hover:underline" data-testid="gate-compare-link">
            compare with the baseline
          </ScopedLink>
        </>
      )}
      . Each {words.noun} is judged on one gate metric, one-sided, corrected for the number of {words.nouns}; see the docs
      on statistics.
    </>
  );
  const reasons = hasChanged ? atUpload.reasons : gate.reasons;
  const headLabel = comparison.headRuns.length > 1 ? `These ${comparison.headRuns.length} rounds` : "This run";
  return (
    <ReportSection
      id="run-gate"
      title="CI gate"
      description={description}
      actions={
        <OutcomeBadge
          outcome={shown}
          testId="outcome-badge"
          title={`${atUpload ? "What the upload answered" : "What the gate says"} (fail_on=${gate.failOn.join(",") || "none"})`}
        />
      }
    >
      <div className="flex flex-col gap-3 rounded-lg border border-border bg-surface p-3 text-sm">
        {reasons.length > 0 ? (
          <ul className="list-disc pl-5" data-testid="gate-reasons">
            {reasons.map((reason) => (
              <li key={reason} className="break-words">
                {linked(reason)}
              </li>
            ))}
          </ul>
        ) : (
          <p data-testid="gate-reasons">
            {thresholds.evaluated > 0
              ? `Nothing failed; the tool's ${thresholds.evaluated} ${thresholds.evaluated === 1 ? "threshold" : "thresholds"} passed.`
              : "Nothing failed."}
          </p>
        )}
        {comparison.unjudged.length > 0 && (
          <p className="break-words" data-testid="gate-unjudged">
            <span className="font-medium">Largest changes seen, not judged:</span>{" "}
            {comparison.unjudged.map((change, index) => (
              <span key={`${change.endpoint ?? ""} ${change.metric}`}>
                {index > 0 && " · "}
                {name(change.endpoint)} {metricName(change)} <span className="font-medium">{formatDeltaPct(change.deltaPct)}</span>{" "}
                <span className="text-text-muted">
                  ({value(change, change.base)} → {value(change, change.head)})
                </span>
              </span>
            ))}
          </p>
        )}
        {hasChanged && (
          <p className="rounded border border-border bg-surface-muted p-2" data-testid="gate-now">
            <span className="font-medium">Now: </span>
            <span className={`font-semibold ${OUTCOME_TEXT_CLASS[gate.outcome]}`}>{OUTCOME_LOOK[gate.outcome].label}</span>
            {gate.reasons.length > 0 ? ` — ${gate.reasons.join("; ")}` : " — nothing fails"}
            . The upload answered {OUTCOME_LOOK[atUpload.outcome].short}: since then{" "}
            {gate.ab ? "more runs of its A/B job arrived (the job is judged on all its pairs), or " : ""}the SLA policy, a pin,
            a triage or the history changed, or the upload asked for another fail_on than the project&apos;s (
            {gate.failOn.join(",") || "none"}).
          </p>
        )}
        {gate.notes.length > 0 && (
          <ul className="list-disc pl-5 text-text-muted" data-testid="gate-notes">
            {gate.notes.map((note) => (
              <li key={note} className="break-words">
                {linked(note)}
              </li>
            ))}
          </ul>
        )}
        {thresholds.failed.length > 0 && (
          <p data-testid="gate-thresholds">
            <span className="font-medium text-bad">Tool thresholds failed</span> ({thresholds.failed.length} of {thresholds.evaluated}):{" "}
            {thresholds.failed.map((threshold, index) => {
              const subject = thresholdSubject(threshold);
              return (
                <span key={`${threshold.metric} ${threshold.expression}`}>
                  {index > 0 && ", "}
                  <code>{threshold.expression}</code>
                  {subject !== null && <> on {subject}</>}
                </span>
              );
            })}
          </p>
        )}
        {gate.ab && (
          <p className="break-words rounded border border-border bg-surface-muted p-2" data-testid="gate-ab">
            <span className="font-medium">A/B job {gate.ab.job}:</span> {gate.ab.pairs} complete{" "}
            {gate.ab.pairs === 1 ? "pair" : "pairs"} ({gate.ab.runs.base} base and {gate.ab.runs.head} head runs, run
            one after the other, ABBA, in one CI job); this run measured the {gate.ab.side} of pair {gate.ab.pair}. The head
            runs are judged against the job&apos;s own base runs, pair by pair: a burst that slowed the job slowed both sides.{" "}
            <span className="font-medium">{gate.ab.decided ? "The answer stands" : "Undecided"}</span>: {gate.ab.reason}.
          </p>
        )}
        {comparison.changes.length > 0 && (
          <Table label={`${words.nounsTitle} the gate named as changed, slowdowns first, largest first`} stacked>
            <thead>
              <tr>
                <Th>{words.nounTitle}</Th>
                <Th>Metric</Th>
                <Th numeric>Baseline</Th>
                <Th numeric>{headLabel}</Th>
                <Th numeric>Δ</Th>
                <Th>Status</Th>
              </tr>
            </thead>
            <tbody>
              {comparison.changes.map((change) => (
                <tr key={`${change.endpoint ?? ""} ${change.metric}`} data-testid="gate-change" data-status={change.status} className={STACKED_PAIR_ROW}>
                  <Td className={cn("font-medium", PHONE.endpoint)} data-column="endpoint">
                    {name(change.endpoint)}
                  </Td>
                  <Td className={PHONE.metric} data-column="metric">
                    {metricName(change)}
                  </Td>
                  <Td numeric label="baseline" className={PHONE.base} data-column="base">
                    {value(change, change.base)}
                  </Td>
                  <Td numeric label={headLabel.toLowerCase()} className={PHONE.head} data-column="head">
                    {value(change, change.head)}
                  </Td>
                  <Td numeric className={cn(STATUS_LOOK[change.status].className, PHONE.delta)} data-column="delta">
                    {formatDeltaPct(change.deltaPct)}
                  </Td>
                  <Td wrap className={cn("min-w-[16rem]", PHONE.status)} data-column="status">
                    <span className={cn("font-medium", STATUS_LOOK[change.status].className)}>{STATUS_LOOK[change.status].label}</span>
                    <span className="text-text-muted"> · {change.why.replace(/^(regressed|improved|significant|undecided|exact): /, "")}</span>
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </div>
    </ReportSection>
  );
}
