import { otherMethods, projectRoute } from "@/server/http/route";
import { updateRegressionSchema } from "@/server/schemas/regressions";
import { setChangeStatus, toChangeJson } from "@/server/services/changes";

// PATCH /api/v1/projects/:project/regressions/:id — acknowledge, dismiss or reopen (admin)
export const PATCH = projectRoute<{ project: string; id: string }, "admin">({ access: "admin" }, async ({ db, principal, slug, params, readBody, baseUrl }) => {
  const change = updateRegressionSchema.parse(await readBody());
  return Response.json(toChangeJson(await setChangeStatus(db, principal, slug, params.id, change), baseUrl));
});

// Any other method: 405 in the error envelope, with Allow.
export const { GET, POST, PUT, DELETE } = otherMethods("PATCH");
