"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import type { RouterOutputs } from "@/server/api/root";
import { Problem } from "./problem";

export type ProjectSettingsValues = RouterOutputs["settings"]["get"]["settings"];

const FIELDS = ["name", "defaultBranch", "description", "repoUrl", "minEffectPct", "alpha", "gateMetric", "rawRetentionDays"] as const;
type Field = (typeof FIELDS)[number];
/** The form as typed: every field a string until it is saved. */
type Draft = Record<Field, string>;

const INPUT = "rounded border border-border bg-surface px-2 py-1 text-sm";

function toDraft(settings: ProjectSettingsValues): Draft {
  return Object.fromEntries(FIELDS.map((field) => [field, String(settings[field] ?? "")])) as Draft;
}

/** Name, default branch, repository link and the regression settings every comparison and the CI gate use. */
export function ProjectForm({ project, initial }: { project: string; initial: ProjectSettingsValues }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => toDraft(initial));
  const save = useMutation(
    trpc.settings.update.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.settings.get.queryFilter({ project })),
    }),
  );

  const submit = () =>
    save.mutate({
      project,
      name: draft.name,
      defaultBranch: draft.defaultBranch,
      // An emptied optional field clears it; the server checks the numbers and names the field at fault.
      description: draft.description || null,
      repoUrl: draft.repoUrl || null,
      minEffectPct: Number(draft.minEffectPct),
      alpha: Number(draft.alpha),
      gateMetric: draft.gateMetric.trim() || "auto",
      // Empty keeps every raw upload.
      rawRetentionDays: draft.rawRetentionDays.trim() === "" ? null : Number(draft.rawRetentionDays),
    });

  const field = (key: Field, label: string, hint?: string) => (
    <label className="flex flex-col gap-1 text-xs">
      {label}
      <input value={draft[key]} onChange={(event) => setDraft({ ...draft, [key]: event.target.value })} className={INPUT} />
      {hint && <span className="text-text-muted">{hint}</span>}
    </label>
  );

  return (
    <div className="space-y-3">
      <div className="grid gap-3 sm:grid-cols-2">
        {field("name", "name")}
        {field("defaultBranch", "default branch", "Its history is the baseline for new runs.")}
        {field("description", "description")}
        {field("repoUrl", "repository URL", "Commits link to <repo>/commit/<sha>.")}
        {field("minEffectPct", "minimum effect (%)", "Smaller changes are never called regressions (default 5).")}
        {field("alpha", "significance level α", "An unchanged run fails the gate at most this often, whatever the number of endpoints (default 0.01).")}
        {field("gateMetric", "gate metric", "What each endpoint is judged on: auto (p95, else the tail its request count supports), p99, mean, metrics.<key>.")}
        {field(
          "rawRetentionDays",
          "keep raw uploads (days)",
          "Older raw files are dropped nightly (never a pinned baseline's); every number stays. Empty keeps them all.",
        )}
      </div>
      <div className="flex items-center gap-2">
        <button type="button" onClick={submit} disabled={save.isPending} className="rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-accent-text disabled:opacity-60">
          Save settings
        </button>
        {save.isSuccess && (
          <span role="status" className="text-sm text-good">
            Saved.
          </span>
        )}
      </div>
      {save.error && <Problem error={save.error} />}
    </div>
  );
}
