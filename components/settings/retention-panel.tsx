"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useDeferredValue, useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import type { ProjectSettingsValues } from "./project-form";
import { Problem } from "./problem";

const INPUT = "w-32 rounded border border-border bg-surface px-2 py-1 text-sm";

/** A typed limit: empty is no limit (null), a whole number ≥ 1 is the limit, anything else is invalid (undefined). */
function parseLimit(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  const value = Number(trimmed);
  return Number.isInteger(value) && value >= 1 ? value : undefined;
}

/**
 * Run retention (docs/operations.md, "Deleting and retention"): keep runs by age and/or by count per
 * series; the nightly sweep deletes the rest, never a series' newest run, a pinned run or an open
 * incident's first run. What the rule being typed would delete now is shown before it is saved.
 */
export function RetentionPanel({ project, initial }: { project: string; initial: ProjectSettingsValues }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [days, setDays] = useState(initial.retentionDays === null ? "" : String(initial.retentionDays));
  const [keep, setKeep] = useState(initial.retentionKeepRuns === null ? "" : String(initial.retentionKeepRuns));
  const rule = { retentionDays: parseLimit(useDeferredValue(days)), retentionKeepRuns: parseLimit(useDeferredValue(keep)) };
  const valid = rule.retentionDays !== undefined && rule.retentionKeepRuns !== undefined;
  const preview = useQuery({
    ...trpc.settings.previewRetention.queryOptions({ project, retentionDays: rule.retentionDays ?? null, retentionKeepRuns: rule.retentionKeepRuns ?? null }),
    enabled: valid,
    placeholderData: keepPreviousData,
  });
  const save = useMutation(
    trpc.settings.update.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.settings.get.queryFilter({ project })),
    }),
  );
  const noRule = rule.retentionDays === null && rule.retentionKeepRuns === null;

  return (
    <div className="space-y-3 text-sm" data-testid="retention-panel">
      <p className="text-text-muted">
        The nightly sweep (03:17 UTC) deletes the runs outside either limit, each as if deleted by hand. It never deletes the newest run of a series
        (tool, label, branch, testbed), a run a baseline pin names, or the first run of an open or investigating incident.
      </p>
      <div className="flex flex-wrap gap-4">
        <label className="flex flex-col gap-1 text-xs">
          keep runs for (days)
          <input value={days} inputMode="numeric" onChange={(event) => setDays(event.target.value)} className={INPUT} placeholder="no limit" />
        </label>
        <label className="flex flex-col gap-1 text-xs">
          keep newest runs per series
          <input value={keep} inputMode="numeric" onChange={(event) => setKeep(event.target.value)} className={INPUT} placeholder="no limit" />
        </label>
      </div>
      <p role="status" data-testid="retention-preview" className={!valid ? "text-bad" : undefined}>
        {!valid
          ? "Each limit is a whole number of at least 1, or empty for none."
          : noRule
            ? "No rule: every run is kept."
            : preview.data
              ? `This rule would delete ${preview.data.wouldDelete} of ${preview.data.totalRuns} runs now${preview.data.protectedRuns > 0 ? ` (${preview.data.protectedRuns} more kept as protected)` : ""}.`
              : "Counting…"}
      </p>
      <div className="flex items-center gap-2">
        <button
          type="button"
          disabled={!valid || save.isPending}
          onClick={() => valid && save.mutate({ project, retentionDays: rule.retentionDays ?? null, retentionKeepRuns: rule.retentionKeepRuns ?? null })}
          className="rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-accent-text disabled:opacity-60"
        >
          Save retention
        </button>
        {save.isSuccess && <span className="text-good">Saved: applied at the next nightly sweep.</span>}
      </div>
      {save.error && <Problem error={save.error} />}
      {preview.error && <Problem error={preview.error} />}
    </div>
  );
}
