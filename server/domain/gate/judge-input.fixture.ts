/** Test support: the gate's input for some base runs against one head run, with the default settings (judge.ts). */
import type { ComparableRun } from "../compare/compare-runs";
import type { JudgeInput } from "./judge";

export const JUDGE_SETTINGS = { minEffectPct: 5, alpha: 0.01, gateMetric: "auto" };

export function judgeInputOf(baseRuns: readonly ComparableRun[], head: ComparableRun): JudgeInput {
  return {
    projectSlug: "p",
    project: JUDGE_SETTINGS,
    baseline: { how: "test", pinned: false, basis: "recent", openRegression: null, openIncident: null },
    baseRuns,
    headRuns: [head],
    noiseOnlyRuns: [],
    head: { thresholds: [], tool: head.tool },
    grade: null,
    failOn: ["regression"],
  };
}
