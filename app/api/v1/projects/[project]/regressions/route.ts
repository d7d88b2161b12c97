import { getDb } from "@/server/db";
import { requireRead } from "@/server/http/auth";
import { apiRoute, requireProject } from "@/server/http/route";
import { parseProjectSlug } from "@/server/http/schemas";
import { publicBaseUrl } from "@/server/public-url";
import { listRegressions, regressionLinksForRows, regressionsQuerySchema, toRegressionJson } from "@/server/services/regressions";

// GET /api/v1/projects/:project/regressions — detected regressions and improvements, newest first (?status=open&kind=regression)
export const GET = apiRoute<{ project: string }>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  await requireRead(request, db);
  const project = await requireProject(db, slug);
  const query = regressionsQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const rows = await listRegressions(db, project.id, query);
  const baseUrl = publicBaseUrl(request.headers);
  const links = await regressionLinksForRows(db, project, rows);
  const withLinks = rows.map((row, index) => toRegressionJson(row, links[index]!, baseUrl));
  return Response.json(withLinks);
});
