import { auditInputSchema, deleteProjectInputSchema, runRetentionPreviewInputSchema } from "../../schemas/audit";
import { projectInputSchema, updateProjectInputSchema } from "../../schemas/projects";
import { listAuditEntries } from "../../services/audit";
import { deleteProject, previewRunRetention } from "../../services/deletion";
import { putSlaPolicyInputSchema } from "../../schemas/sla";
import { getJobActivity } from "../../services/projects";
import { getSettingsPage, updateProjectSettings } from "../../services/projects";
import { putSlaPolicy } from "../../services/projects";
import { createTRPCRouter, readProcedure, writeProcedure } from "../trpc";

/** The settings page: what it shows (open to readers), and its maintainers' changes to settings and SLA policy. */
export const settingsRouter = createTRPCRouter({
  /** Name, branch, repository, regression settings and the current SLA targets. */
  get: readProcedure.input(projectInputSchema).query(({ ctx, input }) => getSettingsPage(ctx.db, input.project)),

  /** Changes the project's settings (its maintainers), as PATCH /api/v1/projects/:project. */
  update: writeProcedure
    .input(updateProjectInputSchema)
    .mutation(({ ctx, input: { project, ...changes } }) => updateProjectSettings(ctx.db, ctx.principal, project, changes, { viaSession: !ctx.authorization })),

  /** The project's background jobs (its maintainers: a failure's message may name a target). */
  activity: writeProcedure.input(projectInputSchema).query(({ ctx, input }) => getJobActivity(ctx.db, ctx.principal, input.project)),

  /** Replaces the SLA policy (its maintainers), as PUT /api/v1/projects/:project/sla; no targets: no SLA. */
  setSlaPolicy: writeProcedure
    .input(putSlaPolicyInputSchema)
    .mutation(({ ctx, input: { project, ...policy } }) => putSlaPolicy(ctx.db, ctx.principal, project, policy)),

  /** The project's audit entries, newest first, a page at a time (its maintainers), as GET /api/v1/projects/:project/audit. */
  audit: writeProcedure
    .input(auditInputSchema)
    .query(({ ctx, input: { project, ...query } }) => listAuditEntries(ctx.db, ctx.principal, project, query)),

  /** What a run retention rule would delete now (its maintainers): Settings shows it before the rule is saved. */
  previewRetention: writeProcedure
    .input(runRetentionPreviewInputSchema)
    .query(({ ctx, input: { project, ...rule } }) => previewRunRetention(ctx.db, ctx.principal, project, rule)),

  /** Deletes the project and everything of it (its maintainers), the danger zone; `confirm` must be its slug. */
  deleteProject: writeProcedure
    .input(deleteProjectInputSchema)
    .mutation(({ ctx, input }) => deleteProject(ctx.db, ctx.principal, input.project, { viaSession: !ctx.authorization, confirm: input.confirm })),
});
