import type { ReadDb } from "../../db";
import type { ParsedRun } from "../../domain/run";
import type { SlaGrade } from "../../domain/sla/grade";
import { gradeRunIfPolicy } from "../../domain/sla/grade";
import type { SlaPolicy } from "../../domain/sla/policy";
import { slaPolicySchema } from "../../domain/sla/policy";
import { loadParsedRuns } from "./stored-runs";

/**
 * SLA policies and grades. A policy is stored as one validated document per project; grades are
 * computed on read against the CURRENT policy (so changing a target regrades history at once, and
 * nothing goes stale), from the run's stored results.
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

/** Grades of several runs (one query for the runs); an empty map when the project has no SLA. */
export async function gradeRuns(db: ReadDb, projectId: string, runIds: readonly string[]): Promise<Map<string, SlaGrade | null>> {
  const policy = await getSlaPolicy(db, projectId);
  if (!policy || runIds.length === 0) return new Map();
  const loaded = await loadParsedRuns(db, projectId, runIds);
  return new Map([...loaded].map(([id, { run }]) => [id, gradeParsedRun(policy, run)]));
}

/** The compact form lists show: letter and score, or why there is none. */
export function gradeSummary(grade: SlaGrade | null | undefined) {
  if (!grade) return null;
  return { letter: grade.letter, score: grade.score, passed: grade.passed, evaluated: grade.evaluated };
}
