import { InputError } from "../input-error";

/**
 * Which runs a side of a comparison is: a comma-separated list of run ids, or `label:<label>`,
 * `branch:<branch>`, `commit:<sha>` (newest first, `last` of them). Part of comparison URLs, so the
 * syntax is a public contract: docs/uploading.md ("Compare any two selections") and the API reference at
 * /docs/api (the compare query, server/schemas/compare.ts) document it.
 */
export type RunSelector =
  | { kind: "ids"; ids: string[] }
  | { kind: "label" | "branch" | "commit"; value: string };

export const MAX_RUNS_PER_SIDE = 50;

export function parseRunSelector(text: string, path: string): RunSelector {
  const trimmed = text.trim();
  const match = /^(label|branch|commit):(.+)$/s.exec(trimmed);
  if (match) {
    const value = match[2]!.trim();
    if (value.length === 0 || value.length > 1024) {
      throw new InputError("malformed", `The ${path} selector has an empty or too long value`, [{ path, message: trimmed.slice(0, 80) }]);
    }
    return { kind: match[1] as "label" | "branch" | "commit", value };
  }
  const ids = trimmed.split(",").map((id) => id.trim()).filter(Boolean);
  if (ids.length === 0) {
    throw new InputError("malformed", `The ${path} selector is empty: give run ids (a,b,c) or label:…, branch:…, commit:…`, [
      { path, message: "empty" },
    ]);
  }
  if (ids.length > MAX_RUNS_PER_SIDE) {
    throw new InputError("too_large", `At most ${MAX_RUNS_PER_SIDE} runs per side`, [{ path, message: `${ids.length} ids` }]);
  }
  if (ids.some((id) => !/^[A-Za-z0-9_-]{1,64}$/.test(id))) {
    throw new InputError("malformed", `The ${path} selector is not a list of run ids`, [{ path, message: trimmed.slice(0, 80) }]);
  }
  return { kind: "ids", ids: [...new Set(ids)] };
}

export function describeSelector(selector: RunSelector): string {
  return selector.kind === "ids" ? selector.ids.join(",") : `${selector.kind}:${selector.value}`;
}
