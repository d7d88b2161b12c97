import { getDb } from "@/server/db";
import { authenticate, requireAdmin, requireRead } from "@/server/http/auth";
import { apiRoute, readJsonBody, requireProject } from "@/server/http/route";
import { parseProjectSlug, updateProjectSchema } from "@/server/http/schemas";
import { projectSettings, updateProject } from "@/server/services/projects";

type Params = { project: string };

// GET /api/v1/projects/:project — the project and its settings
export const GET = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  await requireRead(request, db);
  const project = await requireProject(db, slug);
  return Response.json(projectSettings(project));
});

// PATCH /api/v1/projects/:project — change settings (admin)
export const PATCH = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  requireAdmin(await authenticate(request, db));
  const project = await requireProject(db, slug);
  const body = await readJsonBody(request);
  const updated = await updateProject(db, project.id, updateProjectSchema.parse(body));
  return Response.json(projectSettings(updated));
});
