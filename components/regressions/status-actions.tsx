"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { adminFetch, isProblem, useAdminToken } from "@/components/settings/admin-token";

/** Acknowledge / dismiss / reopen a regression: needs the admin token (entered on the Settings page). */
export function StatusActions({ project, id, status }: { project: string; id: string; status: "open" | "acknowledged" | "dismissed" }) {
  const [token] = useAdminToken();
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  if (!token) {
    return (
      <a href={`/projects/${encodeURIComponent(project)}/settings`} className="text-xs text-text-muted underline" title="Acknowledging needs the admin token">
        unlock to triage
      </a>
    );
  }
  const change = async (next: "open" | "acknowledged" | "dismissed") => {
    const result = await adminFetch(token, `/api/v1/projects/${encodeURIComponent(project)}/regressions/${id}`, {
      method: "PATCH",
      body: JSON.stringify({ status: next }),
    });
    if (isProblem(result)) setError(result.message);
    else router.refresh();
  };
  const button = "rounded border border-border px-2 py-0.5 text-xs hover:border-accent";
  return (
    <span className="flex flex-wrap items-center gap-1.5">
      {status !== "acknowledged" && (
        <button type="button" className={button} onClick={() => void change("acknowledged")}>
          Acknowledge
        </button>
      )}
      {status !== "dismissed" && (
        <button type="button" className={button} onClick={() => void change("dismissed")}>
          Dismiss
        </button>
      )}
      {status !== "open" && (
        <button type="button" className={button} onClick={() => void change("open")}>
          Reopen
        </button>
      )}
      {error && (
        <span role="alert" className="text-xs text-bad">
          {error}
        </span>
      )}
    </span>
  );
}
