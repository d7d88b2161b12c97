import { createHash, timingSafeEqual } from "node:crypto";
import { getEnv } from "../env";
import type { PrismaClient } from "../generated/prisma/client";
import { ServiceError } from "./errors";
import { findActiveToken, touchToken } from "./tokens";

/**
 * Who is calling, and what they may do: the rules both transports apply (REST from the Authorization
 * header, tRPC from the same header in its context). The admin token comes from the environment and
 * may do everything; a project token may upload to its project; with BENCHTRACK_READ_TOKEN set,
 * reading needs that token, the admin token or a project token.
 */
export type Principal =
  | { kind: "admin" }
  | { kind: "project-token"; tokenId: string; projectId: string }
  | { kind: "anonymous" };

/** The token of an `Authorization: Bearer <token>` header (null without a header); any other form is refused. */
export function bearerTokenOf(authorization: string | null): string | null {
  if (!authorization) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match?.[1]) throw new ServiceError("unauthorized", 'The Authorization header must be "Bearer <token>"');
  return match[1];
}

/** Compares secrets in constant time (hashing first makes the lengths equal). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** The principal a bearer token stands for (null: no token); an unknown or revoked token is refused. */
export async function authenticateToken(db: PrismaClient, token: string | null): Promise<Principal> {
  if (token === null) return { kind: "anonymous" };
  const adminToken = getEnv().BENCHTRACK_ADMIN_TOKEN;
  if (adminToken && sameSecret(token, adminToken)) return { kind: "admin" };
  const projectToken = await findActiveToken(db, token);
  if (projectToken) {
    await touchToken(db, projectToken.id);
    return { kind: "project-token", tokenId: projectToken.id, projectId: projectToken.projectId };
  }
  throw new ServiceError("unauthorized", "The token is not valid (unknown or revoked)");
}

export function requireAdmin(principal: Principal): void {
  if (principal.kind === "admin") return;
  if (principal.kind === "anonymous") {
    throw new ServiceError("unauthorized", "This call needs the admin token: Authorization: Bearer $BENCHTRACK_ADMIN_TOKEN");
  }
  throw new ServiceError("forbidden", "This call needs the admin token; a project token may only upload runs");
}

/** Uploading to a project: the admin, or a token of that very project. */
export function requireUploadTo(principal: Principal, projectId: string | null): void {
  if (principal.kind === "admin") return;
  if (principal.kind === "anonymous") {
    throw new ServiceError("unauthorized", "Uploading needs a token: Authorization: Bearer <project or admin token>");
  }
  if (principal.projectId !== projectId) {
    throw new ServiceError("forbidden", "This token belongs to another project");
  }
}

/**
 * Reading is open unless BENCHTRACK_READ_TOKEN is set; then the read token, the admin token or a
 * project token is required.
 */
export async function requireReadToken(db: PrismaClient, token: string | null): Promise<void> {
  const readToken = getEnv().BENCHTRACK_READ_TOKEN;
  if (!readToken) return;
  if (token !== null && sameSecret(token, readToken)) return;
  if (token === null) throw new ServiceError("unauthorized", "Reading needs a token: Authorization: Bearer <read token>");
  await authenticateToken(db, token);
}
