import { accessRoute, otherMethods } from "@/server/http/route";
import { updateUser } from "@/server/services/members";

// PATCH /api/v1/users/:id — make or unmake a server admin, disable or enable a person (server admins)
export const PATCH = accessRoute<"admin", { id: string }>({ access: "admin" }, async ({ db, principal, params, readBody }) =>
  Response.json(await updateUser(db, principal, params.id, await readBody(), { viaSession: false })),
);

// Any other method: 405 in the error envelope, with Allow.
export const { GET, POST, PUT, DELETE } = otherMethods("PATCH");
