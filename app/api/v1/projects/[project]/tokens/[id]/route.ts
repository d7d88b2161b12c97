import { otherMethods, projectRoute } from "@/server/http/route";
import { revokeProjectToken } from "@/server/services/projects";

// DELETE /api/v1/projects/:project/tokens/:id — revoke a token (its maintainers)
export const DELETE = projectRoute<{ project: string; id: string }, "write">({ access: "write" }, async ({ db, principal, slug, params }) => {
  await revokeProjectToken(db, principal, slug, params.id);
  return new Response(null, { status: 204 });
});

// Any other method: 405 in the error envelope, with Allow.
export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
