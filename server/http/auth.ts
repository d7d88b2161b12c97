import type { PrismaClient } from "../generated/prisma/client";
import type { Principal } from "../services/auth";
import { authenticateToken, bearerTokenOf, requireReadToken } from "../services/auth";

/** Who sent the request (services/auth.ts holds the rules). */
export async function authenticate(request: Request, db: PrismaClient): Promise<Principal> {
  return authenticateToken(db, bearerTokenOf(request.headers.get("authorization")));
}

/** Refuses a read the configured read token does not allow. */
export async function requireRead(request: Request, db: PrismaClient): Promise<void> {
  await requireReadToken(db, bearerTokenOf(request.headers.get("authorization")));
}
