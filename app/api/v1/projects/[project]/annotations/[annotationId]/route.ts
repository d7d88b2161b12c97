import { getDb } from "@/server/db";
import { authenticate, requireAdmin } from "@/server/http/auth";
import { apiRoute, notFound, requireProject } from "@/server/http/route";
import { parseProjectSlug } from "@/server/http/schemas";
import { deleteAnnotation } from "@/server/services/annotations";

// DELETE /api/v1/projects/:project/annotations/:annotationId — delete an annotation (admin)
export const DELETE = apiRoute<{ project: string; annotationId: string }>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  requireAdmin(await authenticate(request, db));
  const project = await requireProject(db, slug);
  if (!(await deleteAnnotation(db, project.id, params.annotationId))) {
    throw notFound(`Annotation "${params.annotationId}"`);
  }
  return new Response(null, { status: 204 });
});
