import { otherMethods, projectRoute } from "@/server/http/route";
import { grantMember, listMembers } from "@/server/services/members";

// GET /api/v1/projects/:project/members — the grants (with the people each matches) and the visibility (maintainers, admins)
export const GET = projectRoute({ access: "write" }, async ({ db, principal, slug }) => Response.json(await listMembers(db, principal, slug)));

// POST /api/v1/projects/:project/members — grant a role to an email or a group; 201 when new, 200 when it changed an existing grant
export const POST = projectRoute({ access: "write" }, async ({ db, principal, slug, readBody }) => {
  const { member, created } = await grantMember(db, principal, slug, await readBody(), { viaSession: false });
  return Response.json(member, { status: created ? 201 : 200 });
});

// Any other method: 405 in the error envelope, with Allow.
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
