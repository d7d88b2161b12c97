import { otherMethods, projectRoute } from "@/server/http/route";
import { createShareLink } from "@/server/services/sharing";

// POST /api/v1/projects/:project/share-links — a read-only, expiring link to one comparison or run (admin or project token)
export const POST = projectRoute({ access: "write" }, async ({ db, principal, slug, readBody, baseUrl }) =>
  Response.json(await createShareLink(db, principal, slug, await readBody(), baseUrl), { status: 201 }),
);

// Any other method: 405 in the error envelope, with Allow.
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
