import type { ReadDb } from "../../db";
import type { ParsedRun } from "../../domain/run";
import type { SlaGrade } from "../../domain/sla/grade";
import { gradeRunIfPolicy } from "../../domain/sla/grade";
import type { SlaPolicy } from "../../domain/sla/policy";
import { slaPolicySchema } from "../../domain/sla/policy";
import { loadParsedRuns } from "./stored-runs";
import type { LoadedRun } from "./stored-runs";
import { slaPolicyWithBudget } from "../../domain/gate/budget";
import { Prisma } from "../../generated/prisma/client";

/**
 * SLA policies and grades. A policy is stored as one validated document per project; grades are
 * computed on read against the CURRENT policy (so changing a target regrades history at once, and
 * nothing goes stale), from the run's stored results. A run whose upload sent a budget with SLA targets
 * (benchtrack.json) is graded against those, kept with it, whatever Settings say later.
 */
export async function getSlaPolicy(db: ReadDb, projectId: string): Promise<SlaPolicy | null> {
  const stored = await db.slaPolicy.findUnique({ where: { projectId }, select: { targets: true } });
  if (!stored) return null;
  const parsed = slaPolicySchema.safeParse({ targets: stored.targets });
  // A stored policy always passed this schema; if a later version tightened it, grade nothing rather than guess.
  return parsed.success ? parsed.data : null;
}

export function gradeParsedRun(policy: SlaPolicy | null, run: ParsedRun): SlaGrade | null {
  return gradeRunIfPolicy(policy, { aggregate: run.aggregate, endpoints: run.endpoints, metrics: run.metrics });
}

/**
 * A stored (or about to be stored) run's grade: against the SLA targets its budget set (a benchtrack.json
 * sent with its upload: docs/ci.md, "Budgets as code"), else the project's current policy.
 */
export function gradeLoadedRun(settingsPolicy: SlaPolicy | null, loaded: LoadedRun): SlaGrade | null {
  return gradeParsedRun(slaPolicyWithBudget(settingsPolicy, loaded.stored.budget), loaded.run);
}

/**
 * Grades of several runs (one query for the runs); without an SLA in Settings, only the runs whose own
 * budget set targets are read (one small query finds them), and an empty map when none did.
 */
export async function gradeRuns(db: ReadDb, projectId: string, runIds: readonly string[]): Promise<Map<string, SlaGrade | null>> {
  if (runIds.length === 0) return new Map();
  const policy = await getSlaPolicy(db, projectId);
  const graded = policy
    ? runIds
    : (await db.run.findMany({ where: { id: { in: [...runIds] }, projectId, budget: { not: Prisma.DbNull } }, select: { id: true } })).map((row) => row.id);
  if (graded.length === 0) return new Map();
  const loaded = await loadParsedRuns(db, projectId, graded);
  return new Map([...loaded].map(([id, run]) => [id, gradeLoadedRun(policy, run)]));
}

/** The compact form lists show: letter and score, or why there is none. */
export function gradeSummary(grade: SlaGrade | null | undefined) {
  if (!grade) return null;
  return { letter: grade.letter, score: grade.score, passed: grade.passed, evaluated: grade.evaluated };
}
