import { otherMethods, projectRoute } from "@/server/http/route";
import { annotationQuerySchema, toAnnotationJson } from "@/server/schemas/annotations";
import { createMarker, listAnnotations } from "@/server/services/trends";

// GET /api/v1/projects/:project/annotations?from=&to=&kind= — the project's notes and markers, oldest first
export const GET = projectRoute({ access: "read" }, async ({ db, slug, readQuery }) => {
  const annotations = await listAnnotations(db, slug, readQuery(annotationQuerySchema));
  return Response.json({ annotations: annotations.map(toAnnotationJson) });
});

// POST /api/v1/projects/:project/annotations — a deploy or change marker at a time or on a run (the "mark" action: triagers, tokens with the upload or triage scope)
export const POST = projectRoute({ access: "write" }, async ({ db, principal, slug, readBody }) =>
  Response.json(toAnnotationJson(await createMarker(db, principal, slug, await readBody())), { status: 201 }),
);

// Any other method: 405 in the error envelope, with Allow.
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
