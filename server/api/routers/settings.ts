import { auditInputSchema, deleteProjectInputSchema, runRetentionPreviewInputSchema } from "../../schemas/audit";
import { projectInputSchema, updateProjectInputSchema } from "../../schemas/projects";
import { listAuditEntries } from "../../services/audit";
import { deleteProject, previewRunRetention } from "../../services/deletion";
import { putSlaPolicyInputSchema } from "../../schemas/sla";
import { getJobActivity } from "../../services/projects";
import { getSettingsPage, updateProjectSettings } from "../../services/projects";
import { putSlaPolicy } from "../../services/projects";
import { adminProcedure, createTRPCRouter, readProcedure, writeProcedure } from "../trpc";

/** The settings page: what it shows (open to readers), and the admin's changes to settings and SLA policy. */
export const settingsRouter = createTRPCRouter({
  /** Name, branch, repository, regression settings and the current SLA targets. */
  get: readProcedure.input(projectInputSchema).query(({ ctx, input }) => getSettingsPage(ctx.db, input.project)),

  /** Changes the project's settings (admin), as PATCH /api/v1/projects/:project. */
  update: adminProcedure
    .input(updateProjectInputSchema)
    .mutation(({ ctx, input: { project, ...changes } }) => updateProjectSettings(ctx.db, ctx.principal, project, changes)),

  /** The project's background jobs (admin: a failure's message may name a target). */
  activity: adminProcedure.input(projectInputSchema).query(({ ctx, input }) => getJobActivity(ctx.db, input.project)),

  /** Replaces the SLA policy (admin), as PUT /api/v1/projects/:project/sla; no targets: no SLA. */
  setSlaPolicy: adminProcedure
    .input(putSlaPolicyInputSchema)
    .mutation(({ ctx, input: { project, ...policy } }) => putSlaPolicy(ctx.db, ctx.principal, project, policy)),

  /** The project's audit entries, newest first, a page at a time (its maintainers), as GET /api/v1/projects/:project/audit. */
  audit: writeProcedure
    .input(auditInputSchema)
    .query(({ ctx, input: { project, ...query } }) => listAuditEntries(ctx.db, ctx.principal, project, query)),

  /** What a run retention rule would delete now (admin): Settings shows it before the rule is saved. */
  previewRetention: adminProcedure
    .input(runRetentionPreviewInputSchema)
    .query(({ ctx, input: { project, ...rule } }) => previewRunRetention(ctx.db, ctx.principal, project, rule)),

  /** Deletes the project and everything of it (admin), the danger zone; `confirm` must be its slug. */
  deleteProject: adminProcedure
    .input(deleteProjectInputSchema)
    .mutation(({ ctx, input }) => deleteProject(ctx.db, ctx.principal, input.project, { viaSession: !ctx.authorization, confirm: input.confirm })),
});
