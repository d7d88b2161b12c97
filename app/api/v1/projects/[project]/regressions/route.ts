import { otherMethods, projectRoute } from "@/server/http/route";
import { regressionsQuerySchema } from "@/server/schemas/regressions";
import { listProjectRegressions, toRegressionJson } from "@/server/services/changes";

// GET /api/v1/projects/:project/regressions — detected regressions and improvements, newest first (?status=open&kind=regression)
export const GET = projectRoute({ access: "read" }, async ({ db, slug, readQuery, baseUrl }) => {
  const { regressions } = await listProjectRegressions(db, slug, readQuery(regressionsQuerySchema));
  return Response.json(regressions.map((regression) => toRegressionJson(regression, baseUrl)));
});

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
