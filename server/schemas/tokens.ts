import { z } from "zod";
import { projectInputSchema, projectSlugSchema } from "./projects";

/** Wire schemas of project upload tokens. */
export const createTokenSchema = z
  .object({ name: z.string().min(1).max(200).default("ci").describe("What the token is for, e.g. github-actions.") })
  .describe("A new upload token for the project.");

// ---- Answers ----

export const tokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe("The first characters of the secret, to recognise it."),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
});

export const tokenListSchema = z.object({ tokens: z.array(tokenSchema).describe("Newest first.") }).describe("The project's tokens, never their secrets.");

export const createdTokenSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    token: z.string().describe("The secret. Shown in this answer only; only its hash is stored."),
    createdAt: z.iso.datetime(),
  })
  .describe("A new token, with its secret.");

// ---- Dashboard (tRPC) inputs: the resource's fields plus the project it lives in ----

export const createTokenInputSchema = createTokenSchema.extend({ project: projectSlugSchema });

export const revokeTokenInputSchema = projectInputSchema.extend({ id: z.string().min(1).describe("The token's id (not its secret).") });
