import { getDb } from "@/server/db";
import { authenticate } from "@/server/http/auth";
import { apiRoute, otherMethods } from "@/server/http/route";
import { parseProjectSlug } from "@/server/schemas/projects";
import { revokeProjectToken } from "@/server/services/project-tokens";

// DELETE /api/v1/projects/:project/tokens/:id — revoke a token (admin)
export const DELETE = apiRoute<{ project: string; id: string }>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  const principal = await authenticate(request, db);
  await revokeProjectToken(db, principal, slug, params.id);
  return new Response(null, { status: 204 });
});

// Any other method: 405 in the error envelope, with Allow.
export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
