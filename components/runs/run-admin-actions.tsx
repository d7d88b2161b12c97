"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { useProjectAccess } from "@/components/providers/project-access";
import { describeProblem } from "@/components/settings/problem";
import type { AdminCallError } from "@/components/settings/problem";
import { pagePaths } from "@/server/domain/urls";
import type { AnnotationKind } from "@/server/schemas/annotations";
import { ANNOTATION_KINDS } from "@/server/schemas/annotations";

/** How the kind select names each kind. */
const KIND_LABELS: Record<AnnotationKind, string> = { note: "note", deploy: "deploy", change: "known change" };

/**
 * Actions on a run: pin it as the baseline of its label and delete it (after a confirmation:
 * docs/operations.md, "Deleting and retention"; then back to the run history), its maintainers'; annotate
 * it ("deployed v2.3"), a triager's too. Each shows to those who may (access.mine); the server checks either way.
 */
export function RunAdminActions({ project, runId, label }: { project: string; runId: string; label: string | null }) {
  const access = useProjectAccess(project);
  const [canManage, canMark] = [access.can("manage"), access.can("mark")];
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
  if (!canManage && !canMark) return null;

  return (
    <div
      className="border-border mt-3 flex flex-wrap items-center gap-2 border-t pt-3 text-sm"
      data-testid="run-admin-actions"
    >
      {canManage && (
        <button
          type="button"
          onClick={() => pin.mutate({ project, forLabel: label, runIds: [runId] })}
          className="border-border hover:border-accent rounded-md border px-2.5 py-1"
        >
          Pin as baseline{label ? ` of ${label}` : ""}
        </button>
      )}
      {canMark && (
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
            className="border-border bg-surface w-56 rounded border px-2 py-1"
          />
          <label className="sr-only" htmlFor="annotation-kind">
            Kind
          </label>
          <select
            id="annotation-kind"
            value={kind}
            onChange={(event) => setKind(event.target.value as AnnotationKind)}
            className="border-border bg-surface rounded border px-2 py-1"
            title="A known change (config, hardware) starts a new regime: change-point detection does not look across it"
          >
            {ANNOTATION_KINDS.map((value) => (
              <option key={value} value={value}>
                {KIND_LABELS[value]}
              </option>
            ))}
          </select>
          <button type="submit" className="border-border hover:border-accent rounded-md border px-2.5 py-1">
            Add
          </button>
        </form>
      )}
      {!canManage ? null : confirming ? (
        <span
          role="group"
          aria-label="Confirm deletion"
          className="border-bad flex flex-wrap items-center gap-2 rounded-md border px-2 py-1"
          data-testid="delete-run-confirm"
        >
          <span>Delete this run, its results, raw upload, notes and the changes first seen at it?</span>
          <button
            type="button"
            disabled={remove.isPending}
            onClick={() => remove.mutate({ project, id: runId })}
            className="border-bad text-bad hover:bg-bad/10 rounded-md border px-2.5 py-1 font-medium disabled:opacity-60"
          >
            {remove.isPending ? "Deleting…" : "Delete run"}
          </button>
          <button
            type="button"
            onClick={() => setConfirming(false)}
            className="border-border hover:border-accent rounded-md border px-2.5 py-1"
          >
            Cancel
          </button>
        </span>
      ) : (
        <button
          type="button"
          onClick={() => setConfirming(true)}
          className="border-border text-bad hover:border-bad rounded-md border px-2.5 py-1"
        >
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
