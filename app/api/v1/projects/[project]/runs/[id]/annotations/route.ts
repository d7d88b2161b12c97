import { otherMethods, projectRoute } from "@/server/http/route";
import { toAnnotationJson } from "@/server/schemas/annotations";
import { createAnnotation, listRunAnnotations } from "@/server/services/trends";

type Params = { project: string; id: string };

// GET /api/v1/projects/:project/runs/:id/annotations — the run's annotations, oldest first
export const GET = projectRoute<Params, "read">({ access: "read" }, async ({ db, slug, params }) => {
  const annotations = await listRunAnnotations(db, slug, params.id);
  return Response.json({ annotations: annotations.map(toAnnotationJson) });
});

// POST /api/v1/projects/:project/runs/:id/annotations — annotate a run (the "mark" action)
export const POST = projectRoute<Params, "write">({ access: "write" }, async ({ db, principal, slug, params, readBody }) =>
  Response.json(toAnnotationJson(await createAnnotation(db, principal, slug, params.id, await readBody())), { status: 201 }),
);

// Any other method: 405 in the error envelope, with Allow.
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
