import type { ReadDb } from "../../db";
import type { SlaPolicy } from "../../domain/sla/policy";
import { slaPolicySchema } from "../../domain/sla/policy";
import type { PrismaClient } from "../../generated/prisma/client";
import type { Principal } from "../access";
import { requireProjectAccess } from "../access";
import { requireProject } from "./projects";
import { getSlaPolicy } from "../runs";
import { actorOf, recordAudit } from "../audit";

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
  const targets = policy.targets as unknown as object[];
  return db.$transaction(async (tx) => {
    const before = (await getSlaPolicy(tx, project.id))?.targets ?? [];
    if (policy.targets.length === 0) await tx.slaPolicy.deleteMany({ where: { projectId: project.id } });
    else await tx.slaPolicy.upsert({ where: { projectId: project.id }, create: { projectId: project.id, targets }, update: { targets } });
    // One entry when the targets changed: the whole list before and after (a policy is saved whole).
    if (JSON.stringify(before) !== JSON.stringify(policy.targets)) {
      await recordAudit(tx, { ...actorOf(principal), action: "sla.update", projectSlug: project.slug, targetId: project.id, detail: { from: { targets: before }, to: { targets: policy.targets } } });
    }
    return policy.targets.length === 0 ? NO_POLICY : policy;
  });
}
