import { getDb } from "@/server/db";
import { authenticate, requireRead } from "@/server/http/auth";
import { apiRoute, otherMethods, readJsonBody } from "@/server/http/route";
import { parseProjectSlug } from "@/server/schemas/projects";
import { getProjectSettings, updateProjectSettings } from "@/server/services/project-settings";

type Params = { project: string };

// GET /api/v1/projects/:project — the project and its settings
export const GET = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  await requireRead(request, db);
  return Response.json(await getProjectSettings(db, slug));
});

// PATCH /api/v1/projects/:project — change settings (admin)
export const PATCH = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  const principal = await authenticate(request, db);
  const body = await readJsonBody(request);
  return Response.json(await updateProjectSettings(db, principal, slug, body));
});

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, DELETE } = otherMethods("GET", "PATCH");
