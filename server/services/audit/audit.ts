import type { ReadDb } from "../../db";
import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import type { AuditEntry } from "../../schemas/audit";
import type { Principal } from "../access";
import { PROJECT_REF_SELECT, requireAdmin, requireProjectAccess } from "../access";

/**
 * The audit log (audit_entries): who did what, when. General on purpose: today deletions write it (a run,
 * a project, a retention sweep); every state change may later. An entry names its project by slug, as
 * text, so a project's entries outlive it, and its actor in words, never a secret.
 */

type Db = PrismaClient | Prisma.TransactionClient;

/** The actor of an entry written by a background job rather than a caller. */
export const RETENTION_ACTOR = "retention job";

/**
 * The principal in words: "admin token", "admin session" (the dashboard signed in with it), a project
 * token by name and id (`project token "ci" (clx…)`), or a signed-in person (`Ada Lovelace <ada@example.com>`);
 * never a token's secret.
 */
export async function describeActor(db: Db, principal: Principal, { viaSession }: { viaSession: boolean }): Promise<string> {
  if (principal.kind === "admin") return viaSession ? "admin session" : "admin token";
  if (principal.kind === "project-token") {
    const token = await db.apiToken.findUnique({ where: { id: principal.tokenId }, select: { name: true } });
    return `project token ${JSON.stringify(token?.name ?? "?")} (${principal.tokenId})`;
  }
  if (principal.kind === "user") return describePerson(principal.user);
  return principal.kind;
}

/** A person in words: "Ada Lovelace <ada@example.com>", else what there is of it (their id when nothing else). */
export function describePerson(person: { id: string; name: string | null; email: string | null }): string {
  if (person.name && person.email) return `${person.name} <${person.email}>`;
  if (person.email) return `<${person.email}>`;
  return person.name ?? `user ${person.id}`;
}

export interface AuditRecord {
  actor: string;
  action: "run.delete" | "project.delete" | "retention.delete" | "member.grant" | "member.update" | "member.remove" | "project.visibility" | "user.update";
  projectSlug: string | null;
  targetId: string | null;
  detail: Record<string, unknown>;
}

/** Writes one entry; call it in the transaction of the change it records, so both commit or neither. */
export async function recordAudit(tx: Db, record: AuditRecord): Promise<string> {
  const row = await tx.auditEntry.create({
    data: { actor: record.actor, action: record.action, projectSlug: record.projectSlug, targetId: record.targetId, detail: record.detail as Prisma.InputJsonObject },
    select: { id: true },
  });
  return row.id;
}

/**
 * A project's entries, newest first (admin): by slug, so the entries of a deleted project (or of an
 * earlier project of the same slug) are still there to read.
 */
export async function listAuditEntries(db: ReadDb, principal: Principal, slug: string, limit = 50): Promise<AuditEntry[]> {
  // A project's maintainers read its entries; those of a project deleted (or never made) are the server admin's.
  const project = await db.project.findUnique({ where: { slug }, select: PROJECT_REF_SELECT });
  if (project === null) requireAdmin(principal);
  else await requireProjectAccess(db, principal, project, "manage");
  const rows = await db.auditEntry.findMany({
    where: { projectSlug: slug },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: limit,
    select: { id: true, at: true, actor: true, action: true, projectSlug: true, targetId: true, detail: true },
  });
  return rows.map((row) => ({
    id: row.id,
    at: row.at.toISOString(),
    actor: row.actor,
    action: row.action,
    project: row.projectSlug,
    targetId: row.targetId,
    detail: (row.detail ?? {}) as Record<string, unknown>,
  }));
}
