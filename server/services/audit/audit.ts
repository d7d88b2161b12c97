import type { ReadDb } from "../../db";
import type { AuditAction } from "../../domain/audit/actions";
import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import type { AuditEntry, AuditPage } from "../../schemas/audit";
import type { Principal } from "../access";
import { PROJECT_REF_SELECT, requireAdmin, requireProjectAccess } from "../access";
import { ServiceError } from "../platform";

/**
 * The audit log (audit_entries): who did what, when, from what to what (docs/access.md, "Audit trail").
 * Every state change of a project writes one entry in the transaction of the change (recordAudit), so
 * both commit or neither. An entry names its project by slug, as text, so a project's entries outlive it,
 * and its actor in words (actorOf), never a secret; a person's entries also keep their user id.
 */

type Db = PrismaClient | Prisma.TransactionClient;

/** The actor of an entry written by a background job rather than a caller. */
export const RETENTION_ACTOR = "retention job";

/** Who did it: in words for people to read, and the person's user id when a person did. */
export interface AuditActor {
  actor: string;
  actorUserId: string | null;
}

/**
 * The principal in words, the same everywhere (audit entries, incident histories, regression statuses):
 * a person as `Name <email>` (or their email, or name, or `user <id>`), a project token by name
 * (`project token "ci"`), "admin token", "admin session" (the dashboard signed in with it), "read token";
 * never a secret. `viaSession`: for callers that know an admin principal came through a session.
 */
export function actorOf(principal: Principal, { viaSession = false }: { viaSession?: boolean } = {}): AuditActor {
  switch (principal.kind) {
    case "user": {
      return { actor: describePerson(principal.user), actorUserId: principal.user.id };
    }
    case "admin":
      return { actor: principal.viaSession || viaSession ? "admin session" : "admin token", actorUserId: null };
    case "project-token":
      return { actor: `project token ${JSON.stringify(principal.name)}`, actorUserId: null };
    case "reader":
      return { actor: "read token", actorUserId: null };
    case "share":
      return { actor: "share link", actorUserId: null };
    case "anonymous":
      return { actor: "anonymous", actorUserId: null };
  }
}

/** A person in words: "Ada Lovelace <ada@example.com>", else what there is of it (their id when nothing else). */
export function describePerson(person: { id: string; name: string | null; email: string | null }): string {
  const name = person.name?.trim() || null;
  if (name && person.email) return `${name} <${person.email}>`;
  return person.email ?? name ?? `user ${person.id}`;
}

export interface AuditRecord {
  actor: string;
  /** The signed-in person who did it (actorOf gives it with `actor`). */
  actorUserId?: string | null;
  action: AuditAction;
  projectSlug: string | null;
  targetId: string | null;
  /** What changed: `{ from, to }` with only the changed fields, counts, names; never a secret. */
  detail: Record<string, unknown>;
}

/** Writes one entry; call it in the transaction of the change it records, so both commit or neither. */
export async function recordAudit(tx: Db, record: AuditRecord): Promise<string> {
  const row = await tx.auditEntry.create({
    data: {
      actor: record.actor,
      actorUserId: record.actorUserId ?? null,
      action: record.action,
      projectSlug: record.projectSlug,
      targetId: record.targetId,
      detail: record.detail as Prisma.InputJsonObject,
    },
    select: { id: true },
  });
  return row.id;
}

const ENTRY_SELECT = { id: true, at: true, actor: true, actorUserId: true, action: true, projectSlug: true, targetId: true, detail: true } as const;

export interface AuditQuery {
  limit: number;
  /** An entry's id: only entries older than it (the next page). */
  before?: string | undefined;
  action?: AuditAction | undefined;
}

/** One page of entries, newest first, under `where`; `nextBefore` continues it (null: no more). */
async function pageOf(db: ReadDb, where: Prisma.AuditEntryWhereInput, { limit, before, action }: AuditQuery): Promise<AuditPage> {
  const filters: Prisma.AuditEntryWhereInput[] = [where];
  if (action !== undefined) filters.push({ action });
  if (before !== undefined) {
    const cursor = await db.auditEntry.findUnique({ where: { id: before }, select: { at: true, id: true } });
    if (!cursor) throw new ServiceError("bad_request", `No audit entry "${before}" to page from`, [{ path: "before", message: "pass the nextBefore of the page before" }]);
    filters.push({ OR: [{ at: { lt: cursor.at } }, { at: cursor.at, id: { lt: cursor.id } }] });
  }
  const rows = await db.auditEntry.findMany({ where: { AND: filters }, orderBy: [{ at: "desc" }, { id: "desc" }], take: limit + 1, select: ENTRY_SELECT });
  const page = rows.slice(0, limit);
  return { entries: page.map(toEntry), nextBefore: rows.length > limit ? page[page.length - 1]!.id : null };
}

function toEntry(row: { id: string; at: Date; actor: string; actorUserId: string | null; action: string; projectSlug: string | null; targetId: string | null; detail: unknown }): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: row.actor,
    actorUserId: row.actorUserId,
    action: row.action,
    project: row.projectSlug,
    targetId: row.targetId,
    detail: (row.detail ?? {}) as Record<string, unknown>,
  };
}

/**
 * A project's entries, newest first, a page at a time: for its maintainers (and server admins). By slug,
 * so the entries of a deleted project (or of an earlier project of the same slug) are still there to
 * read, by a server admin once no project holds the slug.
 */
export async function listAuditEntries(db: ReadDb, principal: Principal, slug: string, query: AuditQuery): Promise<AuditPage> {
  const project = await db.project.findUnique({ where: { slug }, select: PROJECT_REF_SELECT });
  if (project) await requireProjectAccess(db, principal, project, "manage");
  else requireAdmin(principal);
  return pageOf(db, { projectSlug: slug }, query);
}

/** Every entry of the server, newest first (server admins): server-wide ones (no project) and every project's. */
export async function listServerAuditEntries(db: ReadDb, principal: Principal, query: AuditQuery): Promise<AuditPage> {
  requireAdmin(principal);
  return pageOf(db, {}, query);
}
