import { getDb } from "@/server/db";
import { authenticate, requireRead } from "@/server/http/auth";
import { apiRoute, otherMethods, readJsonBody } from "@/server/http/route";
import { annotationQuerySchema, toAnnotationJson } from "@/server/schemas/annotations";
import { parseProjectSlug } from "@/server/schemas/projects";
import { createMarker, listAnnotations } from "@/server/services/annotations";

type Params = { project: string };

// GET /api/v1/projects/:project/annotations?from=&to=&kind= — the project's notes and markers, oldest first
export const GET = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  await requireRead(request, db);
  const query = annotationQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const annotations = await listAnnotations(db, slug, query);
  return Response.json({ annotations: annotations.map(toAnnotationJson) });
});

// POST /api/v1/projects/:project/annotations — a deploy or change marker at a time or on a run (admin or the project's token)
export const POST = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  const principal = await authenticate(request, db);
  const body = await readJsonBody(request);
  const annotation = await createMarker(db, principal, slug, body);
  return Response.json(toAnnotationJson(annotation), { status: 201 });
});

// Any other method: 405 in the error envelope, with Allow.
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
