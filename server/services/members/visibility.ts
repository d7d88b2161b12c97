import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import type { ProjectVisibility } from "../../domain/access/roles";
import type { Principal, ProjectRef } from "../access";
import { effectiveVisibility, requireProjectAccess } from "../access";
import { actorOf, recordAudit } from "../audit";
import { requireProjectRef } from "./project-ref";

/**
 * A project's visibility (docs/access.md, "Visibility"): public (anyone reads it), private (only those
 * given access), or null, the server's default (private when BENCHTRACK_READ_TOKEN is set). Setting it
 * needs "manage"; each change is in the audit log, from → to, in the transaction that makes it.
 */

export interface VisibilityState {
  /** As stored: null is the server's default. */
  setting: ProjectVisibility | null;
  /** What applies now. */
  effective: ProjectVisibility;
  /** What null means on this server now. */
  serverDefault: ProjectVisibility;
}

export function visibilityState(setting: ProjectVisibility | null): VisibilityState {
  return { setting, effective: effectiveVisibility(setting), serverDefault: effectiveVisibility(null) };
}

/**
 * Sets the project's visibility inside the caller's transaction and records the change (nothing when it
 * is the same). The row is locked first, so two changes at once each record the value the other left.
 */
export async function applyVisibility(tx: Prisma.TransactionClient, project: Pick<ProjectRef, "id" | "slug">, to: ProjectVisibility | null, actor: string): Promise<void> {
  const [current] = await tx.$queryRaw<{ visibility: ProjectVisibility | null }[]>`SELECT visibility::text AS visibility FROM projects WHERE id = ${project.id} FOR UPDATE`;
  const from = current?.visibility ?? null;
  if (from === to) return;
  await tx.project.update({ where: { id: project.id }, data: { visibility: to } });
  await recordAudit(tx, {
    actor,
    action: "project.visibility",
    projectSlug: project.slug,
    targetId: project.id,
    detail: { from, to, effective: { from: effectiveVisibility(from), to: effectiveVisibility(to) } },
  });
}

/** Sets who may read the project ("manage"); the transports validate `to` (projectVisibilitySchema). */
export async function setProjectVisibility(
  db: PrismaClient,
  principal: Principal,
  slug: string,
  to: ProjectVisibility | null,
  { viaSession }: { viaSession: boolean },
): Promise<VisibilityState> {
  const project = await requireProjectRef(db, slug);
  await requireProjectAccess(db, principal, project, "manage");
  await db.$transaction(async (tx) => applyVisibility(tx, project, to, actorOf(principal, { viaSession }).actor));
  return visibilityState(to);
}
