"use client";

import { useState } from "react";
import { cn } from "@/components/lib/cn";
import { Problem } from "@/components/settings/problem";
import type { AdminCallError } from "@/components/settings/problem";
import { INCIDENT_STATE_LABELS, type IncidentState } from "@/server/domain/incidents/state";
import { TRIAGE_ACTIONS, triageDone, triageQuestion, type TriageAction } from "./display";
import { SignInToTriage } from "./sign-in-to-triage";
import { TriageConfirm } from "./triage-confirm";
import { useIncidentUpdate } from "./use-incident-update";

/**
 * An incident's states, each with what it does to the CI gate, the current one marked. An admin moves
 * it: each action asks first (and takes a note, kept on the incident and in its history); a reader sees
 * the same list and a way to sign in.
 */
export function IncidentStateActions({
  project,
  number,
  state,
  canTriage,
}: {
  project: string;
  number: number;
  state: IncidentState;
  canTriage: boolean;
}) {
  const update = useIncidentUpdate();
  const [action, setAction] = useState<TriageAction | null>(null);
  const [note, setNote] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<AdminCallError | null>(null);

  const confirm = (chosen: TriageAction) => {
    setError(null);
    const text = note.trim();
    update.mutate(
      { project, numbers: [number], state: chosen.state, ...(text !== "" && { note: text }) },
      {
        onSuccess: () => {
          setDone(triageDone([number], chosen.state));
          setAction(null);
          setNote("");
        },
        onError: (failure) => setError(failure),
      },
    );
  };

  return (
    <div className="space-y-3" data-testid="incident-state-actions">
      {!canTriage && (
        <p className="text-text-muted text-sm">
          Triaging needs an admin session. <SignInToTriage />
        </p>
      )}
      <ul className="space-y-2">
        {TRIAGE_ACTIONS.map((candidate) => {
          const isCurrent = candidate.state === state;
          return (
            <li
              key={candidate.state}
              className={cn(
                "rounded-md border px-3 py-2 text-sm",
                isCurrent ? "border-accent bg-surface-muted" : "border-border",
              )}
              data-current={isCurrent || undefined}
            >
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                {canTriage && !isCurrent ? (
                  <button
                    type="button"
                    onClick={() => {
                      setDone(null);
                      setError(null);
                      setAction(candidate);
                    }}
                    disabled={update.isPending}
                    aria-pressed={action?.state === candidate.state}
                    className="border-border hover:border-accent aria-pressed:border-accent aria-pressed:text-accent rounded border px-2 py-0.5 text-xs font-medium disabled:opacity-50"
                  >
                    {candidate.label}
                  </button>
                ) : (
                  <span className="text-xs font-medium">{INCIDENT_STATE_LABELS[candidate.state]}</span>
                )}
                {isCurrent && <span className="text-accent text-xs font-semibold">current state</span>}
              </div>
              <p className="text-text-muted mt-1 text-xs">{candidate.meaning}</p>
              {action?.state === candidate.state && (
                <div className="mt-2">
                  <TriageConfirm
                    question={triageQuestion(candidate, [number])}
                    pending={update.isPending}
                    onConfirm={() => confirm(candidate)}
                    onCancel={() => setAction(null)}
                  >
                    <label className="text-text-muted block text-xs">
                      Note (optional: replaces the incident&apos;s note, and is kept in its history)
                      <textarea
                        value={note}
                        onChange={(event) => setNote(event.target.value)}
                        maxLength={4000}
                        rows={2}
                        className="border-border bg-surface text-text mt-1 block w-full rounded border px-2 py-1 text-sm"
                        data-testid="triage-note"
                      />
                    </label>
                  </TriageConfirm>
                </div>
              )}
            </li>
          );
        })}
      </ul>
      {done && (
        <p role="status" className="text-good text-sm">
          {done}
        </p>
      )}
      {error && <Problem error={error} />}
    </div>
  );
}
