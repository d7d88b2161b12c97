"use client";

import { useState } from "react";
import { adminFetch, isProblem } from "./admin-token";
import type { ApiProblem } from "./admin-token";
import { Problem } from "./problem";

export interface ProjectSettingsValues {
  name: string;
  description: string | null;
  defaultBranch: string;
  repoUrl: string | null;
  minEffectPct: number;
  alpha: number;
}

const INPUT = "rounded border border-border bg-surface px-2 py-1 text-sm";

/** Name, default branch, repository link and the regression settings used by every verdict. */
export function ProjectForm({ project, token, initial }: { project: string; token: string; initial: ProjectSettingsValues }) {
  const [values, setValues] = useState(initial);
  const [result, setResult] = useState<{ problem: ApiProblem | null; saved: boolean }>({ problem: null, saved: false });

  async function save() {
    const response = await adminFetch(token, `/api/v1/projects/${encodeURIComponent(project)}`, {
      method: "PATCH",
      body: JSON.stringify({
        ...values,
        description: values.description || null,
        repoUrl: values.repoUrl || null,
        minEffectPct: Number(values.minEffectPct),
        alpha: Number(values.alpha),
      }),
    });
    setResult({ problem: isProblem(response) ? response : null, saved: !isProblem(response) });
  }

  const field = (key: keyof ProjectSettingsValues, label: string, hint?: string) => (
    <label className="flex flex-col gap-1 text-xs">
      {label}
      <input value={values[key] ?? ""} onChange={(event) => setValues({ ...values, [key]: event.target.value })} className={INPUT} />
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
        {field("alpha", "significance level α", "p must be below it (default 0.05).")}
      </div>
      <div className="flex items-center gap-2">
        <button type="button" onClick={() => void save()} className="rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-accent-text">
          Save settings
        </button>
        {result.saved && (
          <span role="status" className="text-sm text-good">
            Saved.
          </span>
        )}
      </div>
      {result.problem && <Problem problem={result.problem} />}
    </div>
  );
}
