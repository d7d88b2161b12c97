import { otherMethods, projectRoute } from "@/server/http/route";
import { deleteAnnotation } from "@/server/services/trends";

// DELETE /api/v1/projects/:project/annotations/:annotationId — delete an annotation (the "mark" action)
export const DELETE = projectRoute<{ project: string; annotationId: string }, "write">({ access: "write" }, async ({ db, principal, slug, params }) => {
  await deleteAnnotation(db, principal, slug, params.annotationId);
  return new Response(null, { status: 204 });
});

// Any other method: 405 in the error envelope, with Allow.
export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
