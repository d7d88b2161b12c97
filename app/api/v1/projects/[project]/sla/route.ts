import { otherMethods, projectRoute } from "@/server/http/route";
import { getProjectSlaPolicy, putSlaPolicy } from "@/server/services/projects";

// GET /api/v1/projects/:project/sla — the project's SLA policy ({ targets: [] } when it has none)
export const GET = projectRoute({ access: "read" }, async ({ db, slug }) => Response.json(await getProjectSlaPolicy(db, slug)));

// PUT /api/v1/projects/:project/sla — replace the SLA policy (its maintainers); an empty target list removes it.
// A policy may name targets per endpoint (up to 1,000 endpoints a run): 1 MiB, not the 64 KiB default.
export const PUT = projectRoute({ access: "write", maxBodyBytes: 1024 * 1024 }, async ({ db, principal, slug, readBody }) =>
  Response.json(await putSlaPolicy(db, principal, slug, await readBody())),
);

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PATCH, DELETE } = otherMethods("GET", "PUT");
