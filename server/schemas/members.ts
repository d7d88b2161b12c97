import { z } from "zod";
import { GRANT_KINDS, PROJECT_ROLES, PROJECT_VISIBILITIES } from "../domain/access/roles";
import { projectInputSchema, projectSlugSchema } from "./projects";

/**
 * Wire schemas of a project's members (its grants: a role given to an email or to an identity-provider
 * group), its visibility, and the server's people (docs/access.md).
 */

export const projectRoleSchema = z
  .enum(PROJECT_ROLES)
  .describe('A role in the project: "viewer" (reads), "triager" (also triages incidents, posts markers and annotations), "maintainer" (everything in the project).');

/** A grant's email: lower-cased (emails match without regard to case), at most 320 characters. */
export const memberEmailSchema = z
  .string()
  .trim()
  .max(320)
  .toLowerCase()
  .pipe(z.email("an email address, e.g. ada@example.com"))
  .describe("The person's email, as their identity provider verifies it (stored lower-cased).");

/** A grant's group: trimmed, as the identity provider's group claim spells it (case counts). */
export const memberGroupSchema = z
  .string()
  .trim()
  .min(1, "a group name, as the identity provider's group claim spells it")
  .max(200)
  .describe("The group's name exactly as the identity provider's group claim spells it (BENCHTRACK_OIDC_GROUPS_CLAIM).");

export const grantMemberSchema = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("email").describe("Grant to one person, by email."), subject: memberEmailSchema, role: projectRoleSchema }).strict(),
    z.object({ kind: z.literal("group").describe("Grant to everyone in an identity-provider group."), subject: memberGroupSchema, role: projectRoleSchema }).strict(),
  ])
  .describe("A role for an email or a group; granting again to the same email or group changes its role.");
export type GrantMemberInput = z.infer<typeof grantMemberSchema>;

export const updateMemberSchema = z.object({ role: projectRoleSchema }).strict().describe("The grant's new role.");

export const projectVisibilitySchema = z
  .enum(PROJECT_VISIBILITIES)
  .nullable()
  .describe('Who may read the project: "public" (anyone), "private" (only those given access), or null for the server\'s default (private when BENCHTRACK_READ_TOKEN is set).');

// ---- Answers ----

export const memberMatchSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
});

export const memberSchema = z
  .object({
    id: z.string().describe("The grant's id (PATCH and DELETE …/members/:id)."),
    kind: z.enum(GRANT_KINDS),
    subject: z.string().describe("The email (lower-cased) or the group's name."),
    role: projectRoleSchema,
    grantedBy: z.string().describe('Who granted it last, in words ("admin token", "Ada Lovelace <ada@example.com>").'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    matches: z.array(memberMatchSchema).describe("The signed-in people (not disabled) it matches now: by email, or by a group of their last sign-in; at most 50."),
    matchCount: z.number().int().describe("How many people it matches now (all of them, where `matches` stops at 50)."),
  })
  .describe("One grant of the project.");

export const visibilityStateSchema = z
  .object({
    setting: projectVisibilitySchema,
    effective: z.enum(PROJECT_VISIBILITIES).describe("What applies now: the setting, or the server's default for null."),
    serverDefault: z.enum(PROJECT_VISIBILITIES).describe("The server's default (private when BENCHTRACK_READ_TOKEN is set)."),
  })
  .describe("The project's visibility.");

export const memberListSchema = z
  .object({ members: z.array(memberSchema).describe("Emails first, then groups, each by name."), visibility: visibilityStateSchema })
  .describe("The project's grants and visibility (for those who may manage it).");

export const userSchema = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    email: z.string().nullable().describe("Verified and lower-cased; null when the provider gave none."),
    groups: z.array(z.string()).describe("The group claim of their last sign-in."),
    serverAdmin: z.boolean(),
    disabled: z.boolean().describe("Removed by an admin: their sessions open nothing and signing in is refused."),
    disabledAt: z.iso.datetime().nullable(),
    lastSignInAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime().describe("Their first sign-in."),
  })
  .describe("A person who signed in.");

export const userListSchema = z
  .object({
    users: z.array(userSchema).describe("Most recent sign-in first; at most 1,000."),
    more: z.boolean().describe("True when there are more than the 1,000 listed."),
  })
  .describe("The people who signed in to this server (server admins only).");

export const updateUserSchema = z
  .object({
    serverAdmin: z.boolean().optional().describe("Make (true) or unmake (false) a server admin."),
    disabled: z.boolean().optional().describe("Disable (true: their sessions stop at once) or re-enable (false)."),
  })
  .strict()
  .refine((changes) => changes.serverAdmin !== undefined || changes.disabled !== undefined, {
    message: "name serverAdmin or disabled (or both)",
  })
  .describe("What to change about a person (server admins only).");

// ---- Dashboard (tRPC) inputs ----

export const memberIdSchema = z.string().min(1).max(64).describe("The grant's id.");
export const userIdSchema = z.string().min(1).max(64).describe("The person's id.");

export const grantMemberInputSchema = z.object({ project: projectSlugSchema, grant: grantMemberSchema });
export const updateMemberInputSchema = projectInputSchema.extend({ id: memberIdSchema, role: projectRoleSchema });
export const removeMemberInputSchema = projectInputSchema.extend({ id: memberIdSchema });
export const setVisibilityInputSchema = projectInputSchema.extend({ visibility: projectVisibilitySchema });
export const updateUserInputSchema = z.object({ id: userIdSchema, changes: updateUserSchema });
