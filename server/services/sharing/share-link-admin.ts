import { withShareParam } from "../../domain/share";
import { absoluteUrl, pagePaths } from "../../domain/urls";
import type { PrismaClient } from "../../generated/prisma/client";
import type { Principal } from "../access";
import { SHARE_ID_PATTERN, requireProjectAccess, storedShareScopeSchema } from "../access";
import { ServiceError, notFound } from "../platform";
import { requireProject } from "../projects";
import { pageOfScope, shareIdHint } from "./share-links";
import { actorOf, recordAudit } from "../audit";

/**
 * A project's share links, the admin's to look over and revoke (Settings, GET/DELETE …/share-links).
 * Links minted before links were stored (sealed tokens) are in no table: they cannot be listed or revoked
 * one by one, only all at once by changing BENCHTRACK_SESSION_SECRET (docs/sharing.md).
 */

/** The most links listed: the newest. */
export const SHARE_LINK_LIST_LIMIT = 200;

/** The project's links, newest first, open, expired and revoked alike, each with what it opens and its address (admin). */
export async function listShareLinks(db: PrismaClient, principal: Principal, slug: string, baseUrl: string, now = new Date()) {
  const project = await requireProject(db, slug);
  await requireProjectAccess(db, principal, project, "manage");
  const rows = await db.shareLink.findMany({
    where: { projectId: project.id },
    select: { id: true, scope: true, createdBy: true, createdAt: true, expiresAt: true, revokedAt: true },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: SHARE_LINK_LIST_LIMIT,
  });
  return rows.flatMap((row) => {
    const stored = storedShareScopeSchema.safeParse(row.scope);
    // A row no version of this server wrote opens nothing (share-grants.ts reads it as invalid): not listed.
    if (!stored.success) return [];
    const scope = { ...stored.data, project: project.slug };
    const status = row.revokedAt !== null ? "revoked" : row.expiresAt <= now ? "expired" : "open";
    return [
      {
        id: row.id,
        url: absoluteUrl(baseUrl, pagePaths.shortShare(row.id)),
        page: withShareParam(pageOfScope(scope), row.id),
        scope: stored.data,
        status,
        createdBy: row.createdBy,
        createdAt: row.createdAt.toISOString(),
        expiresAt: row.expiresAt.toISOString(),
        revokedAt: row.revokedAt?.toISOString() ?? null,
      } as const,
    ];
  });
}

/**
 * Revokes a link of the project (admin): from then on it opens nothing and its pages say it was revoked.
 * Revoking it again is harmless; an id of another project's link, or no link's, is not found.
 */
export async function revokeShareLink(db: PrismaClient, principal: Principal, slug: string, id: string): Promise<void> {
  const project = await requireProject(db, slug);
  await requireProjectAccess(db, principal, project, "manage");
  const hint = "a share link's id is the 22 characters (A-Z, a-z, 0-9, - and _) after ?share= in its URL";
  if (!SHARE_ID_PATTERN.test(id)) throw new ServiceError("bad_request", "Not a share link's id", [{ path: "id", message: hint }]);
  const missing = () => notFound(`Share link "${id}"`, [{ path: "id", message: hint }]);
  await db.$transaction(async (tx) => {
    const { count } = await tx.shareLink.updateMany({ where: { id, projectId: project.id, revokedAt: null }, data: { revokedAt: new Date() } });
    if (count === 0) {
      if ((await tx.shareLink.count({ where: { id, projectId: project.id } })) === 0) throw missing();
      return; // Revoked already: nothing changed, nothing recorded.
    }
    const link = await tx.shareLink.findUniqueOrThrow({ where: { id }, select: { scope: true, createdBy: true } });
    const scope = storedShareScopeSchema.safeParse(link.scope);
    await recordAudit(tx, {
      ...actorOf(principal),
      action: "share.revoke",
      projectSlug: project.slug,
      targetId: null,
      detail: { link: shareIdHint(id), ...(scope.success && scope.data), createdBy: link.createdBy },
    });
  });
}
