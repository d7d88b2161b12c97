import { otherMethods, projectRoute } from "@/server/http/route";
import { deleteRun } from "@/server/services/deletion";
import { notFound } from "@/server/services/platform";
import { requireProject } from "@/server/services/projects";
import { getRunDocument } from "@/server/services/runs";

// GET /api/v1/projects/:project/runs/:id — one stored run in the Benchtrack format, normalized
export const GET = projectRoute<{ project: string; id: string }, "read">({ access: "read", share: "run" }, async ({ db, slug, params, baseUrl }) => {
  const run = await getRunDocument(db, await requireProject(db, slug), params.id, baseUrl);
  if (!run) throw notFound(`Run "${params.id}"`);
  return Response.json(run);
});

// DELETE /api/v1/projects/:project/runs/:id — delete a run and what rests on it (its maintainers); 200 with what went
export const DELETE = projectRoute<{ project: string; id: string }, "write">({ access: "write" }, async ({ db, principal, slug, params, baseUrl }) =>
  Response.json(await deleteRun(db, principal, slug, params.id, { viaSession: false, baseUrl })),
);

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH } = otherMethods("GET", "DELETE");
