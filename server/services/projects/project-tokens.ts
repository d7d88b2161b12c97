import type { PrismaClient } from "../../generated/prisma/client";
import { TOKEN_SCOPES } from "../../domain/access/roles";
import type { CreateTokenInput } from "../../schemas/tokens";
import { TOKEN_MAX_DAYS, createTokenSchema } from "../../schemas/tokens";
import type { Principal } from "../access";
import { requireProjectAccess } from "../access";
import { ServiceError, notFound } from "../platform";
import { findProject, requireProject } from "./projects";
import { newTokenSecret } from "../access";
import { actorOf, recordAudit } from "../audit";

/**
 * A project's tokens, its maintainers' to manage: create one with its name, scopes and expiry (its secret is
 * in that answer only), list them (never their secrets), revoke one. How secrets are made and checked,
 * and why an expired token is refused: ../access/tokens.ts.
 */
const TOKEN_SELECT = {
  id: true,
  name: true,
  prefix: true,
  scopes: true,
  createdAt: true,
  createdBy: true,
  expiresAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

const DAY_MS = 86_400_000;

/** When a new token expires (null: never): `expiresInDays` from now, or `expiresAt`, which must be ahead. */
function expiryOf(input: CreateTokenInput, now: Date): Date | null {
  if (input.expiresInDays !== undefined) return new Date(now.getTime() + input.expiresInDays * DAY_MS);
  if (input.expiresAt === undefined) return null;
  const at = new Date(input.expiresAt);
  if (at.getTime() <= now.getTime()) {
    throw new ServiceError("bad_request", "The token would be expired already", [{ path: "expiresAt", message: `must be in the future (now is ${now.toISOString()})` }]);
  }
  if (at.getTime() > now.getTime() + TOKEN_MAX_DAYS * DAY_MS) {
    throw new ServiceError("bad_request", "The token would live too long", [{ path: "expiresAt", message: `at most ${TOKEN_MAX_DAYS} days from now` }]);
  }
  return at;
}

/** Each scope once, in TOKEN_SCOPES' order. */
function normalizeScopes(scopes: readonly string[]): string[] {
  return TOKEN_SCOPES.filter((scope) => scopes.includes(scope));
}

/**
 * Creates a project token (its maintainers); `input` is checked against createTokenSchema. Its name is unique among
 * the project's live tokens (not revoked, not expired): they are told apart by name in lists and in the
 * audit trail. `viaSession`: the caller is a signed-in browser (createdBy says "admin session").
 */
export async function createProjectToken(db: PrismaClient, principal: Principal, slug: string, input: unknown, { viaSession = false } = {}) {
  // The README's token recipe is often a new server's first call: say how a project comes to be.
  const project = await findProject(db, slug);
  if (!project) {
    throw notFound(`Project "${slug}"`, [
      { path: "project", message: `create it first: an upload with the admin token creates its project, or POST /api/v1/projects {"slug": "${slug}"}` },
    ]);
  }
  await requireProjectAccess(db, principal, project, "manage");
  const parsed = createTokenSchema.parse(input);
  const now = new Date();
  const expiresAt = expiryOf(parsed, now);
  const actor = actorOf(principal, { viaSession });
  const createdBy = actor.actor;
  const { token, prefix, tokenHash } = newTokenSecret();
  const created = await db.$transaction(async (tx) => {
    // One creation at a time per project, so two of the same name cannot both pass the check below.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`tokens:${project.id}`}, 0))`;
    const clash = await tx.apiToken.findFirst({
      where: { projectId: project.id, name: parsed.name, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
      select: { id: true },
    });
    if (clash) {
      throw new ServiceError("conflict", `Project "${slug}" already has a live token named "${parsed.name}"`, [
        { path: "name", message: `taken by token ${clash.id}: choose another name, or revoke that token first` },
      ]);
    }
    const row = await tx.apiToken.create({
      data: { projectId: project.id, name: parsed.name, prefix, tokenHash, scopes: normalizeScopes(parsed.scopes), expiresAt, createdBy },
      select: { id: true, name: true, prefix: true, scopes: true, createdAt: true, createdBy: true, expiresAt: true },
    });
    // The entry names the token (name, prefix, scopes, expiry), never its secret.
    await recordAudit(tx, {
      ...actor,
      action: "token.create",
      projectSlug: project.slug,
      targetId: row.id,
      detail: { name: row.name, prefix: row.prefix, scopes: row.scopes, expiresAt: row.expiresAt?.toISOString() ?? null },
    });
    return row;
  });
  return { ...created, createdBy, token };
}

/** Whether a token is live, past its expiry, or revoked (revoked wins). */
function tokenStatus(row: { expiresAt: Date | null; revokedAt: Date | null }, now: Date): "active" | "expired" | "revoked" {
  if (row.revokedAt !== null) return "revoked";
  return row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime() ? "expired" : "active";
}

/** The project's tokens, newest first, without their secrets (its maintainers): scopes, who made them, expiry, last use. */
export async function listProjectTokens(db: PrismaClient, principal: Principal, slug: string) {
  const project = await requireProject(db, slug);
  await requireProjectAccess(db, principal, project, "manage");
  const rows = await db.apiToken.findMany({ where: { projectId: project.id }, select: TOKEN_SELECT, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  const now = new Date();
  return rows.map((row) => ({ ...row, status: tokenStatus(row, now) }));
}

/** Revokes a token of the project (its maintainers); revoking it again is harmless; another project's token is not found. */
export async function revokeProjectToken(db: PrismaClient, principal: Principal, slug: string, tokenId: string): Promise<void> {
  const project = await requireProject(db, slug);
  await requireProjectAccess(db, principal, project, "manage");
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
