import { getDb } from "@/server/db";
import { authenticate, requireRead } from "@/server/http/auth";
import { apiRoute, otherMethods, readJsonBody } from "@/server/http/route";
import { toAnnotationJson } from "@/server/schemas/annotations";
import { parseProjectSlug } from "@/server/schemas/projects";
import { createAnnotation, listRunAnnotations } from "@/server/services/annotations";

type Params = { project: string; id: string };

// GET /api/v1/projects/:project/runs/:id/annotations — the run's annotations, oldest first
export const GET = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  await requireRead(request, db);
  const annotations = await listRunAnnotations(db, slug, params.id);
  return Response.json({ annotations: annotations.map(toAnnotationJson) });
});

// POST /api/v1/projects/:project/runs/:id/annotations — annotate a run (admin)
export const POST = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  const principal = await authenticate(request, db);
  const body = await readJsonBody(request);
  const annotation = await createAnnotation(db, principal, slug, params.id, body);
  return Response.json(toAnnotationJson(annotation), { status: 201 });
});

// Any other method: 405 in the error envelope, with Allow.
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
