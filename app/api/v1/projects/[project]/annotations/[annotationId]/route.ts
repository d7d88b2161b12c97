import { getDb } from "@/server/db";
import { authenticate } from "@/server/http/auth";
import { apiRoute, otherMethods } from "@/server/http/route";
import { parseProjectSlug } from "@/server/schemas/projects";
import { deleteAnnotation } from "@/server/services/annotations";

// DELETE /api/v1/projects/:project/annotations/:annotationId — delete an annotation (admin)
export const DELETE = apiRoute<{ project: string; annotationId: string }>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  const principal = await authenticate(request, db);
  await deleteAnnotation(db, principal, slug, params.annotationId);
  return new Response(null, { status: 204 });
});

// Any other method: 405 in the error envelope, with Allow.
export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
