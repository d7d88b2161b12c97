/**
 * Budgets as code: the SLA targets and gate settings a repository keeps in `benchtrack.json`
 * (docs/ci.md, "Budgets as code"), as they judge one run. The file's shape is a wire schema
 * (server/schemas/budget.ts); here is what it means for a run of a project and a label, and how it
 * stands over the project's Settings.
 *
 * Precedence, most specific first, field by field (the SLA's target list counts as one field):
 *   projects[<slug>].labels[<label>] › projects[<slug>] › labels[<label>] › the file's top level › Settings.
 * A project's entry overrides what the file says for every project; within each, a label's entry overrides.
 */
import type { SlaPolicy } from "../sla/policy";
import type { GateSettings } from "./judge";

/** What an inconclusive gate does to the CI job: pass with a warning, or fail it. */
export const INCONCLUSIVE_POLICIES = ["pass", "fail"] as const;
export type InconclusivePolicy = (typeof INCONCLUSIVE_POLICIES)[number];

/** The gate's settings a budget may set; each one absent falls through to the next layer. */
export interface BudgetGate {
  metric?: string;
  minEffectPct?: number;
  alpha?: number;
  inconclusive?: InconclusivePolicy;
}

/** One layer of the file: its SLA targets (replaced whole) and gate settings (each field on its own). */
export interface BudgetLayer {
  sla?: SlaPolicy;
  gate?: BudgetGate;
}

export interface BudgetFile extends BudgetLayer {
  labels?: Record<string, BudgetLayer>;
  projects?: Record<string, BudgetLayer & { labels?: Record<string, BudgetLayer> }>;
}

/** Where a budget was read: the path in the repository and the commit checked out then (null: unknown). */
export interface BudgetSource {
  path: string;
  commit: string | null;
}

/**
 * The budget that judged a run, kept with it: only what the file set for the run's project and label
 * (`sla` null: the Settings' targets; a gate field absent: the Settings' value).
 */
export interface RunBudget {
  source: BudgetSource;
  sla: SlaPolicy | null;
  gate: BudgetGate;
}

/**
 * The budget a file sets for one run, or null when it sets nothing for that project and label (the run
 * is then judged by Settings, as one uploaded without a file).
 */
export function resolveBudget(
  file: BudgetFile,
  source: BudgetSource,
  project: string,
  label: string | null,
): RunBudget | null {
  const own = file.projects?.[project];
  const labelled = (labels: Record<string, BudgetLayer> | undefined) => (label === null ? undefined : labels?.[label]);
  // Least specific first; each later layer overrides the fields it sets.
  const layers = [file, labelled(file.labels), own, labelled(own?.labels)].filter(
    (layer): layer is BudgetLayer => layer !== undefined,
  );
  let sla: SlaPolicy | null = null;
  const gate: BudgetGate = {};
  for (const layer of layers) {
    if (layer.sla !== undefined) sla = layer.sla;
    for (const [key, setting] of Object.entries(layer.gate ?? {}) as [
      keyof BudgetGate,
      BudgetGate[keyof BudgetGate],
    ][]) {
      if (setting !== undefined) Object.assign(gate, { [key]: setting });
    }
  }
  if (sla === null && Object.keys(gate).length === 0) return null;
  return { source, sla, gate };
}

/** The project's gate settings with what the run's budget sets over them. */
export function settingsWithBudget<Settings extends GateSettings>(
  settings: Settings,
  budget: RunBudget | null | undefined,
): Settings {
  if (!budget) return settings;
  const { metric, minEffectPct, alpha } = budget.gate;
  return {
    ...settings,
    ...(metric !== undefined && { gateMetric: metric }),
    ...(minEffectPct !== undefined && { minEffectPct }),
    ...(alpha !== undefined && { alpha }),
  };
}

/** The SLA policy a run is graded against: its budget's targets, else the Settings' (null: no SLA). */
export function slaPolicyWithBudget(
  settings: SlaPolicy | null,
  budget: RunBudget | null | undefined,
): SlaPolicy | null {
  return budget?.sla ?? settings;
}

/** The commit as the run page shows it: its first 7 hex digits. */
export function shortCommit(commit: string): string {
  return commit.slice(0, 7);
}

/**
 * Which budget judged a run, in a few words: "Budget from benchtrack.json at 3f2a9c1", "Budget from
 * Settings"; a file that set only part of it says what came from Settings.
 */
export function describeBudget(budget: RunBudget | null | undefined): string {
  if (!budget) return "Budget from Settings";
  const at = budget.source.commit === null ? "" : ` at ${shortCommit(budget.source.commit)}`;
  const fromSettings = [
    budget.sla === null && "SLA",
    Object.keys(budget.gate).filter((key) => key !== "inconclusive").length === 0 && "gate",
  ].filter(Boolean);
  return `Budget from ${budget.source.path}${at}${fromSettings.length > 0 ? ` (${fromSettings.join(" and ")} from Settings)` : ""}`;
}

/** What the upload's answer (and GET …/verdict) says of the budget that judged the run (schemas/budget.ts budgetAnswerSchema). */
export function budgetAnswer(budget: RunBudget | null | undefined) {
  return {
    source: budget ? ("file" as const) : ("settings" as const),
    path: budget?.source.path ?? null,
    commit: budget?.source.commit ?? null,
    inconclusive: budget?.gate.inconclusive ?? null,
    description: describeBudget(budget),
  };
}
