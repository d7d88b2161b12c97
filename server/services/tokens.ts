import { createHash, randomBytes } from "node:crypto";
import type { PrismaClient } from "../generated/prisma/client";

/**
 * Project upload tokens. The secret is shown once, at creation; only its SHA-256 is stored, so a
 * leaked database leaks no usable token. Looking a token up by its hash also keeps the comparison
 * independent of how much of the secret an attacker guessed right.
 */
const TOKEN_PREFIX = "bt_";

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export async function createProjectToken(db: PrismaClient, projectId: string, name: string) {
  const token = `${TOKEN_PREFIX}${randomBytes(24).toString("base64url")}`;
  const created = await db.apiToken.create({
    data: { projectId, name, prefix: token.slice(0, TOKEN_PREFIX.length + 6), tokenHash: hashToken(token) },
    select: { id: true, name: true, prefix: true, createdAt: true },
  });
  return { ...created, token };
}

export async function listProjectTokens(db: PrismaClient, projectId: string) {
  return db.apiToken.findMany({
    where: { projectId },
    select: { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true },
    orderBy: { createdAt: "desc" },
  });
}

/** Revokes a token of the project; returns false when there is no such token. */
export async function revokeProjectToken(db: PrismaClient, projectId: string, tokenId: string): Promise<boolean> {
  const result = await db.apiToken.updateMany({
    where: { id: tokenId, projectId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (result.count > 0) return true;
  return (await db.apiToken.count({ where: { id: tokenId, projectId } })) > 0;
}

/** The live token with this secret, or null. */
export async function findActiveToken(db: PrismaClient, token: string) {
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  return db.apiToken.findFirst({
    where: { tokenHash: hashToken(token), revokedAt: null },
    select: { id: true, projectId: true },
  });
}

export async function touchToken(db: PrismaClient, tokenId: string): Promise<void> {
  await db.apiToken.update({ where: { id: tokenId }, data: { lastUsedAt: new Date() } });
}
