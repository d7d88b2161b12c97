import { z } from "zod";
import { GRANT_KINDS, PROJECT_ROLES, PROJECT_VISIBILITIES, TOKEN_SCOPES } from "../domain/access/roles";
import { idSchema, int, json, optionalText, optionalTime, text, timeSchema } from "./transfer-fields";

/**
 * The export file's project-level lines (transfer.ts): the project with its settings, SLA policy and
 * grants, its endpoints, and what only a server backup carries: the users, the project's tokens (as
 * hashes) and its share links.
 */

const slaPolicyLine = z.object({ targets: json, updatedAt: timeSchema }).strict();

/** A grant of a role in the project (docs/access.md): to one person's email or to an identity-provider group. */
const memberRow = z
  .object({
    kind: z.enum(GRANT_KINDS),
    subject: text.min(1).describe("the email (lower-cased) or the group's name"),
    role: z.enum(PROJECT_ROLES),
    grantedBy: text.describe("who granted it, in words"),
    createdAt: timeSchema,
    updatedAt: timeSchema,
  })
  .strict();

export const projectLineSchema = z
  .object({
    kind: z.literal("project"),
    id: idSchema,
    slug: z.string().min(1).max(100),
    name: text,
    description: optionalText,
    defaultBranch: text,
    repoUrl: optionalText,
    isDemo: z.boolean(),
    minEffectPct: z.number(),
    alpha: z.number(),
    gateMetric: text,
    failOn: z.array(text),
    webhookUrl: optionalText,
    webhookFormat: z.enum(["json", "slack", "teams"]),
    webhookDigest: z.enum(["off", "daily"]),
    /** A server backup only: a project export never carries the webhook's signing secret. */
    webhookSecret: optionalText.optional(),
    rawRetentionDays: int.nullable(),
    /** Run retention (absent from files written before it existed: none). */
    retentionDays: int.nullable().default(null),
    retentionKeepRuns: int.nullable().default(null),
    createdAt: timeSchema,
    updatedAt: timeSchema,
    slaPolicy: slaPolicyLine.nullable(),
    /** Access (absent from files written before it existed: the server's default, no grants). */
    visibility: z
      .enum(PROJECT_VISIBILITIES)
      .nullable()
      .default(null)
      .describe("who may read it (docs/access.md); null: the server's default"),
    members: z.array(memberRow).default([]).describe("the project's grants, one per kind and subject"),
  })
  .strict();

/** What tokens made before scopes existed were given (migration 20261130024038): all three. */
export const LEGACY_TOKEN_SCOPES = [...TOKEN_SCOPES];

/** A server backup only: an upload token as its hash (never a secret), so CI keeps working after a move. */
export const tokenLineSchema = z
  .object({
    kind: z.literal("token"),
    id: idSchema,
    name: text,
    prefix: text,
    tokenHash: z.string().regex(/^[0-9a-f]{64}$/, "a SHA-256 hash in hex"),
    createdAt: timeSchema,
    lastUsedAt: optionalTime,
    revokedAt: optionalTime,
    /** Absent from files written before scopes existed: all three, as the migration gave those tokens. */
    scopes: z
      .array(z.enum(TOKEN_SCOPES))
      .default(LEGACY_TOKEN_SCOPES)
      .describe('what it may do: "upload", "read", "triage"'),
    expiresAt: optionalTime.optional().describe("after this it is refused; null or absent: never"),
    createdBy: optionalText.optional().describe("who made it, in words"),
  })
  .strict();

/**
 * A server backup only, after the header and before the projects: a person who signed in, with the id
 * their sessions are sealed with (so they stay signed in after a move) and an admin's decisions about
 * them (server admin, disabled).
 */
export const userLineSchema = z
  .object({
    kind: z.literal("user"),
    id: idSchema,
    issuer: text.describe("the identity provider's issuer"),
    subject: text.describe("the provider's subject claim"),
    email: optionalText,
    name: optionalText,
    groups: z.array(text).describe("the group claim of the last sign-in"),
    serverAdmin: z.boolean(),
    disabledAt: optionalTime.describe("removed by an admin: signing in is refused"),
    createdAt: timeSchema,
    lastSignInAt: optionalTime,
  })
  .strict();

/** A server backup only: a share link (its id is what its URL carries). */
export const shareLinkLineSchema = z
  .object({
    kind: z.literal("shareLink"),
    id: idSchema,
    scope: json,
    createdBy: text,
    createdAt: timeSchema,
    expiresAt: timeSchema,
    revokedAt: optionalTime,
  })
  .strict();

export const endpointLineSchema = z
  .object({
    kind: z.literal("endpoint"),
    /** The id in the exporting database: results, metrics and changes of this file name it. */
    id: int,
    name: text,
    fullName: optionalText,
    protocol: optionalText,
    method: optionalText,
    createdAt: timeSchema,
  })
  .strict();
