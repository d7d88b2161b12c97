import type { ReadDb } from "../../db";
import type { PrismaClient } from "../../generated/prisma/client";
import { updateUserSchema } from "../../schemas/members";
import type { Principal } from "../access";
import { requireAdmin } from "../access";
import { actorOf, describePerson, recordAudit } from "../audit";
import { ServiceError, notFound } from "../platform";

/**
 * The server's people (server admins only): everyone who signed in with the identity provider (sign-in
 * creates their row), made or unmade server admins, disabled and enabled again. A disabled person's
 * sessions open nothing from their next request on: every request reads their row (services/access,
 * resolvePrincipal). Each change is in the audit log (server-wide: no project), from → to.
 */

/** How many people the list shows. */
const USERS_LISTED = 1000;

const USER_SELECT = { id: true, name: true, email: true, groups: true, serverAdmin: true, disabledAt: true, lastSignInAt: true, createdAt: true } as const;

export interface UserView {
  id: string;
  name: string | null;
  email: string | null;
  groups: string[];
  serverAdmin: boolean;
  disabled: boolean;
  disabledAt: string | null;
  lastSignInAt: string | null;
  createdAt: string;
}

function userView(row: { id: string; name: string | null; email: string | null; groups: string[]; serverAdmin: boolean; disabledAt: Date | null; lastSignInAt: Date | null; createdAt: Date }): UserView {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    groups: row.groups,
    serverAdmin: row.serverAdmin,
    disabled: row.disabledAt !== null,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Everyone who signed in, most recent sign-in first (server admins only). */
export async function listUsers(db: PrismaClient | ReadDb, principal: Principal): Promise<{ users: UserView[]; more: boolean }> {
  requireAdmin(principal);
  const rows = await (db as PrismaClient).user.findMany({
    select: USER_SELECT,
    orderBy: [{ lastSignInAt: { sort: "desc", nulls: "last" } }, { createdAt: "desc" }, { id: "asc" }],
    take: USERS_LISTED + 1,
  });
  return { users: rows.slice(0, USERS_LISTED).map(userView), more: rows.length > USERS_LISTED };
}

/**
 * Makes or unmakes a server admin, disables or enables a person (server admins only); `changes` is
 * checked against updateUserSchema. A person may not disable themselves (another admin may). What does
 * not change is not recorded; the rest is, in one audit entry with each field's from → to.
 */
export async function updateUser(
  db: PrismaClient,
  principal: Principal,
  id: string,
  changes: unknown,
  { viaSession }: { viaSession: boolean },
): Promise<UserView> {
  requireAdmin(principal);
  const { serverAdmin, disabled } = updateUserSchema.parse(changes);
  if (disabled === true && principal.kind === "user" && principal.user.id === id) {
    throw new ServiceError("conflict", "You may not disable yourself: another server admin may", [{ path: "disabled", message: "your own account" }]);
  }
  return db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM users WHERE id = ${id} FOR UPDATE`;
    if (locked === undefined) throw notFound(`User "${id}"`, [{ path: "id", message: "no such person" }]);
    const before = await tx.user.findUniqueOrThrow({ where: { id }, select: USER_SELECT });
    const detail: Record<string, unknown> = {};
    const data: { serverAdmin?: boolean; disabledAt?: Date | null } = {};
    if (serverAdmin !== undefined && serverAdmin !== before.serverAdmin) {
      data.serverAdmin = serverAdmin;
      detail.serverAdmin = { from: before.serverAdmin, to: serverAdmin };
    }
    if (disabled !== undefined && disabled !== (before.disabledAt !== null)) {
      data.disabledAt = disabled ? new Date() : null;
      detail.disabled = { from: before.disabledAt !== null, to: disabled };
    }
    if (Object.keys(data).length === 0) return userView(before);
    const after = await tx.user.update({ where: { id }, data, select: USER_SELECT });
    await recordAudit(tx, {
      ...actorOf(principal, { viaSession }),
      action: "user.update",
      projectSlug: null,
      targetId: id,
      detail: { user: describePerson(before), ...detail },
    });
    return userView(after);
  });
}
