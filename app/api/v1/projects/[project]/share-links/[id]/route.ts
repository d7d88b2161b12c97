import { otherMethods, projectRoute } from "@/server/http/route";
import { revokeShareLink } from "@/server/services/sharing";

// DELETE /api/v1/projects/:project/share-links/:id — revoke a share link (its maintainers): it opens nothing from then on
export const DELETE = projectRoute<{ project: string; id: string }, "write">({ access: "write" }, async ({ db, principal, slug, params }) => {
  await revokeShareLink(db, principal, slug, params.id);
  return new Response(null, { status: 204 });
});

// Any other method: 405 in the error envelope, with Allow.
export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
