import { accessRoute, otherMethods } from "@/server/http/route";
import { auditQuerySchema } from "@/server/schemas/audit";
import { listServerAuditEntries } from "@/server/services/audit";

// GET /api/v1/audit — every audit entry of the server, newest first, a page at a time: server-wide ones and every project's (server admins)
export const GET = accessRoute({ access: "write" }, async ({ db, principal, readQuery }) =>
  Response.json(await listServerAuditEntries(db, principal, readQuery(auditQuerySchema))),
);

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
