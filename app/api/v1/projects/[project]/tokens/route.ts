import { getDb } from "@/server/db";
import { authenticate } from "@/server/http/auth";
import { apiRoute, otherMethods, readJsonBody } from "@/server/http/route";
import { parseProjectSlug } from "@/server/schemas/projects";
import { createProjectToken, listProjectTokens } from "@/server/services/project-tokens";

type Params = { project: string };

// POST /api/v1/projects/:project/tokens — create an upload token (admin); the secret is in this answer only
export const POST = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  const principal = await authenticate(request, db);
  const body = await readJsonBody(request, {});
  return Response.json(await createProjectToken(db, principal, slug, body), { status: 201 });
});

// GET /api/v1/projects/:project/tokens — list tokens, never their secrets (admin)
export const GET = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  const principal = await authenticate(request, db);
  return Response.json({ tokens: await listProjectTokens(db, principal, slug) });
});

// Any other method: 405 in the error envelope, with Allow.
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
