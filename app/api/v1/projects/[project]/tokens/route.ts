import { getDb } from "@/server/db";
import { authenticate, requireAdmin } from "@/server/http/auth";
import { apiRoute, readJsonBody, requireProject } from "@/server/http/route";
import { createTokenSchema, parseProjectSlug } from "@/server/http/schemas";
import { createProjectToken, listProjectTokens } from "@/server/services/tokens";

type Params = { project: string };

// POST /api/v1/projects/:project/tokens — create an upload token (admin); the secret is in this answer only
export const POST = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  requireAdmin(await authenticate(request, db));
  const project = await requireProject(db, slug);
  const body = await readJsonBody(request, {});
  const input = createTokenSchema.parse(body);
  const token = await createProjectToken(db, project.id, input.name);
  return Response.json(
    { id: token.id, name: token.name, prefix: token.prefix, token: token.token, createdAt: token.createdAt.toISOString() },
    { status: 201 },
  );
});

// GET /api/v1/projects/:project/tokens — list tokens, never their secrets (admin)
export const GET = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  requireAdmin(await authenticate(request, db));
  const project = await requireProject(db, slug);
  return Response.json({ tokens: await listProjectTokens(db, project.id) });
});
