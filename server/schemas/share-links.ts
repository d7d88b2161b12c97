import { z } from "zod";
import { MAX_RUNS_PER_SIDE } from "../domain/compare/selector";
import { projectInputSchema } from "./projects";

/** Wire schemas of share links: read-only, expiring links to one comparison (with its runs) or one run of a private server. */

export const SHARE_LINK_DEFAULT_DAYS = 30;
export const SHARE_LINK_MAX_DAYS = 365;

const selector = z.string().min(1).max(2048);

export const createShareLinkSchema = z
  .object({
    compare: z
      .object({
        base: selector.describe('Base selector, as in GET …/compare (e.g. "label:baseline" or run ids).'),
        head: selector.describe("Head selector."),
        tool: z.string().min(1).max(200).nullable().default(null).describe("Only runs of this tool, as the compare page's tool=."),
        last: z
          .number()
          .int()
          .positive()
          .max(MAX_RUNS_PER_SIDE)
          .nullable()
          .default(null)
          .describe("Newest n runs of each selector, as the compare page's last=."),
      })
      .strict()
      .optional()
      .describe("Share one comparison: pinned to the runs its selectors stand for now, whose pages the link also opens."),
    run: z.string().min(1).max(100).optional().describe("Share one run (its id)."),
    expiresInDays: z
      .number()
      .positive()
      .max(SHARE_LINK_MAX_DAYS)
      .default(SHARE_LINK_DEFAULT_DAYS)
      .describe(`Days the link opens its page (default ${SHARE_LINK_DEFAULT_DAYS}, at most ${SHARE_LINK_MAX_DAYS}).`),
  })
  .strict()
  .refine((value) => (value.compare === undefined) !== (value.run === undefined), {
    message: "give exactly one of compare or run",
    path: ["compare"],
  })
  .describe("What to share: exactly one of a comparison or a run (admin or a token of the project).");

export const shareLinkSchema = z
  .object({
    url: z.url().describe("The short link (…/s/{id}): leads to the page, which opens without signing in until the link expires or is revoked."),
    page: z.url().describe("The page itself, carrying the link's id as ?share= (what the short link leads to)."),
    expiresAt: z.iso.datetime(),
    scope: z.enum(["compare", "run"]),
  })
  .describe("A read-only link to one comparison or one run.");

/** A link's id: what its URL carries after `?share=`. */
export const shareLinkIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{22}$/, "a share link's id is the 22 characters (A-Z, a-z, 0-9, - and _) after ?share= in its URL")
  .describe("The link's id: the 22 characters after ?share= in its URL.");

export const shareLinkRowSchema = z
  .object({
    id: shareLinkIdSchema,
    url: z.url().describe("The short link itself (the admin may copy it again)."),
    page: z.string().describe("The page it opens, relative to the server, carrying the link as ?share=."),
    scope: z
      .discriminatedUnion("kind", [
        z.object({
          kind: z.literal("compare"),
          base: z.string().describe("The base side's run ids, comma-separated (pinned when minted)."),
          head: z.string().describe("The head side's run ids."),
          tool: z.string().nullable(),
        }),
        z.object({ kind: z.literal("run"), runId: z.string() }),
      ])
      .describe("What it opens: one comparison (and its runs' pages), or one run."),
    status: z.enum(["open", "expired", "revoked"]),
    createdBy: z.string().describe('Who minted it: "admin", "token <name>", or "CI gate" (a private server\'s PR comment).'),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime(),
    revokedAt: z.iso.datetime().nullable(),
  })
  .describe("A stored share link. Links minted before links were stored (sealed tokens) are not listed and cannot be revoked one by one.");

export const shareLinkListSchema = z
  .object({ shareLinks: z.array(shareLinkRowSchema).describe("Newest first, the 200 newest.") })
  .describe("The project's share links (admin).");

// ---- Dashboard (tRPC) inputs: the resource's fields plus the project it lives in ----

export const revokeShareLinkInputSchema = projectInputSchema.extend({ id: shareLinkIdSchema });
