import { otherMethods, projectRoute } from "@/server/http/route";
import { getProjectSettings, updateProjectSettings } from "@/server/services/projects";

// GET /api/v1/projects/:project — the project and its settings
export const GET = projectRoute({ access: "read" }, async ({ db, slug }) => Response.json(await getProjectSettings(db, slug)));

// PATCH /api/v1/projects/:project — change settings (admin)
export const PATCH = projectRoute({ access: "write" }, async ({ db, principal, slug, readBody }) =>
  Response.json(await updateProjectSettings(db, principal, slug, await readBody())),
);

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, DELETE } = otherMethods("GET", "PATCH");
