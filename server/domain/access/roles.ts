/**
 * Who may do what in a project (docs/access.md): the roles people hold, the scopes tokens carry, and the
 * actions both are checked against. Pure: services/access decides who the caller is and asks here.
 */

/** A person's role in one project; each may do what the ones before it may. */
export const PROJECT_ROLES = ["viewer", "triager", "maintainer"] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

/** What a project token may do, chosen when it is made; a new token uploads only. */
export const TOKEN_SCOPES = ["upload", "read", "triage"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];
export const DEFAULT_TOKEN_SCOPES: readonly TokenScope[] = ["upload"];

/** Who may read a project: anyone, or only those given access (its members, the read token, ...). */
export const PROJECT_VISIBILITIES = ["public", "private"] as const;
export type ProjectVisibility = (typeof PROJECT_VISIBILITIES)[number];

/**
 * Everything a caller may do to a project, each checked by the use case that does it:
 * - read: its pages, API reads, exports of its comparisons (on a private project only).
 * - upload: runs, history imports.
 * - mark: deploy markers and annotations on a trend.
 * - triage: incidents' and changes' states, notes.
 * - share: mint share links.
 * - manage: settings, SLA, gate, tokens, webhooks, pins, members, visibility, retention, revoking share
 *   links, deleting runs and the project.
 * Server-wide acts (creating projects, server admins, the users list) are the server admin's alone.
 */
export const PROJECT_ACTIONS = ["read", "upload", "mark", "triage", "share", "manage"] as const;
export type ProjectAction = (typeof PROJECT_ACTIONS)[number];

/** The least role that may do each action. */
export const ROLE_NEEDED: Record<ProjectAction, ProjectRole> = {
  read: "viewer",
  upload: "maintainer",
  mark: "triager",
  triage: "triager",
  share: "maintainer",
  manage: "maintainer",
};

/** The actions each token scope opens (on the token's own project only). */
export const SCOPE_ACTIONS: Record<TokenScope, readonly ProjectAction[]> = {
  upload: ["upload", "mark"],
  read: ["read", "share"],
  triage: ["read", "mark", "triage"],
};

/** What a token scope opens, in the words refusals use ("upload runs, post markers and annotations"). */
export function scopeWords(scope: TokenScope): string {
  return SCOPE_ACTIONS[scope].map((action) => ACTION_WORDS[action]).join(", ");
}

/** In words, for refusals and the Settings page. */
export const ACTION_WORDS: Record<ProjectAction, string> = {
  read: "read this project",
  upload: "upload runs",
  mark: "post markers and annotations",
  triage: "triage incidents",
  share: "make share links",
  manage: "change this project's settings",
};

export function roleRank(role: ProjectRole | null): number {
  return role === null ? -1 : PROJECT_ROLES.indexOf(role);
}

/** Whether a role may do an action (null: no role, may do nothing). */
export function roleAllows(role: ProjectRole | null, action: ProjectAction): boolean {
  return roleRank(role) >= roleRank(ROLE_NEEDED[action]);
}

/** Whether a token with these scopes may do an action on its own project. */
export function scopesAllow(scopes: readonly string[], action: ProjectAction): boolean {
  return scopes.some((scope) => (TOKEN_SCOPES as readonly string[]).includes(scope) && SCOPE_ACTIONS[scope as TokenScope].includes(action));
}

/** The higher of two roles. */
export function higherRole(a: ProjectRole | null, b: ProjectRole | null): ProjectRole | null {
  return roleRank(a) >= roleRank(b) ? a : b;
}

/** What a grant names: one person by (verified) email, or everyone in an identity-provider group. */
export const GRANT_KINDS = ["email", "group"] as const;
export type GrantKind = (typeof GRANT_KINDS)[number];

/** One grant of a project: a role given to one email or to one identity-provider group. */
export interface RoleGrant {
  kind: GrantKind;
  subject: string;
  role: ProjectRole;
}

/** What decides a signed-in person's role in a project. */
export interface RoleSubject {
  /** Verified email, lower-cased (null: none). */
  email: string | null;
  /** Group claim of their last sign-in. */
  groups: readonly string[];
}

/**
 * A signed-in person's role in a project: the highest grant matching their email or one of their groups,
 * and on a public project at least the server's default role (`defaultRole`, null: none). Emails match
 * without regard to case; group names exactly, as the provider spells them.
 */
export function roleInProject(
  person: RoleSubject,
  grants: readonly RoleGrant[],
  visibility: ProjectVisibility,
  defaultRole: ProjectRole | null,
): ProjectRole | null {
  let role: ProjectRole | null = visibility === "public" ? defaultRole : null;
  const email = person.email?.toLowerCase() ?? null;
  for (const grant of grants) {
    const matches = grant.kind === "email" ? email !== null && grant.subject.toLowerCase() === email : person.groups.includes(grant.subject);
    if (matches) role = higherRole(role, grant.role);
  }
  return role;
}
