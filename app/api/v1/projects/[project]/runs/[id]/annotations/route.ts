import { getDb } from "@/server/db";
import { createAnnotationSchema, toAnnotationJson } from "@/server/http/annotation-schema";
import { authenticate, requireAdmin, requireRead } from "@/server/http/auth";
import { apiRoute, notFound, readJsonBody, requireProject } from "@/server/http/route";
import { parseProjectSlug } from "@/server/http/schemas";
import { createAnnotation, listRunAnnotations } from "@/server/services/annotations";

type Params = { project: string; id: string };

// GET /api/v1/projects/:project/runs/:id/annotations — the run's annotations, oldest first
export const GET = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  await requireRead(request, db);
  const project = await requireProject(db, slug);
  const annotations = await listRunAnnotations(db, project.id, params.id);
  if (!annotations) throw notFound(`Run "${params.id}"`);
  return Response.json({ annotations: annotations.map(toAnnotationJson) });
});

// POST /api/v1/projects/:project/runs/:id/annotations — annotate a run (admin)
export const POST = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  requireAdmin(await authenticate(request, db));
  const project = await requireProject(db, slug);
  const body = await readJsonBody(request);
  const input = createAnnotationSchema.parse(body);
  const annotation = await createAnnotation(db, project.id, params.id, input.text);
  if (!annotation) throw notFound(`Run "${params.id}"`);
  return Response.json(toAnnotationJson(annotation), { status: 201 });
});
