import { z } from "zod";
import { AUDIT_ACTIONS } from "../domain/audit/actions";
import { projectSlugSchema } from "./projects";

/** Wire schemas of the audit log (audit_entries) and of what a deletion answers. */

export const auditActionSchema = z.enum(AUDIT_ACTIONS).describe("What was done, `<object>.<verb>` (a closed list).");

export const auditEntrySchema = z
  .object({
    id: z.string(),
    at: z.iso.datetime(),
    actor: z
      .string()
      .describe('Who, never a secret: a person as "Name <email>", "project token \\"ci\\"", "admin token", "admin session", "retention job".'),
    actorUserId: z.string().nullable().describe("The signed-in person who did it (null for tokens and jobs)."),
    action: z.string().describe('What, `<object>.<verb>`: "settings.update", "token.create", "incident.update", "run.delete", …'),
    project: z.string().nullable().describe("The project's slug at the time (kept after the project is deleted); null for a server-wide action."),
    targetId: z.string().nullable().describe("The object acted on: a run's, token's, incident's or project's id."),
    detail: z
      .record(z.string(), z.unknown())
      .describe("What it did: `from` and `to` with only the fields that changed, or counts of what went; never a secret."),
  })
  .describe("One audit entry.");

export const auditListSchema = z
  .object({
    entries: z.array(auditEntrySchema),
    nextBefore: z.string().nullable().describe("Pass as `before` for the next (older) page; null: no more."),
  })
  .describe("Audit entries, newest first, one page.");

const auditQueryFields = {
  limit: z.coerce.number().int().min(1).max(500).default(50).describe("How many entries, newest first (default 50, at most 500)."),
  before: z.string().min(1).max(64).optional().describe("An entry's id (a page's `nextBefore`): only entries older than it."),
  action: auditActionSchema.optional().describe("Only entries of this action."),
};

export const auditQuerySchema = z.object(auditQueryFields).strict();

export const auditInputSchema = z.object({
  project: projectSlugSchema,
  limit: z.number().int().min(1).max(500).default(50),
  before: auditQueryFields.before,
  action: auditQueryFields.action,
});

/** What a deletion removed (the answer of DELETE …/runs/:id, and the detail of its audit entry). */
export const deletedCountsSchema = z
  .object({
    runs: z.number().int(),
    results: z.number().int().describe("Result rows (one per endpoint per run, and the aggregate)."),
    metrics: z.number().int().describe("Custom metric rows."),
    rawUploads: z.number().int().describe("Raw upload files."),
    annotations: z.number().int(),
    changes: z.number().int().describe("Changes (regressions and improvements) first seen at the deleted runs."),
    incidents: z.array(z.number().int()).describe("Numbers of the incidents removed: opened at a deleted run, or left with no change."),
    baselinePins: z.number().int().describe("Baseline pins that named a deleted run (the run taken out; a pin left empty is removed)."),
    shareLinksRevoked: z.number().int().describe("Share links whose scope included a deleted run, now revoked."),
  })
  .describe("What was removed.");

export const deletedRunSchema = z
  .object({ runId: z.string(), project: z.string(), deleted: deletedCountsSchema, auditId: z.string().describe("The audit entry that records it.") })
  .describe("The run deleted, and what went with it.");

export const deletedProjectSchema = z
  .object({
    project: z.string(),
    deleted: z.object({ runs: z.number().int(), tokens: z.number().int(), shareLinks: z.number().int(), incidents: z.number().int(), queuedJobs: z.number().int() }),
    auditId: z.string(),
  })
  .describe("The project deleted, and what went with it.");

export const deleteProjectInputSchema = z.object({
  project: projectSlugSchema,
  /** The browser's confirmation: the project's slug typed again (checked on the server too). */
  confirm: z.string().max(200),
});

export const runRetentionPreviewInputSchema = z.object({
  project: projectSlugSchema,
  retentionDays: z.number().int().min(1).max(36_500).nullable(),
  retentionKeepRuns: z.number().int().min(1).max(1_000_000).nullable(),
});

export type AuditEntry = z.infer<typeof auditEntrySchema>;
export type AuditPage = z.infer<typeof auditListSchema>;
export type DeletedCounts = z.infer<typeof deletedCountsSchema>;
