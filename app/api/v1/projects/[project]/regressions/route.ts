import { getDb } from "@/server/db";
import { requireRead } from "@/server/http/auth";
import { apiRoute, otherMethods } from "@/server/http/route";
import { parseProjectSlug } from "@/server/schemas/projects";
import { publicBaseUrl } from "@/server/public-url";
import { regressionsQuerySchema } from "@/server/schemas/regressions";
import { listProjectRegressions, toRegressionJson } from "@/server/services/regressions";

// GET /api/v1/projects/:project/regressions — detected regressions and improvements, newest first (?status=open&kind=regression)
export const GET = apiRoute<{ project: string }>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  await requireRead(request, db);
  const query = regressionsQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const { regressions } = await listProjectRegressions(db, slug, query);
  const baseUrl = publicBaseUrl(request.headers);
  return Response.json(regressions.map((regression) => toRegressionJson(regression, baseUrl)));
});

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
