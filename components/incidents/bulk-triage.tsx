"use client";

import { useEffect, useRef, useState } from "react";
import { Problem } from "@/components/settings/problem";
import { useHydrated } from "@/components/ui/use-hydrated";
import type { AdminCallError } from "@/components/settings/problem";
import type { IncidentState } from "@/server/domain/incidents/state";
import { TRIAGE_ACTIONS, triageDone, triageQuestion, type TriageAction } from "./display";
import { TriageConfirm } from "./triage-confirm";
import { useIncidentUpdate } from "./use-incident-update";

/**
 * The inbox's bulk triage (an admin session): "select all", how many are selected, one button per
 * action; an action asks first, in one line, what it does to the gate, then changes every selected
 * incident at once (incident.update, all or nothing).
 */
export function BulkTriage({
  project,
  numbers,
  selected,
  statesOf,
  onSelectAll,
  onDone,
}: {
  project: string;
  /** Every incident listed, in order. */
  numbers: readonly number[];
  selected: readonly number[];
  /** The current state of each listed incident. */
  statesOf: ReadonlyMap<number, IncidentState>;
  onSelectAll: (all: boolean) => void;
  onDone: () => void;
}) {
  const update = useIncidentUpdate();
  const [action, setAction] = useState<TriageAction | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<AdminCallError | null>(null);
  const selectAll = useRef<HTMLInputElement>(null);
  const hydrated = useHydrated();
  const allSelected = numbers.length > 0 && selected.length === numbers.length;
  const someSelected = selected.length > 0 && !allSelected;

  useEffect(() => {
    if (selectAll.current) selectAll.current.indeterminate = someSelected;
  }, [someSelected]);

  const confirm = (chosen: TriageAction) => {
    const changed = [...selected];
    setError(null);
    update.mutate(
      { project, numbers: changed, state: chosen.state },
      {
        onSuccess: () => {
          setDone(triageDone(changed, chosen.state));
          setAction(null);
          onDone();
        },
        onError: (failure) => setError(failure),
      },
    );
  };

  return (
    <div className="space-y-2" data-testid="bulk-triage">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <label className="flex items-center gap-2 text-sm">
          <input
            ref={selectAll}
            type="checkbox"
            checked={allSelected}
            disabled={numbers.length === 0 || !hydrated}
            onChange={(event) => onSelectAll(event.target.checked)}
            className="accent-accent h-4 w-4"
          />
          Select all
        </label>
        <span className="text-text-muted text-sm" aria-live="polite">
          {selected.length === 0 ? "Select incidents to triage them together." : `${selected.length} selected:`}
        </span>
        <div className="flex flex-wrap gap-1.5" role="toolbar" aria-label="Triage the selected incidents">
          {TRIAGE_ACTIONS.map((candidate) => {
            const already = selected.length > 0 && selected.every((number) => statesOf.get(number) === candidate.state);
            return (
              <button
                key={candidate.state}
                type="button"
                title={candidate.meaning}
                disabled={selected.length === 0 || already || update.isPending}
                aria-pressed={action?.state === candidate.state}
                onClick={() => {
                  setDone(null);
                  setError(null);
                  setAction(candidate);
                }}
                className="border-border hover:border-accent aria-pressed:border-accent aria-pressed:text-accent rounded border px-2 py-0.5 text-xs disabled:opacity-40"
              >
                {candidate.label}
              </button>
            );
          })}
        </div>
      </div>
      {action && selected.length > 0 && (
        <TriageConfirm
          question={triageQuestion(action, selected)}
          meaning={action.meaning}
          pending={update.isPending}
          onConfirm={() => confirm(action)}
          onCancel={() => setAction(null)}
        />
      )}
      {done && (
        <p role="status" className="text-good text-sm">
          {done}
        </p>
      )}
      {error && <Problem error={error} />}
    </div>
  );
}
