import { otherMethods, projectRoute } from "@/server/http/route";
import { deleteProject } from "@/server/services/deletion";
import { getProjectSettings, updateProjectSettings } from "@/server/services/projects";

// GET /api/v1/projects/:project — the project and its settings
export const GET = projectRoute({ access: "read" }, async ({ db, slug }) => Response.json(await getProjectSettings(db, slug)));

// PATCH /api/v1/projects/:project — change settings (its maintainers)
export const PATCH = projectRoute({ access: "write" }, async ({ db, principal, slug, readBody }) =>
  Response.json(await updateProjectSettings(db, principal, slug, await readBody())),
);

// DELETE /api/v1/projects/:project — delete the project and everything of it (its maintainers); 200 with what went
export const DELETE = projectRoute({ access: "write" }, async ({ db, principal, slug }) =>
  Response.json(await deleteProject(db, principal, slug, { viaSession: false })),
);

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT } = otherMethods("GET", "PATCH", "DELETE");
