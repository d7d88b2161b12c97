import { auditListSchema, auditQuerySchema } from "../../schemas/audit";
import type { ApiResource } from "./building-blocks";
import { answer, operation, projectParameter, queryParameters, success } from "./building-blocks";

/** The audit log: who changed what, when, from what to what; by project slug, or the whole server's. */
export const auditResource: ApiResource = {
  schemas: {
    AuditList: answer(auditListSchema),
  },
  paths: {
    "/api/v1/projects/{project}/audit": {
      parameters: [projectParameter],
      get: operation({
        operationId: "listAuditEntries",
        tag: "projects",
        summary: "The project's audit entries, newest first (its maintainers, server admins)",
        description:
          "Every state change of the project (settings, SLA, tokens, webhook, share links, incidents, regressions, annotations, baseline pins, imports, deletions), one entry each, with who did it and `detail.from`/`detail.to` for what changed. Page with `before` (the answer's `nextBefore`); filter with `action`. Read by the project's slug, so the entries of a deleted project are still answered to a server admin (its `project.delete` entry last).",
        security: "token",
        parameters: queryParameters(auditQuerySchema),
        responses: { "200": success("The entries.", "AuditList") },
        errors: ["BadRequest", "Unauthorized", "Forbidden"],
      }),
    },
    "/api/v1/audit": {
      get: operation({
        operationId: "listServerAuditEntries",
        tag: "projects",
        summary: "Every audit entry of the server, newest first (server admins)",
        description: "Entries of every project and those of no project (server-wide changes), paged with `before` and filtered with `action` as a project's.",
        security: "token",
        parameters: queryParameters(auditQuerySchema),
        responses: { "200": success("The entries.", "AuditList") },
        errors: ["BadRequest", "Unauthorized", "Forbidden"],
      }),
    },
  },
};
