import { otherMethods, projectRoute } from "@/server/http/route";
import { regressionsQuerySchema } from "@/server/schemas/regressions";
import { listProjectChanges, toChangeJson } from "@/server/services/changes";

// GET /api/v1/projects/:project/regressions — detected regressions and improvements, newest first (?status=open&kind=regression)
export const GET = projectRoute({ access: "read" }, async ({ db, slug, readQuery, baseUrl }) => {
  const { changes } = await listProjectChanges(db, slug, readQuery(regressionsQuerySchema));
  return Response.json(changes.map((change) => toChangeJson(change, baseUrl)));
});

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
