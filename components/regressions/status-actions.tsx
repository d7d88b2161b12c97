"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { useIsAdmin } from "@/components/providers/session-provider";
import { describeProblem } from "@/components/settings/problem";
import { pagePaths } from "@/server/domain/urls";

type Status = "open" | "acknowledged" | "dismissed";

/** Acknowledge / dismiss / reopen a regression: needs an admin session (the admin token, entered on the Settings page). */
export function StatusActions({ project, id, status }: { project: string; id: string; status: Status }) {
  const isAdmin = useIsAdmin();
  const router = useRouter();
  const trpc = useTRPC();
  const [error, setError] = useState<string | null>(null);
  // The inbox is a server-rendered page: render it again with the new status.
  const change = useMutation(
    trpc.regression.setStatus.mutationOptions({
      onSuccess: () => router.refresh(),
      onError: (failure) => setError(describeProblem(failure)),
    }),
  );
  if (!isAdmin) {
    return (
      <a href={pagePaths.settings(project)} className="text-xs text-text-muted underline" title="Acknowledging needs the admin token">
        unlock to triage
      </a>
    );
  }
  const button = "rounded border border-border px-2 py-0.5 text-xs hover:border-accent disabled:opacity-50";
  const action = (next: Status, text: string) =>
    status !== next && (
      <button type="button" className={button} disabled={change.isPending} onClick={() => change.mutate({ project, id, status: next })}>
        {text}
      </button>
    );
  return (
    <span className="flex flex-wrap items-center gap-1.5">
      {action("acknowledged", "Acknowledge")}
      {action("dismissed", "Dismiss")}
      {action("open", "Reopen")}
      {error && (
        <span role="alert" className="text-xs text-bad">
          {error}
        </span>
      )}
    </span>
  );
}
