import { otherMethods, projectRoute } from "@/server/http/route";
import { removeMember, updateMember } from "@/server/services/members";

type Params = { project: string; id: string };

// PATCH /api/v1/projects/:project/members/:id — change a grant's role (maintainers, admins)
export const PATCH = projectRoute<Params, "write">({ access: "write" }, async ({ db, principal, slug, params, readBody }) =>
  Response.json(await updateMember(db, principal, slug, params.id, await readBody(), { viaSession: false })),
);

// DELETE /api/v1/projects/:project/members/:id — remove a grant (maintainers, admins)
export const DELETE = projectRoute<Params, "write">({ access: "write" }, async ({ db, principal, slug, params }) => {
  await removeMember(db, principal, slug, params.id, { viaSession: false });
  return new Response(null, { status: 204 });
});

// Any other method: 405 in the error envelope, with Allow.
export const { GET, POST, PUT } = otherMethods("PATCH", "DELETE");
