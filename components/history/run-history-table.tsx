"use client";

import { OUTCOME_LOOK, OUTCOME_TEXT_CLASS } from "@/components/runs/outcome-badge";
import Link from "next/link";
import { pagePaths } from "@/server/domain/urls";
import { useState } from "react";
import { cn } from "@/components/lib/cn";
import { MISSING, formatDuration } from "@/server/domain/format";
import { resultKindsOf } from "@/server/domain/result-kind";
import { GradeChip } from "@/components/sla/grade-badge";
import { Table, Td, Th } from "@/components/ui/table";
import type { RouterOutputs } from "@/server/api/root";
import { compareHref, splitCompareSelection } from "./compare-url";
import type { SelectedRun } from "./compare-url";
import { RunResultCells, RunResultHeaders } from "./run-results";
import { commitLink, describeRunTime, formatRunTime } from "./run-time";

type HistoryRun = RouterOutputs["history"]["list"]["runs"][number];

/**
 * The history table with its selection: tick two or more runs, and "Compare" opens them as base vs
 * head (the split rule is in compare-url.ts and in the button's tooltip). The selection survives
 * paging (it is kept by run id), so runs from different pages can be compared.
 */
export function RunHistoryTable({
  projectSlug,
  repoUrl,
  runs,
  now,
  hasSla,
}: {
  projectSlug: string;
  repoUrl: string | null;
  runs: HistoryRun[];
  now: number;
  hasSla: boolean;
}) {
  const [selected, setSelected] = useState<ReadonlyMap<string, SelectedRun>>(new Map());
  const selection = splitCompareSelection([...selected.values()]);
  const allOnPageSelected = runs.length > 0 && runs.every((run) => selected.has(run.id));
  const kind = resultKindsOf(runs);
  // The hardware a run was measured on: a column once any run on the page names one.
  const hasTestbed = runs.some((run) => run.testbed !== null);

  const toggle = (run: HistoryRun, isChecked: boolean) => {
    setSelected((previous) => {
      const next = new Map(previous);
      if (isChecked) next.set(run.id, { id: run.id, startedAt: run.startedAt, label: run.label });
      else next.delete(run.id);
      return next;
    });
  };
  const togglePage = (isChecked: boolean) => {
    setSelected((previous) => {
      const next = new Map(previous);
      for (const run of runs) {
        if (isChecked) next.set(run.id, { id: run.id, startedAt: run.startedAt, label: run.label });
        else next.delete(run.id);
      }
      return next;
    });
  };

  return (
    <div>
      <div className="mb-2 flex min-h-9 flex-wrap items-center gap-x-3 gap-y-2 text-sm" aria-live="polite">
        <span className="text-text-muted" data-testid="selection-count">
          {selected.size === 0
            ? "Select two or more runs to compare them."
            : `${selected.size} selected${selected.size === 1 ? ": select one more to compare" : ""}`}
        </span>
        {selection ? (
          <Link
            href={compareHref(projectSlug, selection)}
            title={selection.explanation}
            className="rounded-md bg-accent px-3 py-1.5 font-medium text-accent-text hover:opacity-90"
            data-testid="compare-link"
          >
            Compare {selection.base.length} vs {selection.head.length} →
          </Link>
        ) : (
          <span
            aria-disabled="true"
            title="Select two or more runs. Two: the older is the base. More: the runs with the oldest run's label are the base."
            className="cursor-not-allowed rounded-md border border-border px-3 py-1.5 text-text-muted"
          >
            Compare
          </span>
        )}
        {selected.size > 0 && (
          <button type="button" onClick={() => setSelected(new Map())} className="text-accent hover:underline">
            Clear selection
          </button>
        )}
      </div>

      <Table label="Runs">
        <thead>
          <tr>
            <Th className="w-8">
              <input
                type="checkbox"
                aria-label="Select every run on this page"
                checked={allOnPageSelected}
                onChange={(event) => togglePage(event.target.checked)}
                className="h-4 w-4 align-middle accent-[var(--accent)]"
              />
            </Th>
            <Th>Time (UTC)</Th>
            <Th>Label</Th>
            <Th numeric>Round</Th>
            <Th>Branch</Th>
            <Th>Commit</Th>
            <Th>Tool</Th>
            {hasTestbed && <Th>Testbed</Th>}
            <RunResultHeaders kind={kind} />
            <Th numeric>Duration</Th>
            <Th>CI outcome</Th>
            {hasSla && <Th>SLA</Th>}
          </tr>
        </thead>
        <tbody data-testid="history-rows">
          {runs.map((run) => {
            const isSelected = selected.has(run.id);
            const commit = run.gitCommit ? commitLink(repoUrl, run.gitCommit) : null;
            const time = formatRunTime(run.startedAt);
            return (
              <tr key={run.id} className={cn(isSelected ? "bg-surface-muted" : "hover:bg-surface-muted")} data-run-id={run.id}>
                <Td>
                  <input
                    type="checkbox"
                    aria-label={`Select run ${run.label ?? "unlabelled"}${run.round !== null ? ` #${run.round}` : ""} of ${time}`}
                    checked={isSelected}
                    onChange={(event) => toggle(run, event.target.checked)}
                    className="h-4 w-4 align-middle accent-[var(--accent)]"
                  />
                </Td>
                <Td title={describeRunTime(run.startedAt, now)}>
                  <Link href={pagePaths.run(projectSlug, run.id)} className="text-accent hover:underline">
                    {time}
                  </Link>
                </Td>
                <Td className="max-w-[14rem] truncate" title={run.label ?? undefined}>
                  {run.label ?? MISSING}
                  {run.isPinnedBaseline && (
                    <span className="ml-1.5 rounded border border-accent px-1 text-[10px] text-accent" title="Pinned as a baseline">
                      baseline
                    </span>
                  )}
                </Td>
                <Td numeric>{run.round ?? MISSING}</Td>
                <Td className="max-w-[14rem] truncate" title={run.gitBranch ?? undefined}>
                  {run.gitBranch ?? MISSING}
                </Td>
                <Td className="font-mono text-xs">
                  {commit === null ? (
                    MISSING
                  ) : commit.href ? (
                    <a href={commit.href} title={run.gitCommit ?? undefined} className="text-accent hover:underline" rel="noreferrer">
                      {commit.text}
                    </a>
                  ) : (
                    <span title={run.gitCommit ?? undefined}>{commit.text}</span>
                  )}
                </Td>
                <Td>{run.tool}</Td>
                {hasTestbed && (
                  <Td className="max-w-[14rem] truncate text-xs" title={run.testbed ?? "No testbed named: a testbed of its own"} data-testid="history-testbed">
                    {run.testbed ?? MISSING}
                  </Td>
                )}
                <RunResultCells run={run} kind={kind} />
                <Td numeric>{formatDuration(run.durationSeconds)}</Td>
                <Td data-testid="history-outcome">
                  {run.outcome === null ? (
                    <span className="text-text-muted" title="Not recorded: uploaded before outcomes were kept">
                      {MISSING}
                    </span>
                  ) : (
                    <span
                      className={cn("text-xs font-semibold", OUTCOME_TEXT_CLASS[run.outcome])}
                      title={`At upload: ${run.outcomeReasons.length > 0 ? run.outcomeReasons.join("; ") : "nothing failed"} (the run's page says whether it still holds)`}
                    >
                      {OUTCOME_LOOK[run.outcome].short}
                    </span>
                  )}
                </Td>
                {hasSla && (
                  <Td>
                    <GradeChip summary={run.grade} />
                  </Td>
                )}
              </tr>
            );
          })}
        </tbody>
      </Table>
    </div>
  );
}
