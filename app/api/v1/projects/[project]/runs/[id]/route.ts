import { getDb } from "@/server/db";
import { requireRead } from "@/server/http/auth";
import { apiRoute, otherMethods } from "@/server/http/route";
import { requireProject } from "@/server/services/projects";
import { parseProjectSlug } from "@/server/schemas/projects";
import { publicBaseUrl } from "@/server/public-url";
import { getRunDocument } from "@/server/services/run-document";
import { notFound } from "@/server/services/errors";

// GET /api/v1/projects/:project/runs/:id — one stored run in the Benchtrack format, normalized
export const GET = apiRoute<{ project: string; id: string }>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  await requireRead(request, db);
  const project = await requireProject(db, slug);
  const run = await getRunDocument(db, project, params.id, publicBaseUrl(request.headers));
  if (!run) throw notFound(`Run "${params.id}"`);
  return Response.json(run);
});

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
