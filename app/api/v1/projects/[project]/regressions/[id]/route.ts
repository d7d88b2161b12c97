import { getDb } from "@/server/db";
import { authenticate, requireAdmin } from "@/server/http/auth";
import { apiRoute, notFound, readJsonBody, requireProject } from "@/server/http/route";
import { parseProjectSlug } from "@/server/http/schemas";
import { publicBaseUrl } from "@/server/public-url";
import { regressionLinks, toRegressionJson, updateRegressionSchema, updateRegressionStatus } from "@/server/services/regressions";

// PATCH /api/v1/projects/:project/regressions/:id — acknowledge, dismiss or reopen (admin)
export const PATCH = apiRoute<{ project: string; id: string }>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  requireAdmin(await authenticate(request, db));
  const project = await requireProject(db, slug);
  const body = await readJsonBody(request);
  const row = await updateRegressionStatus(db, project.id, params.id, updateRegressionSchema.parse(body));
  if (!row) throw notFound(`Regression "${params.id}"`);
  return Response.json(toRegressionJson(row, await regressionLinks(db, project, row), publicBaseUrl(request.headers)));
});
