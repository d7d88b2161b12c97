import { otherMethods, projectRoute } from "@/server/http/route";
import { createProjectToken, listProjectTokens } from "@/server/services/projects";

// POST /api/v1/projects/:project/tokens — create a token with a name, scopes (default upload only) and expiry (its maintainers); the secret is in this answer only
export const POST = projectRoute({ access: "write" }, async ({ db, principal, slug, readBody }) =>
  Response.json(await createProjectToken(db, principal, slug, await readBody({})), { status: 201 }),
);

// GET /api/v1/projects/:project/tokens — list tokens with scopes, expiry and last use, never their secrets (its maintainers)
export const GET = projectRoute({ access: "write" }, async ({ db, principal, slug }) =>
  Response.json({ tokens: await listProjectTokens(db, principal, slug) }),
);

// Any other method: 405 in the error envelope, with Allow.
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
