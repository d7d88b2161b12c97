import { getDb } from "@/server/db";
import { authenticate, requireAdmin } from "@/server/http/auth";
import { apiRoute, notFound, requireProject } from "@/server/http/route";
import { parseProjectSlug } from "@/server/http/schemas";
import { revokeProjectToken } from "@/server/services/tokens";

// DELETE /api/v1/projects/:project/tokens/:id — revoke a token (admin)
export const DELETE = apiRoute<{ project: string; id: string }>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  requireAdmin(await authenticate(request, db));
  const project = await requireProject(db, slug);
  if (!(await revokeProjectToken(db, project.id, params.id))) throw notFound(`Token "${params.id}"`);
  return new Response(null, { status: 204 });
});
