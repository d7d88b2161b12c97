import { otherMethods, projectRoute } from "@/server/http/route";
import { auditQuerySchema } from "@/server/schemas/audit";
import { listAuditEntries } from "@/server/services/audit";

// GET /api/v1/projects/:project/audit — the project's audit entries, newest first, a page at a time (its maintainers; kept after the project is deleted)
export const GET = projectRoute({ access: "write" }, async ({ db, principal, slug, readQuery }) =>
  Response.json(await listAuditEntries(db, principal, slug, readQuery(auditQuerySchema))),
);

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
