import type { ParsedRun } from "../domain/run";
import type { SlaGrade } from "../domain/sla/grade";
import { gradeRunIfPolicy } from "../domain/sla/grade";
import type { SlaPolicy } from "../domain/sla/policy";
import { slaPolicySchema } from "../domain/sla/policy";
import type { PrismaClient } from "../generated/prisma/client";

/**
 * SLA policies and grades. A policy is stored as one validated document per project; grades are
 * computed on read against the CURRENT policy (so changing a target regrades history at once, and
 * nothing goes stale), from the run's stored results.
 */
export async function getSlaPolicy(db: PrismaClient, projectId: string): Promise<SlaPolicy | null> {
  const stored = await db.slaPolicy.findUnique({ where: { projectId }, select: { targets: true } });
  if (!stored) return null;
  const parsed = slaPolicySchema.safeParse({ targets: stored.targets });
  // A stored policy always passed this schema; if a later version tightened it, grade nothing rather than guess.
  return parsed.success ? parsed.data : null;
}

/** Replaces the policy; an empty target list removes it (the project has no SLA). */
export async function putSlaPolicy(db: PrismaClient, projectId: string, input: unknown): Promise<SlaPolicy | null> {
  const policy = slaPolicySchema.parse(input);
  if (policy.targets.length === 0) {
    await db.slaPolicy.deleteMany({ where: { projectId } });
    return null;
  }
  const targets = policy.targets as unknown as object[];
  await db.slaPolicy.upsert({ where: { projectId }, create: { projectId, targets }, update: { targets } });
  return policy;
}

export function gradeParsedRun(policy: SlaPolicy | null, run: ParsedRun): SlaGrade | null {
  return gradeRunIfPolicy(policy, { aggregate: run.aggregate, endpoints: run.endpoints, metrics: run.metrics });
}
