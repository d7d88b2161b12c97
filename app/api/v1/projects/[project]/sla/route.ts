import { getDb } from "@/server/db";
import { authenticate, requireRead } from "@/server/http/auth";
import { apiRoute, otherMethods, readJsonBody } from "@/server/http/route";
import { parseProjectSlug } from "@/server/schemas/projects";
import { getProjectSlaPolicy, putSlaPolicy } from "@/server/services/sla-policy";

type Params = { project: string };

// GET /api/v1/projects/:project/sla — the project's SLA policy ({ targets: [] } when it has none)
export const GET = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  await requireRead(request, db);
  return Response.json(await getProjectSlaPolicy(db, slug));
});

// PUT /api/v1/projects/:project/sla — replace the SLA policy (admin); an empty target list removes it
export const PUT = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  const principal = await authenticate(request, db);
  const body = await readJsonBody(request);
  return Response.json(await putSlaPolicy(db, principal, slug, body));
});

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PATCH, DELETE } = otherMethods("GET", "PUT");
