"use client";

import type { ReactNode } from "react";

/**
 * The one line a triage action asks before it changes anything: the question ("Accept #3 as the new
 * normal?"), what it does to the CI gate, and Confirm / Cancel; `children` for more (a note).
 */
export function TriageConfirm({
  question,
  meaning,
  pending,
  onConfirm,
  onCancel,
  children,
}: {
  question: string;
  /** What it does to the gate, when the confirmation is not already beside it. */
  meaning?: string;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children?: ReactNode;
}) {
  return (
    <div
      role="group"
      aria-label={question}
      className="border-accent/50 bg-surface-muted space-y-2 rounded-md border p-3 text-sm"
      data-testid="triage-confirm"
    >
      <p>
        <span className="font-medium">{question}</span>
        {meaning && <span className="text-text-muted"> {meaning}</span>}
      </p>
      {children}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          onClick={onConfirm}
          disabled={pending}
          className="bg-accent text-accent-text rounded-md px-3 py-1 text-sm font-medium hover:opacity-90 disabled:opacity-50"
        >
          {pending ? "Saving…" : "Confirm"}
        </button>
        <button
          type="button"
          onClick={onCancel}
          disabled={pending}
          className="border-border hover:border-accent rounded-md border px-3 py-1 text-sm"
        >
          Cancel
        </button>
      </div>
    </div>
  );
}
