"use client";

import { useSuspenseQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Card } from "@/components/ui/card";
import { useAdminToken } from "./admin-token";
import { ProjectForm } from "./project-form";
import { SlaEditor } from "./sla-editor";
import { TokensPanel } from "./tokens-panel";

/**
 * Settings need the admin token, asked for once per browser session; until it is entered the page
 * shows the current SLA targets. The settings come from settings.get (prefetched by the page).
 */
export function SettingsView({ project }: { project: string }) {
  const trpc = useTRPC();
  const {
    data: { settings, slaTargets: targets },
  } = useSuspenseQuery(trpc.settings.get.queryOptions({ project }));
  const [token, setToken] = useAdminToken();
  const [draft, setDraft] = useState("");

  if (!token) {
    return (
      <Card title="Admin token required">
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (draft.trim()) setToken(draft.trim());
          }}
        >
          <label className="flex flex-col gap-1 text-sm">
            Admin token (BENCHTRACK_ADMIN_TOKEN)
            <input
              type="password"
              autoComplete="off"
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              className="w-72 rounded border border-border bg-surface px-2 py-1"
              data-testid="admin-token-input"
            />
          </label>
          <button type="submit" className="rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-accent-text">
            Unlock settings
          </button>
        </form>
        <p className="mt-2 text-xs text-text-muted">
          Kept in this tab&apos;s session storage only, and sent only to this server&apos;s API. Current SLA targets:{" "}
          {targets.length === 0 ? "none" : targets.map((target) => `${target.metric} ${target.op} ${target.threshold}${target.unit ? ` ${target.unit}` : ""}`).join(", ")}.
        </p>
      </Card>
    );
  }

  return (
    <div className="space-y-5">
      <div className="flex justify-end">
        <button type="button" onClick={() => setToken(null)} className="text-xs text-text-muted underline">
          Forget the admin token
        </button>
      </div>
      <Card title="SLA policy">
        <SlaEditor project={project} initial={targets} />
      </Card>
      <Card title="Project and regression settings">
        <ProjectForm project={project} initial={settings} />
      </Card>
      <Card title="Upload tokens">
        <TokensPanel project={project} />
      </Card>
    </div>
  );
}
