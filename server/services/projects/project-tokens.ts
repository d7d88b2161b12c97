import type { PrismaClient } from "../../generated/prisma/client";
import { createTokenSchema } from "../../schemas/tokens";
import type { Principal } from "../access";
import { requireAdmin } from "../access";
import { notFound } from "../platform";
import { findProject, requireProject } from "./projects";
import { newTokenSecret } from "../access";
import { actorOf, recordAudit } from "../audit";

/**
 * A project's upload tokens, the admin's to manage: create one (its secret is in that answer only),
 * list them (never their secrets), revoke one. How secrets are made and checked: ./tokens.ts.
 */
const TOKEN_SELECT = { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true } as const;

/** Creates an upload token (admin); `input` is checked against createTokenSchema. */
export async function createProjectToken(db: PrismaClient, principal: Principal, slug: string, input: unknown) {
  requireAdmin(principal);
  // The README's token recipe is often a new server's first call: say how a project comes to be.
  const project = await findProject(db, slug);
  if (!project) {
    throw notFound(`Project "${slug}"`, [
      { path: "project", message: `create it first: an upload with the admin token creates its project, or POST /api/v1/projects {"slug": "${slug}"}` },
    ]);
  }
  const { name } = createTokenSchema.parse(input);
  const { token, prefix, tokenHash } = newTokenSecret();
  const created = await db.$transaction(async (tx) => {
    const row = await tx.apiToken.create({
      data: { projectId: project.id, name, prefix, tokenHash },
      select: { id: true, name: true, prefix: true, createdAt: true, scopes: true, expiresAt: true },
    });
    // The entry names the token (name, prefix, scopes, expiry), never its secret.
    await recordAudit(tx, {
      ...actorOf(principal),
      action: "token.create",
      projectSlug: project.slug,
      targetId: row.id,
      detail: { name: row.name, prefix: row.prefix, scopes: row.scopes, expiresAt: row.expiresAt?.toISOString() ?? null },
    });
    return { id: row.id, name: row.name, prefix: row.prefix, createdAt: row.createdAt };
  });
  return { ...created, token };
}

/** The project's tokens, newest first, without their secrets (admin). */
export async function listProjectTokens(db: PrismaClient, principal: Principal, slug: string) {
  requireAdmin(principal);
  const project = await requireProject(db, slug);
  return db.apiToken.findMany({ where: { projectId: project.id }, select: TOKEN_SELECT, orderBy: { createdAt: "desc" } });
}

/** Revokes a token of the project (admin); revoking it again is harmless; another project's token is not found. */
export async function revokeProjectToken(db: PrismaClient, principal: Principal, slug: string, tokenId: string): Promise<void> {
  requireAdmin(principal);
  const project = await requireProject(db, slug);
  await db.$transaction(async (tx) => {
    const { count } = await tx.apiToken.updateMany({
      where: { id: tokenId, projectId: project.id, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    if (count === 0) {
      if ((await tx.apiToken.count({ where: { id: tokenId, projectId: project.id } })) === 0) throw notFound(`Token "${tokenId}"`);
      return; // Revoked already: nothing changed, nothing recorded.
    }
    const token = await tx.apiToken.findUniqueOrThrow({ where: { id: tokenId }, select: { name: true, prefix: true } });
    await recordAudit(tx, { ...actorOf(principal), action: "token.revoke", projectSlug: project.slug, targetId: tokenId, detail: { name: token.name, prefix: token.prefix } });
  });
}
