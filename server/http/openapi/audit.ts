import { auditListSchema, auditQuerySchema } from "../../schemas/audit";
import type { ApiResource } from "./building-blocks";
import { answer, operation, projectParameter, queryParameters, success } from "./building-blocks";

/** The audit log: who deleted what (and, later, every state change), by project slug. */
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
        summary: "The project's audit entries, newest first (its maintainers; a deleted project's, a server admin)",
        description: "Read by the project's slug, so the entries of a deleted project are still answered (its `project.delete` entry last).",
        security: "token",
        parameters: queryParameters(auditQuerySchema),
        responses: { "200": success("The entries.", "AuditList") },
        errors: ["BadRequest", "Unauthorized", "Forbidden"],
      }),
    },
  },
};
