import { projectInputSchema } from "../../schemas/projects";
import { IMPROVEMENTS_LISTED } from "../../schemas/regressions";
import { listProjectChanges } from "../../services/changes";
import { createTRPCRouter, readProcedure } from "../trpc";

/**
 * Changes the detector recorded (the inbox triages incidents: router incident.ts). The per-regression status
 * override is REST only: PATCH /api/v1/projects/:project/regressions/:id.
 */
export const changeRouter = createTRPCRouter({
  /** The newest lasting improvements (at most 50), any status, each with its links: the incidents inbox lists them (they open no incident). */
  improvements: readProcedure
    .input(projectInputSchema)
    .query(async ({ ctx, input }) => (await listProjectChanges(ctx.db, input.project, { kind: "improvement" }, IMPROVEMENTS_LISTED)).changes),
});
