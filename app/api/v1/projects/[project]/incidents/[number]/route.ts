import { otherMethods, projectRoute } from "@/server/http/route";
import { incidentPathSchema, updateIncidentSchema } from "@/server/schemas/incidents";
import { getIncident, toIncidentJson, updateIncidents } from "@/server/services/incidents";

// GET /api/v1/projects/:project/incidents/:number — one incident with its regressions and its history
export const GET = projectRoute<{ project: string; number: string }, "read">({ access: "read" }, async ({ db, slug, params, baseUrl }) => {
  const { incident } = await getIncident(db, slug, incidentPathSchema.parse(params).number);
  return Response.json(toIncidentJson(incident, slug, baseUrl));
});

// PATCH /api/v1/projects/:project/incidents/:number — its state, note or links (the "triage" action: docs/access.md)
export const PATCH = projectRoute<{ project: string; number: string }, "write">({ access: "write" }, async ({ db, principal, slug, params, readBody, baseUrl }) => {
  const { number } = incidentPathSchema.parse(params);
  const { by, ...change } = updateIncidentSchema.parse(await readBody());
  await updateIncidents(db, principal, slug, [number], change, { viaSession: false, name: by }, { baseUrl });
  const { incident } = await getIncident(db, slug, number);
  return Response.json(toIncidentJson(incident, slug, baseUrl));
});

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, DELETE } = otherMethods("GET", "PATCH");
