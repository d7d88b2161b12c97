import { accessRoute, otherMethods } from "@/server/http/route";
import { listUsers } from "@/server/services/members";

// GET /api/v1/users — everyone who signed in, most recent sign-in first (server admins)
export const GET = accessRoute({ access: "admin" }, async ({ db, principal }) => Response.json(await listUsers(db, principal)));

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
