import type { PrismaClient } from "../../generated/prisma/client";
import type { Principal } from "../access";
import { requireProjectAccess } from "../access";
import { actorOf, recordAudit } from "../audit";
import { ServiceError, jobQueueFor } from "../platform";
import { requireProject } from "../projects";
import type { DeleteCall } from "./delete-runs";

/**
 * DELETE /api/v1/projects/:project and Settings' danger zone (admin only): the project and everything
 * of it, in one transaction: its runs (results, metrics, raw uploads, annotations), endpoints, changes,
 * incidents and their history, tokens, share links, webhook deliveries, SLA policy, baseline pins,
 * history log, rollups and pending weeks (foreign keys, ON DELETE CASCADE); the rate-limit rows of its
 * tokens (`upload:token:<id>`); and its jobs still waiting in the queue (a running one finds the project
 * gone and does nothing). Its audit entries stay (they name the project by slug), with one more saying
 * it was deleted. `confirm`, when given (the dashboard), must be the slug.
 */
export async function deleteProject(db: PrismaClient, principal: Principal, slug: string, call: Omit<DeleteCall, "baseUrl"> & { confirm?: string; actor?: string }) {
  const project = await requireProject(db, slug);
  await requireProjectAccess(db, principal, project, "manage");
  if (call.confirm !== undefined && call.confirm.trim() !== project.slug) {
    throw new ServiceError("bad_request", `Type the project's slug, "${project.slug}", to delete it`, [{ path: "confirm", message: "does not match the project's slug" }]);
  }
  const queue = await jobQueueFor(db);
  const actor = call.actor !== undefined ? { actor: call.actor, actorUserId: null } : actorOf(principal, call);
  return db.$transaction(
    async (tx) => {
      // Locked: an upload to the project (which reads it FOR SHARE or updates its history version) waits, then finds it gone.
      await tx.$queryRaw`SELECT id FROM projects WHERE id = ${project.id} FOR UPDATE`;
      const [runs, tokens, shareLinks, incidents] = await Promise.all([
        tx.run.count({ where: { projectId: project.id } }),
        tx.apiToken.findMany({ where: { projectId: project.id }, select: { id: true } }),
        tx.shareLink.count({ where: { projectId: project.id } }),
        tx.incident.count({ where: { projectId: project.id } }),
      ]);
      const tokenIds = tokens.map((token) => token.id);
      await tx.$executeRaw`
        DELETE FROM rate_limits WHERE key = ANY(SELECT kind || ':token:' || id FROM unnest(${tokenIds}::text[]) AS id, unnest(ARRAY['upload', 'read']) AS kind)`;
      const queuedJobs = await tx.$executeRawUnsafe(
        `DELETE FROM ${queue.schema}.job WHERE data->>'projectId' = $1 AND state IN ('created', 'retry')`,
        project.id,
      );
      await tx.project.delete({ where: { id: project.id } });
      const deleted = { runs, tokens: tokenIds.length, shareLinks, incidents, queuedJobs };
      const auditId = await recordAudit(tx, { ...actor, action: "project.delete", projectSlug: project.slug, targetId: project.id, detail: { name: project.name, ...deleted } });
      return { project: project.slug, deleted, auditId };
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
}
