import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import { Prisma as PrismaNamespace } from "../../generated/prisma/client";
import type { GrantKind, ProjectRole } from "../../domain/access/roles";
import { grantMemberSchema, updateMemberSchema } from "../../schemas/members";
import type { Principal, ProjectRef } from "../access";
import { requireProjectAccess } from "../access";
import { actorOf, recordAudit } from "../audit";
import { ServiceError, notFound } from "../platform";
import { requireProjectRef } from "./project-ref";
import type { VisibilityState } from "./visibility";
import { visibilityState } from "./visibility";

/**
 * A project's members (docs/access.md, "Members"): roles granted to one email or to an identity-provider
 * group. Listing and changing them needs "manage" (a maintainer of the project, or a server admin). Each
 * grant, role change and removal is in the audit log, from → to, in the transaction that makes it.
 *
 * Removing or lowering the last maintainer grant is allowed on purpose: a server admin may always manage
 * every project (and so give it maintainers again), and a project with no maintainer is a state the
 * server starts every project in.
 */

/** How many of the people a grant matches are named (all of them are counted). */
const MATCHES_SHOWN = 50;

const MEMBER_SELECT = { id: true, kind: true, subject: true, role: true, grantedBy: true, createdAt: true, updatedAt: true } as const;
type MemberRow = Prisma.ProjectMemberGetPayload<{ select: typeof MEMBER_SELECT }>;

export interface MemberView {
  id: string;
  kind: GrantKind;
  subject: string;
  role: ProjectRole;
  grantedBy: string;
  createdAt: string;
  updatedAt: string;
  /** The signed-in people (not disabled) it matches now, by email or by a group of their last sign-in. */
  matches: { id: string; name: string | null; email: string | null }[];
  matchCount: number;
}

export interface MemberList {
  members: MemberView[];
  visibility: VisibilityState;
}

type Db = PrismaClient | Prisma.TransactionClient;

/**
 * The people each grant matches now: one query for all of them (users whose email is one of the email
 * grants, or whose groups overlap the group grants), matched in memory as roleInProject matches them.
 */
async function withMatches(db: Db, rows: MemberRow[]): Promise<MemberView[]> {
  const emails = rows.filter((row) => row.kind === "email").map((row) => row.subject);
  const groups = rows.filter((row) => row.kind === "group").map((row) => row.subject);
  const conditions: Prisma.UserWhereInput[] = [];
  if (emails.length > 0) conditions.push({ email: { in: emails } });
  if (groups.length > 0) conditions.push({ groups: { hasSome: groups } });
  const people =
    conditions.length === 0
      ? []
      : await db.user.findMany({
          where: { disabledAt: null, OR: conditions },
          select: { id: true, name: true, email: true, groups: true },
          orderBy: [{ name: "asc" }, { email: "asc" }, { id: "asc" }],
        });
  return rows.map((row) => {
    const matching = people.filter((person) => (row.kind === "email" ? person.email === row.subject : person.groups.includes(row.subject)));
    return {
      ...row,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      matches: matching.slice(0, MATCHES_SHOWN).map(({ id, name, email }) => ({ id, name, email })),
      matchCount: matching.length,
    };
  });
}

/** The order lists show: emails, then groups, each by name. */
function byKindAndSubject(a: MemberRow, b: MemberRow): number {
  return a.kind === b.kind ? (a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : 0) : a.kind === "email" ? -1 : 1;
}

/** The project's grants and visibility ("manage"). */
export async function listMembers(db: PrismaClient, principal: Principal, slug: string): Promise<MemberList> {
  const project = await requireProjectRef(db, slug);
  await requireProjectAccess(db, principal, project, "manage");
  const rows = await db.projectMember.findMany({ where: { projectId: project.id }, select: MEMBER_SELECT });
  return { members: await withMatches(db, rows.sort(byKindAndSubject)), visibility: visibilityState(project.visibility) };
}

interface ChangeOptions {
  viaSession: boolean;
}

/**
 * Grants a role to an email or a group ("manage"); granting again to the same email or group changes
 * its role (the same role again changes nothing). `input` is checked against grantMemberSchema.
 * `created`: whether the grant is new.
 */
export async function grantMember(
  db: PrismaClient,
  principal: Principal,
  slug: string,
  input: unknown,
  { viaSession }: ChangeOptions,
): Promise<{ member: MemberView; created: boolean }> {
  const project = await requireProjectRef(db, slug);
  await requireProjectAccess(db, principal, project, "manage");
  const grant = grantMemberSchema.parse(input);
  try {
    return await db.$transaction(async (tx) => {
      const actor = actorOf(principal, { viaSession }).actor;
      const key = { projectId_kind_subject: { projectId: project.id, kind: grant.kind, subject: grant.subject } };
      const existing = await tx.projectMember.findUnique({ where: key, select: { id: true, role: true } });
      if (existing !== null) {
        const row = await changeRole(tx, project, existing.id, grant.role, actor);
        return { member: (await withMatches(tx, [row]))[0]!, created: false };
      }
      const row = await tx.projectMember.create({
        data: { projectId: project.id, kind: grant.kind, subject: grant.subject, role: grant.role, grantedBy: actor },
        select: MEMBER_SELECT,
      });
      await recordAudit(tx, {
        actor,
        action: "member.grant",
        projectSlug: project.slug,
        targetId: row.id,
        detail: { kind: row.kind, subject: row.subject, role: { from: null, to: row.role } },
      });
      return { member: (await withMatches(tx, [row]))[0]!, created: true };
    });
  } catch (error) {
    // The same email or group granted twice at once: the unique index decides, the loser is told.
    if (error instanceof PrismaNamespace.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new ServiceError("conflict", `${grant.kind === "email" ? "The email" : "The group"} ${grant.subject} was granted a role at the same moment; reload and try again`, [
        { path: "subject", message: "granted at the same moment" },
      ]);
    }
    throw error;
  }
}

/**
 * Sets a grant's role in the caller's transaction (the row locked first, so the audit's "from" is the
 * role it replaces), recording the change; the same role again changes and records nothing.
 */
async function changeRole(tx: Prisma.TransactionClient, project: ProjectRef, id: string, to: ProjectRole, actor: string): Promise<MemberRow> {
  const [locked] = await tx.$queryRaw<{ role: ProjectRole }[]>`SELECT role::text AS role FROM project_members WHERE id = ${id} AND project_id = ${project.id} FOR UPDATE`;
  if (locked === undefined) throw memberNotFound(id);
  if (locked.role === to) return tx.projectMember.findUniqueOrThrow({ where: { id }, select: MEMBER_SELECT });
  const row = await tx.projectMember.update({ where: { id }, data: { role: to, grantedBy: actor }, select: MEMBER_SELECT });
  await recordAudit(tx, {
    actor,
    action: "member.update",
    projectSlug: project.slug,
    targetId: id,
    detail: { kind: row.kind, subject: row.subject, role: { from: locked.role, to } },
  });
  return row;
}

function memberNotFound(id: string): ServiceError {
  return notFound(`Member grant "${id}"`, [{ path: "id", message: "no such grant in this project" }]);
}

/** Changes a grant's role ("manage"); `changes` is checked against updateMemberSchema. Another project's grant is not found. */
export async function updateMember(
  db: PrismaClient,
  principal: Principal,
  slug: string,
  id: string,
  changes: unknown,
  { viaSession }: ChangeOptions,
): Promise<MemberView> {
  const project = await requireProjectRef(db, slug);
  await requireProjectAccess(db, principal, project, "manage");
  const { role } = updateMemberSchema.parse(changes);
  return db.$transaction(async (tx) => {
    const row = await changeRole(tx, project, id, role, actorOf(principal, { viaSession }).actor);
    return (await withMatches(tx, [row]))[0]!;
  });
}

/** Removes a grant ("manage"); another project's grant, or one already removed, is not found. */
export async function removeMember(db: PrismaClient, principal: Principal, slug: string, id: string, { viaSession }: ChangeOptions): Promise<void> {
  const project = await requireProjectRef(db, slug);
  await requireProjectAccess(db, principal, project, "manage");
  await db.$transaction(async (tx) => {
    const [removed] = await tx.$queryRaw<{ kind: GrantKind; subject: string; role: ProjectRole }[]>`
      DELETE FROM project_members WHERE id = ${id} AND project_id = ${project.id} RETURNING kind::text AS kind, subject, role::text AS role`;
    if (removed === undefined) throw memberNotFound(id);
    await recordAudit(tx, {
      ...actorOf(principal, { viaSession }),
      action: "member.remove",
      projectSlug: project.slug,
      targetId: id,
      detail: { kind: removed.kind, subject: removed.subject, role: { from: removed.role, to: null } },
    });
  });
}
