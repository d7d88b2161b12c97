import { otherMethods, projectRoute } from "@/server/http/route";
import { auditQuerySchema } from "@/server/schemas/audit";
import { listAuditEntries } from "@/server/services/audit";

// GET /api/v1/projects/:project/audit — the project's audit entries, newest first (its maintainers; a deleted project's, the server admin's)
export const GET = projectRoute({ access: "write" }, async ({ db, principal, slug, readQuery }) => {
  const { limit } = readQuery(auditQuerySchema);
  return Response.json({ entries: await listAuditEntries(db, principal, slug, limit) });
});

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
