import { createHash, randomBytes } from "node:crypto";
import type { PrismaClient } from "../../generated/prisma/client";

/**
 * Token secrets: how an upload token is made and recognised. The secret is shown once, at creation;
 * only its SHA-256 is stored, so a leaked database leaks no usable token. Looking a token up by its
 * hash also keeps the comparison independent of how much of the secret an attacker guessed right.
 * The admin's use cases over a project's tokens (create, list, revoke) are in ./project-tokens.ts.
 */
const TOKEN_PREFIX = "bt_";

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A new secret, the prefix shown in lists to tell tokens apart, and the hash that is stored. */
export function newTokenSecret(): { token: string; prefix: string; tokenHash: string } {
  const token = `${TOKEN_PREFIX}${randomBytes(24).toString("base64url")}`;
  return { token, prefix: token.slice(0, TOKEN_PREFIX.length + 6), tokenHash: hashToken(token) };
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
