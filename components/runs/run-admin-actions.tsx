"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { useIsAdmin } from "@/components/providers/session-provider";
import { describeProblem } from "@/components/settings/problem";
import type { AdminCallError } from "@/components/settings/problem";
import { pagePaths } from "@/server/domain/urls";
import type { AnnotationKind } from "@/server/schemas/annotations";

/**
 * Admin actions on a run: pin it as the baseline of its label, annotate it ("deployed v2.3"), and delete
 * it (after a confirmation: docs/operations.md, "Deleting and retention"; then back to the run history).
 * Shown to an admin session (signed in with the admin token); the server checks the session either way.
 */
export function RunAdminActions({ project, runId, label }: { project: string; runId: string; label: string | null }) {
  const isAdmin = useIsAdmin();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [note, setNote] = useState("");
  const [kind, setKind] = useState<AnnotationKind>("note");
  const [message, setMessage] = useState<{ tone: "good" | "bad"; text: string } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const router = useRouter();
  // The run's report shows its notes and its pin: read it again after either.
  const refreshRun = () => queryClient.invalidateQueries(trpc.run.get.queryFilter({ project, id: runId }));
  const failed = (error: AdminCallError) => setMessage({ tone: "bad", text: describeProblem(error) });
  const pin = useMutation(
    trpc.baseline.pin.mutationOptions({
      onSuccess: async () => {
        setMessage({ tone: "good", text: `Pinned as the baseline of ${label ?? "unlabelled runs"}.` });
        await refreshRun();
      },
      onError: failed,
    }),
  );
  const annotate = useMutation(
    trpc.annotation.create.mutationOptions({
      onSuccess: async () => {
        setNote("");
        setMessage({
          tone: "good",
          text:
            kind === "change"
              ? "Known change marked: it shows on every chart with this run, and change-point detection starts afresh here."
              : "Annotation added: it shows on every chart with this run.",
        });
        await refreshRun();
      },
      onError: failed,
    }),
  );
  const remove = useMutation(
    trpc.run.delete.mutationOptions({
      onSuccess: () => router.push(pagePaths.runs(project)),
      onError: (error) => {
        setConfirming(false);
        failed(error);
      },
    }),
  );
  if (!isAdmin) return null;

  return (
    <div className="mt-3 flex flex-wrap items-center gap-2 border-t border-border pt-3 text-sm" data-testid="run-admin-actions">
      <button
        type="button"
        onClick={() => pin.mutate({ project, forLabel: label, runIds: [runId] })}
        className="rounded-md border border-border px-2.5 py-1 hover:border-accent"
      >
        Pin as baseline{label ? ` of ${label}` : ""}
      </button>
      <form
        className="flex flex-wrap items-center gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (note.trim()) annotate.mutate({ project, runId, text: note, kind });
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
        <label className="sr-only" htmlFor="annotation-kind">
          Kind
        </label>
        <select
          id="annotation-kind"
          value={kind}
          onChange={(event) => setKind(event.target.value as AnnotationKind)}
          className="rounded border border-border bg-surface px-2 py-1"
          title="A known change (config, hardware) starts a new regime: change-point detection does not look across it"
        >
          <option value="note">note</option>
          <option value="deploy">deploy</option>
          <option value="change">known change</option>
        </select>
        <button type="submit" className="rounded-md border border-border px-2.5 py-1 hover:border-accent">
          Add
        </button>
      </form>
      {confirming ? (
        <span role="group" aria-label="Confirm deletion" className="flex flex-wrap items-center gap-2 rounded-md border border-bad px-2 py-1" data-testid="delete-run-confirm">
          <span>Delete this run, its results, raw upload, notes and the changes first seen at it?</span>
          <button
            type="button"
            disabled={remove.isPending}
            onClick={() => remove.mutate({ project, id: runId })}
            className="rounded-md border border-bad px-2.5 py-1 font-medium text-bad hover:bg-bad/10 disabled:opacity-60"
          >
            {remove.isPending ? "Deleting…" : "Delete run"}
          </button>
          <button type="button" onClick={() => setConfirming(false)} className="rounded-md border border-border px-2.5 py-1 hover:border-accent">
            Cancel
          </button>
        </span>
      ) : (
        <button type="button" onClick={() => setConfirming(true)} className="rounded-md border border-border px-2.5 py-1 text-bad hover:border-bad">
          Delete run…
        </button>
      )}
      {message && (
        <span role="status" className={message.tone === "good" ? "text-good" : "text-bad"}>
          {message.text}
        </span>
      )}
    </div>
  );
}
