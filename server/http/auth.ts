import { createHash, timingSafeEqual } from "node:crypto";
import { getEnv } from "../env";
import type { PrismaClient } from "../generated/prisma/client";
import { findActiveToken, touchToken } from "../services/tokens";
import { ApiError } from "./errors";

/** Who is calling: the admin (env token), a project's upload token, or nobody. */
export type Principal =
  | { kind: "admin" }
  | { kind: "project-token"; tokenId: string; projectId: string }
  | { kind: "anonymous" };

function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw new ApiError("unauthorized", 'The Authorization header must be "Bearer <token>"');
  return match[1];
}

/** Compares secrets in constant time (hashing first makes the lengths equal). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export async function authenticate(request: Request, db: PrismaClient): Promise<Principal> {
  const token = bearerToken(request);
  if (token === null) return { kind: "anonymous" };
  const adminToken = getEnv().BENCHTRACK_ADMIN_TOKEN;
  if (adminToken && sameSecret(token, adminToken)) return { kind: "admin" };
  const projectToken = await findActiveToken(db, token);
  if (projectToken) {
    await touchToken(db, projectToken.id);
    return { kind: "project-token", tokenId: projectToken.id, projectId: projectToken.projectId };
  }
  throw new ApiError("unauthorized", "The token is not valid (unknown or revoked)");
}

export function requireAdmin(principal: Principal): void {
  if (principal.kind === "admin") return;
  if (principal.kind === "anonymous") {
    throw new ApiError("unauthorized", "This call needs the admin token: Authorization: Bearer $BENCHTRACK_ADMIN_TOKEN");
  }
  throw new ApiError("forbidden", "This call needs the admin token; a project token may only upload runs");
}

/** Uploading to a project: the admin, or a token of that very project. */
export function requireUploadTo(principal: Principal, projectId: string | null): void {
  if (principal.kind === "admin") return;
  if (principal.kind === "anonymous") {
    throw new ApiError("unauthorized", "Uploading needs a token: Authorization: Bearer <project or admin token>");
  }
  if (principal.projectId !== projectId) {
    throw new ApiError("forbidden", "This token belongs to another project");
  }
}

/**
 * Reading is open unless BENCHTRACK_READ_TOKEN is set; then the read token, the admin token or a
 * project token is required.
 */
export async function requireRead(request: Request, db: PrismaClient): Promise<void> {
  const readToken = getEnv().BENCHTRACK_READ_TOKEN;
  if (!readToken) return;
  const token = bearerToken(request);
  if (token !== null && sameSecret(token, readToken)) return;
  if (token === null) throw new ApiError("unauthorized", "Reading needs a token: Authorization: Bearer <read token>");
  await authenticate(request, db);
}
