import type { PrismaClient } from "../../generated/prisma/client";
import type { SessionRole } from "./sessions";
import { signedInUserOf } from "./auth";
import { sessionOf } from "./sessions";

/** A signed-in person as the header shows them. */
export interface SessionPerson {
  name: string | null;
  email: string | null;
  serverAdmin: boolean;
}

/**
 * Who a session cookie signs in, for the layout: its role, and for a person's session the person (read
 * from their users row now, so a name changed at the last sign-in shows). A forged or expired cookie, or
 * the session of a person disabled or gone, holds nothing: `{ role: null, user: null }`.
 */
export async function sessionHolderOf(
  db: PrismaClient,
  sealed: string | null | undefined,
): Promise<{ role: SessionRole | null; user: SessionPerson | null }> {
  const session = await sessionOf(sealed);
  if (session === null) return { role: null, user: null };
  if (session.role !== "user") return { role: session.role, user: null };
  const user = await signedInUserOf(db, session.userId);
  if (user === null) return { role: null, user: null };
  return { role: "user", user: { name: user.name, email: user.email, serverAdmin: user.serverAdmin } };
}
