import { getDb } from "@/server/db";
import { authenticate, requireAdmin, requireRead } from "@/server/http/auth";
import { apiRoute, readJsonBody, requireProject } from "@/server/http/route";
import { parseProjectSlug } from "@/server/http/schemas";
import { getSlaPolicy, putSlaPolicy } from "@/server/services/sla";

type Params = { project: string };

// GET /api/v1/projects/:project/sla — the project's SLA policy ({ targets: [] } when it has none)
export const GET = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  await requireRead(request, db);
  const project = await requireProject(db, slug);
  return Response.json((await getSlaPolicy(db, project.id)) ?? { targets: [] });
});

// PUT /api/v1/projects/:project/sla — replace the SLA policy (admin); an empty target list removes it
export const PUT = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  requireAdmin(await authenticate(request, db));
  const project = await requireProject(db, slug);
  const body = await readJsonBody(request);
  const policy = await putSlaPolicy(db, project.id, body);
  return Response.json(policy ?? { targets: [] });
});
