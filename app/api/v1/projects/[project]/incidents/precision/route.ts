import { otherMethods, projectRoute } from "@/server/http/route";
import { getAlertPrecision } from "@/server/services/incidents";

// GET /api/v1/projects/:project/incidents/precision — alert precision: closed incidents, valid against invalid
export const GET = projectRoute({ access: "read" }, async ({ db, slug }) => Response.json(await getAlertPrecision(db, slug)));

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
