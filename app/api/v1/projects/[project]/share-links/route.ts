import { otherMethods, projectRoute } from "@/server/http/route";
import { createShareLink, listShareLinks } from "@/server/services/sharing";

// POST /api/v1/projects/:project/share-links — a read-only, expiring link to one comparison or run (the "share" action: maintainers, tokens with the read scope)
export const POST = projectRoute({ access: "write" }, async ({ db, principal, slug, readBody, baseUrl }) =>
  Response.json(await createShareLink(db, principal, slug, await readBody(), baseUrl), { status: 201 }),
);

// GET /api/v1/projects/:project/share-links — the project's stored share links, newest first (its maintainers)
export const GET = projectRoute({ access: "write" }, async ({ db, principal, slug, baseUrl }) =>
  Response.json({ shareLinks: await listShareLinks(db, principal, slug, baseUrl) }),
);

// Any other method: 405 in the error envelope, with Allow.
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
