import { z } from "zod";
import { DEFAULT_TOKEN_SCOPES, TOKEN_SCOPES, scopeWords } from "../domain/access/roles";
import { projectInputSchema, projectSlugSchema } from "./projects";

/** Wire schemas of project tokens: what each may do (its scopes), until when, and who made it. */

export const TOKEN_NAME_MAX_LENGTH = 100;
/** The longest a token may live: ten years. */
export const TOKEN_MAX_DAYS = 3650;
/** The name a token gets when its maker gives none (the Settings form's first value, `npm run token`). */
export const DEFAULT_TOKEN_NAME = "ci";

/** "upload: upload runs, post markers and annotations", one line per scope (roles.ts scopeWords). */
const SCOPE_WORDS = TOKEN_SCOPES.map((scope) => `"${scope}": ${scopeWords(scope)}`).join("; ");

const tokenScopeSchema = z.enum(TOKEN_SCOPES).describe(`A scope: ${SCOPE_WORDS}.`);

export const createTokenSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, "give the token a name, e.g. github-actions")
      .max(TOKEN_NAME_MAX_LENGTH, `at most ${TOKEN_NAME_MAX_LENGTH} characters`)
      .describe("What the token is for, e.g. github-actions; unique among the project's live tokens."),
    scopes: z
      .array(tokenScopeSchema)
      .min(1, `give at least one scope: ${TOKEN_SCOPES.join(", ")}`)
      .max(TOKEN_SCOPES.length * 2)
      .default([...DEFAULT_TOKEN_SCOPES])
      .describe(`What the token may do on its own project (default ["upload"]). ${SCOPE_WORDS}.`),
    expiresInDays: z
      .number()
      .int("a whole number of days")
      .min(1)
      .max(TOKEN_MAX_DAYS)
      .optional()
      .describe(`Days until the token expires (1 to ${TOKEN_MAX_DAYS}). Leave out with expiresAt for a token that never expires.`),
    expiresAt: z
      .union([z.iso.datetime({ offset: true }), z.iso.date()], { error: 'an ISO 8601 time ("2027-06-30T12:00:00Z") or date ("2027-06-30")' })
      .optional()
      .describe('When the token expires, instead of expiresInDays: an ISO 8601 time in the future ("2027-06-30T12:00:00Z"), or a date, meaning 00:00 UTC that day.'),
  })
  .strict()
  .refine((value) => value.expiresInDays === undefined || value.expiresAt === undefined, {
    message: "give expiresInDays or expiresAt, not both",
    path: ["expiresAt"],
  })
  .describe("A new project token: its name, scopes and expiry.");

export type CreateTokenInput = z.infer<typeof createTokenSchema>;

// ---- Answers ----

export const TOKEN_STATUSES = ["active", "expired", "revoked"] as const;

export const tokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe("The first characters of the secret, to recognise it."),
  scopes: z.array(z.string()).describe(`What it may do on its own project. ${SCOPE_WORDS}.`),
  createdAt: z.iso.datetime(),
  createdBy: z.string().nullable().describe('Who made it, in words ("admin token", "Ada Lovelace <ada@example.com>"); null for tokens made before this was kept.'),
  expiresAt: z.iso.datetime().nullable().describe("After this it is refused (null: never expires)."),
  lastUsedAt: z.iso.datetime().nullable().describe("When it was last accepted (null: never used)."),
  revokedAt: z.iso.datetime().nullable(),
  status: z.enum(TOKEN_STATUSES).describe("active, expired (past expiresAt) or revoked (revoked wins)."),
});

export const tokenListSchema = z.object({ tokens: z.array(tokenSchema).describe("Newest first.") }).describe("The project's tokens, never their secrets.");

export const createdTokenSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    scopes: z.array(z.string()),
    createdAt: z.iso.datetime(),
    createdBy: z.string(),
    expiresAt: z.iso.datetime().nullable().describe("null: never expires."),
    token: z.string().describe("The secret. Shown in this answer only; only its hash is stored."),
  })
  .describe("A new token, with its secret.");

// ---- Dashboard (tRPC) inputs: the resource's fields plus the project it lives in ----

export const createTokenInputSchema = createTokenSchema.safeExtend({ project: projectSlugSchema });

export const revokeTokenInputSchema = projectInputSchema.extend({ id: z.string().min(1).describe("The token's id (not its secret).") });
