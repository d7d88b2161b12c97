"use client";

import { cn } from "@/components/lib/cn";
import { useShareMinter } from "@/components/share/share-button";
import { CopyButton } from "@/components/ui/copy-button";
import { formatDeltaPct } from "@/server/domain/format";
import { metricShortName, resultDisplayName } from "@/server/domain/result-kind";
import type { ResultKind } from "@/server/domain/result-kind";
import { OutcomeBadge } from "./outcome-badge";
import { STATUS_LOOK } from "./run-gate";
import type { RunReportData } from "./types";

/** The budget line's tooltip: where the SLA targets and gate settings that judged the run came from. */
function budgetTitle(budget: RunReportData["gate"]["budget"]): string {
  return budget.source === "file"
    ? `SLA targets and gate settings from ${budget.path}${budget.commit ? ` at commit ${budget.commit}` : ""}, sent with the upload; what it leaves out is the project's Settings.`
    : "SLA targets and gate settings from the project's Settings, as they stand now.";
}

/** The changes the lead names, at most: the gate section below lists them all. */
const LEAD_CHANGES = 3;

const BUTTON = "rounded-md border border-border px-2.5 py-1 text-sm hover:border-accent";

/**
 * What a reviewer opens a run for, before anything else: the gate's outcome (what the upload answered,
 * as the gate section below says), its first reason, and the largest changes it named (or, when it named
 * none, the largest seen and not judged), with Copy link and Copy Markdown (the PR comment's Markdown).
 * On a private server an admin's copies carry a share link minted on click, as on the compare page.
 */
export function RunLead({ report, kindOf }: { report: RunReportData; kindOf: (endpoint: string | null) => ResultKind }) {
  const { gate, share } = report;
  const minter = useShareMinter(report.project.slug, { run: report.run.id });
  const outcome = gate.atUpload?.outcome ?? gate.outcome;
  const reasons = gate.atUpload && gate.atUpload.outcome !== gate.outcome ? gate.atUpload.reasons : gate.reasons;
  const named = gate.comparison.changes.slice(0, LEAD_CHANGES);
  const unjudged = named.length === 0 ? gate.comparison.unjudged.slice(0, LEAD_CHANGES) : [];
  const describe = (change: { endpoint: string | null; metric: string }) =>
    `${resultDisplayName(change.endpoint, kindOf(change.endpoint))} ${metricShortName(change.metric, kindOf(change.endpoint))}`;
  const minted = async () => (await minter.mintDefault()).url;
  return (
    <section aria-label="CI gate outcome" className="mt-3 flex flex-col gap-2 rounded-md border border-border bg-surface-muted p-3" data-testid="run-lead">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <OutcomeBadge outcome={outcome} testId="lead-outcome" title={`The CI gate (fail_on=${gate.failOn.join(",") || "none"})`} />
        <a href="#run-gate" className="text-sm text-accent underline-offset-2 hover:underline">
          {reasons.length > 1 ? `all ${reasons.length} reasons` : "details"}
        </a>
        {/* Which budget judged it: the repository's benchtrack.json sent with the upload, or Settings (docs/ci.md). */}
        <span className="min-w-0 text-sm break-words text-text-muted" data-testid="run-budget" title={budgetTitle(gate.budget)}>
          {gate.budget.description}
        </span>
      </div>
      {/* The first reason, cut to three lines (a gate's reason may list every endpoint): the section below has it whole. */}
      <p className="line-clamp-3 text-sm break-words" title={reasons[0]} data-testid="lead-reason">
        {reasons[0] ?? "Nothing failed."}
      </p>
      {(named.length > 0 || unjudged.length > 0) && (
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-label={named.length > 0 ? "Largest changes named by the gate" : "Largest changes seen, not judged"} data-testid="lead-changes">
          {named.map((change) => (
            <li key={`${change.endpoint ?? ""} ${change.metric}`} className="min-w-0 break-words">
              {describe(change)} <span className={cn("font-medium tabular-nums", STATUS_LOOK[change.status].className)}>{formatDeltaPct(change.deltaPct)}</span>
            </li>
          ))}
          {unjudged.map((change) => (
            <li key={`${change.endpoint ?? ""} ${change.metric}`} className="min-w-0 break-words text-text-muted">
              {describe(change)} <span className="font-medium tabular-nums">{formatDeltaPct(change.deltaPct)}</span> (not judged)
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap gap-2">
        <CopyButton text={minter.canMint ? minted : share.pageUrl} label="link to this run" idleText="Copy link" className={BUTTON} testId="copy-link" />
        <CopyButton
          text={minter.canMint ? async () => share.markdown.replaceAll(share.pageUrl, await minted()) : share.markdown}
          label="Markdown for a pull request"
          idleText="Copy Markdown"
          className={BUTTON}
          testId="copy-markdown"
        />
      </div>
    </section>
  );
}
