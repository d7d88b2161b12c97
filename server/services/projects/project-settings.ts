import type { ReadDb } from "../../db";
import { Prisma } from "../../generated/prisma/client";
import type { PrismaClient } from "../../generated/prisma/client";
import { createProjectSchema, updateProjectSchema } from "../../schemas/projects";
import type { Principal } from "../access";
import { effectiveVisibility, requireAdmin, requireProjectAccess } from "../access";
import { applyVisibility } from "../members";
import { ServiceError } from "../platform";
import { jobQueueFor } from "../platform";
import { requireProject } from "./projects";
import { getSlaPolicy } from "../runs";
import { actorOf, recordAudit } from "../audit";
import { changedFields } from "../../domain/audit/actions";

/**
 * A project's identity and the settings an admin changes: creating a project, changing its settings,
 * and the one presentation of them that the REST API and the settings page share. Changes are the
 * admin's only (requireAdmin), whichever transport asked.
 */

type ProjectRow = Awaited<ReturnType<typeof requireProject>>;

/** The project as the API shows it: identity and the settings an admin can change. */
function projectSettings(project: ProjectRow) {
  return {
    slug: project.slug,
    name: project.name,
    description: project.description,
    defaultBranch: project.defaultBranch,
    repoUrl: project.repoUrl,
    minEffectPct: project.minEffectPct,
    alpha: project.alpha,
    gateMetric: project.gateMetric,
    rawRetentionDays: project.rawRetentionDays,
    retentionDays: project.retentionDays,
    retentionKeepRuns: project.retentionKeepRuns,
    visibility: project.visibility,
    effectiveVisibility: effectiveVisibility(project.visibility),
    isDemo: project.isDemo,
    createdAt: project.createdAt.toISOString(),
  };
}

export type ProjectSettings = ReturnType<typeof projectSettings>;

/** The project's settings, for anyone who may read the project. */
export async function getProjectSettings(db: ReadDb, slug: string): Promise<ProjectSettings> {
  return projectSettings(await requireProject(db, slug));
}

/**
 * What the settings page shows, before and after the admin token is entered: the settings and the
 * current SLA targets (an empty list: no SLA).
 */
export async function getSettingsPage(db: ReadDb, slug: string) {
  const project = await requireProject(db, slug);
  const policy = await getSlaPolicy(db, project.id);
  return { settings: projectSettings(project), slaTargets: policy?.targets ?? [] };
}

/** Creates a project (admin); `input` is checked against createProjectSchema; a taken slug is a conflict. */
export async function createProject(db: PrismaClient, principal: Principal, input: unknown) {
  requireAdmin(principal);
  const { slug, name, description, defaultBranch, repoUrl } = createProjectSchema.parse(input);
  const taken = () => new ServiceError("conflict", `Project "${slug}" already exists`, [{ path: "slug", message: "taken" }]);
  if (await db.project.findUnique({ where: { slug }, select: { id: true } })) throw taken();
  try {
    return await db.$transaction(async (tx) => {
      const created = await tx.project.create({ data: { slug, name: name ?? slug, description, defaultBranch, repoUrl } });
      await recordAudit(tx, {
        ...actorOf(principal),
        action: "project.create",
        projectSlug: created.slug,
        targetId: created.id,
        detail: { name: created.name, defaultBranch: created.defaultBranch },
      });
      return created;
    });
  } catch (error) {
    // Two creations of one slug at once: the unique index decides, and the loser hears the same answer.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") throw taken();
    throw error;
  }
}

/** Run retention's fields: their change is a `retention.update` entry; every other field's, `settings.update`. */
const RUN_RETENTION_FIELDS = ["retentionDays", "retentionKeepRuns"] as const;

/** The audit entries of a settings change: one per kind of change, with only the fields that changed. */
async function auditSettingsChange(tx: Prisma.TransactionClient, principal: Principal, project: ProjectRow, data: Record<string, unknown>): Promise<void> {
  const before = project as unknown as Record<string, unknown>;
  const pick = (retention: boolean) =>
    Object.fromEntries(Object.entries(data).filter(([field]) => (RUN_RETENTION_FIELDS as readonly string[]).includes(field) === retention));
  for (const [action, fields] of [["settings.update", pick(false)], ["retention.update", pick(true)]] as const) {
    const change = changedFields(before, fields);
    if (change) await recordAudit(tx, { ...actorOf(principal), action, projectSlug: project.slug, targetId: project.id, detail: change });
  }
}

/**
 * Changes a project's settings (its maintainers); `changes` is checked against updateProjectSchema. A change of
 * visibility is recorded in the audit log in the same transaction (services/members: applyVisibility).
 */
export async function updateProjectSettings(
  db: PrismaClient,
  principal: Principal,
  slug: string,
  changes: unknown,
  { viaSession = false }: { viaSession?: boolean } = {},
): Promise<ProjectSettings> {
  const project = await requireProject(db, slug);
  await requireProjectAccess(db, principal, project, "manage");
  const { visibility, ...data } = updateProjectSchema.parse(changes);
  const queue = await jobQueueFor(db);
  // The jobs a change needs are enqueued with it: they exist exactly when the change was committed.
  const updated = await db.$transaction(async (tx) => {
    if (visibility !== undefined) await applyVisibility(tx, project, visibility, actorOf(principal, { viaSession }).actor);
    const row = await tx.project.update({ where: { id: project.id }, data });
    await auditSettingsChange(tx, principal, project, data);
    // Another default branch is another history: detection runs again over it.
    if (data.defaultBranch !== undefined && data.defaultBranch !== project.defaultBranch) {
      await queue.send("redetect-project", { projectId: project.id }, { tx, singletonKey: project.id });
    }
    // A shorter retention applies now, not at the next nightly run.
    if (data.rawRetentionDays !== undefined && data.rawRetentionDays !== null && data.rawRetentionDays !== project.rawRetentionDays) {
      await queue.send("apply-retention", { projectId: project.id }, { tx, singletonKey: project.id });
    }
    return row;
  });
  return projectSettings(updated);
}
