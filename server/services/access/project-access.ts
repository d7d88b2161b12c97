import { getEnv } from "../../env";
import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import type { ReadDb } from "../../db";
import type { ReadTarget } from "../../domain/share";
import { shareCovers } from "../../domain/share";
import type { ProjectAction, ProjectRole, ProjectVisibility, TokenScope } from "../../domain/access/roles";
import { ACTION_WORDS, PROJECT_ACTIONS, ROLE_NEEDED, SCOPE_ACTIONS, TOKEN_SCOPES, roleAllows, roleInProject, scopesAllow } from "../../domain/access/roles";
import { ServiceError, notFound } from "../platform";
import type { Principal } from "./auth";
import { SHARE_REFUSALS, isPrivate, isServerAdmin, noAdminTokenNote } from "./auth";

/**
 * What a caller may do in one project (docs/access.md): the one place services ask. The rules of roles
 * and scopes are pure (server/domain/access/roles.ts); this reads what they need — the project's
 * visibility, and for a signed-in person the project's grants — and turns a "no" into the 401 or 403 that
 * says why and what would do.
 */

/** A project as access needs it. */
export interface ProjectRef {
  id: string;
  slug: string;
  /** As stored: null is the server's default (effectiveVisibility). */
  visibility: ProjectVisibility | null;
}

/** Select this to read a ProjectRef with Prisma. */
export const PROJECT_REF_SELECT = { id: true, slug: true, visibility: true } as const;

/** A project's visibility: its own, else the server's default (private when BENCHTRACK_READ_TOKEN is set). */
export function effectiveVisibility(visibility: ProjectVisibility | null): ProjectVisibility {
  return visibility ?? (isPrivate() ? "private" : "public");
}

/** The role every signed-in person holds on public projects (BENCHTRACK_DEFAULT_ROLE; null: none). */
export function defaultRole(): ProjectRole | null {
  const role = getEnv().BENCHTRACK_DEFAULT_ROLE;
  return role === "none" ? null : role;
}

/** A signed-in person's role in a project (null: none), from the project's grants. */
export async function userRoleIn(db: PrismaClient | ReadDb, user: { email: string | null; groups: string[] }, project: ProjectRef): Promise<ProjectRole | null> {
  const grants = await (db as PrismaClient).projectMember.findMany({ where: { projectId: project.id }, select: { kind: true, subject: true, role: true } });
  return roleInProject(user, grants, effectiveVisibility(project.visibility), defaultRole());
}

/** Everything the caller may do in the project: what the dashboard shows controls for, and what requireProjectAccess checks. */
export async function allowedActions(db: PrismaClient | ReadDb, principal: Principal, project: ProjectRef): Promise<ProjectAction[]> {
  return actionsOf(principal, project, principal.kind === "user" && !isServerAdmin(principal) ? await userRoleIn(db, principal.user, project) : null);
}

/** allowedActions once a person's role is known (`role`: theirs in the project; ignored for any other caller). */
function actionsOf(principal: Principal, project: ProjectRef, role: ProjectRole | null): ProjectAction[] {
  if (isServerAdmin(principal)) return [...PROJECT_ACTIONS];
  const open: ProjectAction[] = effectiveVisibility(project.visibility) === "public" ? ["read"] : [];
  switch (principal.kind) {
    case "reader":
      return ["read"];
    case "project-token":
      if (principal.projectId !== project.id) return open;
      return PROJECT_ACTIONS.filter((action) => open.includes(action) || scopesAllow(principal.scopes, action));
    case "user":
      return PROJECT_ACTIONS.filter((action) => open.includes(action) || roleAllows(role, action));
    default:
      return open;
  }
}

/**
 * Refuses (401 or 403, saying why) unless the caller may do `action` in the project. For a read that a share
 * link may open, use requireProjectRead.
 */
export async function requireProjectAccess(db: PrismaClient | ReadDb, principal: Principal, project: ProjectRef, action: ProjectAction): Promise<void> {
  if (isServerAdmin(principal)) return;
  if (action === "read" && effectiveVisibility(project.visibility) === "public") return;
  const words = ACTION_WORDS[action];
  switch (principal.kind) {
    case "reader":
      if (action === "read") return;
      throw new ServiceError("forbidden", `The read token may not ${words}`);
    case "project-token": {
      if (principal.projectId !== project.id) throw new ServiceError("forbidden", "This token belongs to another project");
      if (scopesAllow(principal.scopes, action)) return;
      const scopes = TOKEN_SCOPES.filter((scope: TokenScope) => SCOPE_ACTIONS[scope].includes(action));
      const held = principal.scopes.length === 0 ? "none" : principal.scopes.join(", ");
      throw new ServiceError(
        "forbidden",
        scopes.length === 0
          ? `A project token may not ${words} (this one's scopes: ${held}); a maintainer of ${project.slug} or an admin may`
          : `This token's scopes (${held}) do not let it ${words}: make a token with the ${scopes.map((scope) => `"${scope}"`).join(" or ")} scope in Settings → Tokens`,
      );
    }
    case "user": {
      const role = await userRoleIn(db, principal.user, project);
      if (roleAllows(role, action)) return;
      throw new ServiceError(
        "forbidden",
        role === null
          ? `You have no role in ${project.slug}, so you may not ${words}: ask one of its maintainers to add you (Settings → Members)`
          : `Your role in ${project.slug} is ${role}, which may not ${words}: that needs ${ROLE_NEEDED[action]} or above; ask one of its maintainers`,
      );
    }
    case "anonymous":
      if (principal.refusedShare !== undefined) throw new ServiceError("unauthorized", SHARE_REFUSALS[principal.refusedShare]);
      if (principal.refusedSession === "removed") {
        throw new ServiceError("unauthorized", "Your account was removed from this Benchtrack, so your session opens nothing: ask an admin");
      }
      throw new ServiceError(
        "unauthorized",
        action === "read"
          ? `${project.slug} is private: sign in at /sign-in, or send Authorization: Bearer <read, admin or project token>`
          : `This needs you signed in with a role that may ${words}, or Authorization: Bearer <project or admin token>.${noAdminTokenNote()}`,
      );
    case "share":
      throw new ServiceError(
        action === "read" ? "forbidden" : "unauthorized",
        action === "read"
          ? "This share link opens one comparison (with its runs) or one run only; sign in to see the rest"
          : `A share link only reads; to ${words}, sign in or send Authorization: Bearer <project or admin token>`,
      );
    default:
      throw new ServiceError("forbidden", `You may not ${words}`);
  }
}

/**
 * A read of one project (its comparison, its run, anything of it): open on a public project; on a private
 * one, for whoever may read it, or a share link whose scope covers the target. An unknown project passes
 * (the service then answers 404 the same way for everyone).
 */
export async function requireProjectRead(db: PrismaClient | ReadDb, principal: Principal, target: Exclude<ReadTarget, { kind: "any" }>): Promise<void> {
  await admitRead(db, target.project, target, { hasCredentials: true, resolve: () => Promise.resolve(principal) });
}

/** How a transport names its caller to admitRead: whether the request carries any credential, and how to resolve it (once, if needed). */
export interface ReadCaller {
  hasCredentials: boolean;
  resolve: () => Promise<Principal>;
}

/**
 * Admits a read, by the visibility of the project it names (`slug`; null: a server-wide read, such as the
 * project list, which then lists what the principal may read: readableProjectsWhere). A public project (or
 * an unknown slug, which the service answers 404 for everyone) reads for anyone: the caller is not looked
 * up, and the read goes on as anonymous. A private one needs a caller who may read it, or a share link whose
 * scope covers `shareTarget` (the read the procedure or route declares: services/access/auth.ts:shareReadTarget).
 * Returns the principal the read goes on with.
 */
export async function admitRead(db: PrismaClient | ReadDb, slug: string | null, shareTarget: ReadTarget, caller: ReadCaller): Promise<Principal> {
  const anonymous: Principal = { kind: "anonymous" };
  if (slug === null) return caller.hasCredentials ? caller.resolve() : anonymous;
  const project = await (db as PrismaClient).project.findUnique({ where: { slug }, select: PROJECT_REF_SELECT });
  if (project === null || effectiveVisibility(project.visibility) === "public") return anonymous;
  const principal = caller.hasCredentials ? await caller.resolve() : anonymous;
  if (principal.kind === "share" && shareCovers(principal.scope, shareTarget)) return principal;
  await requireProjectAccess(db, principal, project, "read");
  return principal;
}

/**
 * The projects a caller may read, as a Prisma `where` for the project list and the home page: everything
 * for the admin, a server admin and the read token; else the public ones (their own visibility, or the
 * server's default), with a project token's own project when its scopes read, and a person's projects where
 * a grant gives them a role.
 */
export function readableProjectsWhere(principal: Principal): Prisma.ProjectWhereInput {
  if (isServerAdmin(principal) || principal.kind === "reader") return {};
  const publicWhere: Prisma.ProjectWhereInput = isPrivate() ? { visibility: "public" } : { OR: [{ visibility: "public" }, { visibility: null }] };
  if (principal.kind === "project-token" && scopesAllow(principal.scopes, "read")) return { OR: [publicWhere, { id: principal.projectId }] };
  if (principal.kind === "user") {
    const grants: Prisma.ProjectMemberWhereInput[] = principal.user.groups.map((group) => ({ kind: "group", subject: group }));
    if (principal.user.email !== null) grants.push({ kind: "email", subject: { equals: principal.user.email, mode: "insensitive" } });
    return grants.length === 0 ? publicWhere : { OR: [publicWhere, { members: { some: { OR: grants } } }] };
  }
  return publicWhere;
}

/**
 * Whether a project's reads (null: the server's pages outside any project) are open to anyone: the proxy
 * asks before leading a browser without a session to sign in (convenience, not the lock: every read checks
 * itself), the badge before letting shared caches keep it. A project: whether it is
 * public (an unknown one: whether the server's default is, so a private-default server tells no one
 * which slugs exist). Any other page (the home page): unless
 * the server's default is private, or while some project is public (the home page lists those).
 */
export async function readsForAnyone(db: PrismaClient | ReadDb, projectSlug: string | null): Promise<boolean> {
  if (projectSlug === null) return !isPrivate() || (await (db as PrismaClient).project.count({ where: { visibility: "public" }, take: 1 })) > 0;
  const project = await (db as PrismaClient).project.findUnique({ where: { slug: projectSlug }, select: { visibility: true } });
  // An unknown project answers as the server's default would, so a private-default server tells no one which slugs exist.
  return effectiveVisibility(project?.visibility ?? null) === "public";
}

/** What the dashboard shows a caller of one project: what they may do there, their role, and its visibility. */
export interface ProjectAccess {
  actions: ProjectAction[];
  /** A person's role in it; "admin" for a server admin (or the admin token); null for anyone else. */
  role: ProjectRole | "admin" | null;
  visibility: ProjectVisibility;
}

/**
 * The caller's access to a project (access.mine): the controls the dashboard shows are those of `actions`
 * (the server checks every call either way). An unknown project is not found.
 */
export async function describeProjectAccess(db: PrismaClient | ReadDb, principal: Principal, slug: string): Promise<ProjectAccess> {
  const project = await (db as PrismaClient).project.findUnique({ where: { slug }, select: PROJECT_REF_SELECT });
  if (project === null) throw notFound(`Project "${slug}"`);
  const personRole = principal.kind === "user" && !isServerAdmin(principal) ? await userRoleIn(db, principal.user, project) : null;
  return {
    actions: actionsOf(principal, project, personRole),
    role: isServerAdmin(principal) ? "admin" : personRole,
    visibility: effectiveVisibility(project.visibility),
  };
}
