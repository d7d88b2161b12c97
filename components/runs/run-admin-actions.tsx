"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { adminFetch, isProblem, useAdminToken } from "@/components/settings/admin-token";

/**
 * Admin actions on a run: pin it as the baseline of its label, and annotate it ("deployed v2.3").
 * Hidden until the admin token is entered (Settings); the API checks the token either way.
 */
export function RunAdminActions({ project, runId, label }: { project: string; runId: string; label: string | null }) {
  const [token] = useAdminToken();
  const router = useRouter();
  const [note, setNote] = useState("");
  const [message, setMessage] = useState<{ tone: "good" | "bad"; text: string } | null>(null);
  if (!token) return null;
  const base = `/api/v1/projects/${encodeURIComponent(project)}`;

  async function pin() {
    const result = await adminFetch(token!, `${base}/baseline`, { method: "PUT", body: JSON.stringify({ forLabel: label, runIds: [runId] }) });
    setMessage(isProblem(result) ? { tone: "bad", text: result.message } : { tone: "good", text: `Pinned as the baseline of ${label ?? "unlabelled runs"}.` });
    router.refresh();
  }

  async function annotate() {
    const result = await adminFetch(token!, `${base}/runs/${runId}/annotations`, { method: "POST", body: JSON.stringify({ text: note }) });
    if (isProblem(result)) return setMessage({ tone: "bad", text: result.message });
    setNote("");
    setMessage({ tone: "good", text: "Annotation added: it shows on every chart with this run." });
    router.refresh();
  }

  return (
    <div className="mt-3 flex flex-wrap items-center gap-2 border-t border-border pt-3 text-sm" data-testid="run-admin-actions">
      <button type="button" onClick={() => void pin()} className="rounded-md border border-border px-2.5 py-1 hover:border-accent">
        Pin as baseline{label ? ` of ${label}` : ""}
      </button>
      <form
        className="flex flex-wrap items-center gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (note.trim()) void annotate();
        }}
      >
        <label className="sr-only" htmlFor="annotation-text">
          Annotation
        </label>
        <input
          id="annotation-text"
          value={note}
          maxLength={500}
          placeholder="Annotate: deployed v2.3"
          onChange={(event) => setNote(event.target.value)}
          className="w-56 rounded border border-border bg-surface px-2 py-1"
        />
        <button type="submit" className="rounded-md border border-border px-2.5 py-1 hover:border-accent">
          Add note
        </button>
      </form>
      {message && (
        <span role="status" className={message.tone === "good" ? "text-good" : "text-bad"}>
          {message.text}
        </span>
      )}
    </div>
  );
}
