import { getDb } from "@/server/db";
import { authenticate } from "@/server/http/auth";
import { apiRoute, otherMethods, readJsonBody } from "@/server/http/route";
import { publicBaseUrl } from "@/server/public-url";
import { parseProjectSlug } from "@/server/schemas/projects";
import { createShareLink } from "@/server/services/share-links";

// POST /api/v1/projects/:project/share-links — a read-only, expiring link to one comparison or run (admin or project token)
export const POST = apiRoute<{ project: string }>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  const principal = await authenticate(request, db);
  const body = await readJsonBody(request);
  return Response.json(await createShareLink(db, principal, slug, body, publicBaseUrl(request.headers)), { status: 201 });
});

// Any other method: 405 in the error envelope, with Allow.
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
