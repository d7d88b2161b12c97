import { getDb } from "@/server/db";
import { authenticate, requireAdmin, requireRead } from "@/server/http/auth";
import { ApiError } from "@/server/http/errors";
import { apiRoute, notFound } from "@/server/http/route";
import { parseProjectSlug, updateProjectSchema } from "@/server/http/schemas";
import { findProject, projectSettings, updateProject } from "@/server/services/projects";

type Params = { project: string };

// GET /api/v1/projects/:project — the project and its settings
export const GET = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  await requireRead(request, db);
  const project = await findProject(db, slug);
  if (!project) throw notFound(`Project "${slug}"`);
  return Response.json(projectSettings(project));
});

// PATCH /api/v1/projects/:project — change settings (admin)
export const PATCH = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  requireAdmin(await authenticate(request, db));
  const project = await findProject(db, slug);
  if (!project) throw notFound(`Project "${slug}"`);
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw new ApiError("bad_request", "The body must be JSON", [{ path: "body", message: "not valid JSON" }]);
  }
  const updated = await updateProject(db, project.id, updateProjectSchema.parse(body));
  return Response.json(projectSettings(updated));
});
