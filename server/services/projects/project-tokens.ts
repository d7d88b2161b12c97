import type { PrismaClient } from "../../generated/prisma/client";
import { createTokenSchema } from "../../schemas/tokens";
import type { Principal } from "../access";
import { requireProjectAccess } from "../access";
import { notFound } from "../platform";
import { findProject, requireProject } from "./projects";
import { newTokenSecret } from "../access";

/**
 * A project's upload tokens, the admin's to manage: create one (its secret is in that answer only),
 * list them (never their secrets), revoke one. How secrets are made and checked: ./tokens.ts.
 */
const TOKEN_SELECT = { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true } as const;

/** Creates an upload token (admin); `input` is checked against createTokenSchema. */
export async function createProjectToken(db: PrismaClient, principal: Principal, slug: string, input: unknown) {
  // The README's token recipe is often a new server's first call: say how a project comes to be.
  const project = await findProject(db, slug);
  if (!project) {
    throw notFound(`Project "${slug}"`, [
      { path: "project", message: `create it first: an upload with the admin token creates its project, or POST /api/v1/projects {"slug": "${slug}"}` },
    ]);
  }
  await requireProjectAccess(db, principal, project, "manage");
  const { name } = createTokenSchema.parse(input);
  const { token, prefix, tokenHash } = newTokenSecret();
  const created = await db.apiToken.create({
    data: { projectId: project.id, name, prefix, tokenHash },
    select: { id: true, name: true, prefix: true, createdAt: true },
  });
  return { ...created, token };
}

/** The project's tokens, newest first, without their secrets (admin). */
export async function listProjectTokens(db: PrismaClient, principal: Principal, slug: string) {
  const project = await requireProject(db, slug);
  await requireProjectAccess(db, principal, project, "manage");
  return db.apiToken.findMany({ where: { projectId: project.id }, select: TOKEN_SELECT, orderBy: { createdAt: "desc" } });
}

/** Revokes a token of the project (admin); revoking it again is harmless; another project's token is not found. */
export async function revokeProjectToken(db: PrismaClient, principal: Principal, slug: string, tokenId: string): Promise<void> {
  const project = await requireProject(db, slug);
  await requireProjectAccess(db, principal, project, "manage");
  const { count } = await db.apiToken.updateMany({
    where: { id: tokenId, projectId: project.id, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count === 0 && (await db.apiToken.count({ where: { id: tokenId, projectId: project.id } })) === 0) {
    throw notFound(`Token "${tokenId}"`);
  }
}
