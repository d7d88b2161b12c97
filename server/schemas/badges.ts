import { z } from "zod";

/** Wire schemas of the project's README badge (`GET /api/v1/projects/:p/badge.svg`): its query. */

export const BADGE_KINDS = ["sla", "gate"] as const;

export const badgeQuerySchema = z.object({
  kind: z
    .enum(BADGE_KINDS, { error: 'must be "sla" or "gate"' })
    .default("sla")
    .describe(
      "sla (the default): the SLA grade of the latest run on the default branch (of any branch when it has none). gate: the CI gate's outcome stored with the latest run on the default branch (pass, fail, inconclusive; unknown for a run stored before outcomes were kept; no runs) and the project's open incidents (open or investigating).",
    ),
  label: z.string().optional().describe("Only runs with this label (the incidents counted stay the project's)."),
});
export type BadgeQuery = z.infer<typeof badgeQuerySchema>;
