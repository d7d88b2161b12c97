import { z } from "zod";
import { MAX_RUNS_PER_SIDE } from "../domain/compare/selector";

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
    url: z.url().describe("The page, with its share token; opens without signing in until it expires."),
    expiresAt: z.iso.datetime(),
    scope: z.enum(["compare", "run"]),
  })
  .describe("A read-only link to one comparison or one run.");
