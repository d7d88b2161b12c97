import { getDb } from "@/server/db";
import { authenticate } from "@/server/http/auth";
import { apiRoute, otherMethods, readJsonBody } from "@/server/http/route";
import { parseProjectSlug } from "@/server/schemas/projects";
import { publicBaseUrl } from "@/server/public-url";
import { updateRegressionSchema } from "@/server/schemas/regressions";
import { requireAdmin } from "@/server/services/auth";
import { setRegressionStatus, toRegressionJson } from "@/server/services/regressions";

// PATCH /api/v1/projects/:project/regressions/:id — acknowledge, dismiss or reopen (admin)
export const PATCH = apiRoute<{ project: string; id: string }>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  requireAdmin(await authenticate(request, db));
  const change = updateRegressionSchema.parse(await readJsonBody(request));
  const regression = await setRegressionStatus(db, slug, params.id, change);
  return Response.json(toRegressionJson(regression, publicBaseUrl(request.headers)));
});

// Any other method: 405 in the error envelope, with Allow.
export const { GET, POST, PUT, DELETE } = otherMethods("PATCH");
