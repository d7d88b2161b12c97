import type { ReadDb } from "../../db";
import type { SlaPolicy } from "../../domain/sla/policy";
import { slaPolicySchema } from "../../domain/sla/policy";
import type { PrismaClient } from "../../generated/prisma/client";
import type { Principal } from "../access";
import { requireProjectAccess } from "../access";
import { requireProject } from "./projects";
import { getSlaPolicy } from "../runs";

/**
 * A project's SLA policy as its admin sees it: read it, replace it. Grading against it is ./sla.ts's
 * job. A project without a policy answers `{ targets: [] }`, and saving an empty target list removes
 * the policy (the project has no SLA).
 */
const NO_POLICY: SlaPolicy = { targets: [] };

/** The project's policy; `{ targets: [] }` when it has none. */
export async function getProjectSlaPolicy(db: ReadDb, slug: string): Promise<SlaPolicy> {
  const project = await requireProject(db, slug);
  return (await getSlaPolicy(db, project.id)) ?? NO_POLICY;
}

/** Replaces the policy (admin); `input` is checked against slaPolicySchema, with the path of each fault. */
export async function putSlaPolicy(db: PrismaClient, principal: Principal, slug: string, input: unknown): Promise<SlaPolicy> {
  const project = await requireProject(db, slug);
  await requireProjectAccess(db, principal, project, "manage");
  const policy = slaPolicySchema.parse(input);
  if (policy.targets.length === 0) {
    await db.slaPolicy.deleteMany({ where: { projectId: project.id } });
    return NO_POLICY;
  }
  const targets = policy.targets as unknown as object[];
  await db.slaPolicy.upsert({ where: { projectId: project.id }, create: { projectId: project.id, targets }, update: { targets } });
  return policy;
}
