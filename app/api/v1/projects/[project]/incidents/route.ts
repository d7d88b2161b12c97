import { otherMethods, projectRoute } from "@/server/http/route";
import { bulkUpdateIncidentsSchema, incidentsQuerySchema } from "@/server/schemas/incidents";
import { listIncidents, toIncidentJson, updateIncidents } from "@/server/services/incidents";

// GET /api/v1/projects/:project/incidents?state=active|closed|all|<state> — incidents, newest first, with their regressions
export const GET = projectRoute({ access: "read" }, async ({ db, slug, readQuery, baseUrl }) => {
  const { incidents } = await listIncidents(db, slug, readQuery(incidentsQuerySchema).state);
  return Response.json(incidents.map((incident) => toIncidentJson(incident, slug, baseUrl)));
});

// PATCH /api/v1/projects/:project/incidents — the same change to many incidents at once (the "triage" action: docs/access.md)
export const PATCH = projectRoute({ access: "write" }, async ({ db, principal, slug, readBody, baseUrl }) => {
  const { numbers, by, ...change } = bulkUpdateIncidentsSchema.parse(await readBody());
  const { incidents } = await updateIncidents(db, principal, slug, numbers, change, { viaSession: false, name: by }, { baseUrl });
  return Response.json(incidents.map((incident) => toIncidentJson(incident, slug, baseUrl)));
});

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, DELETE } = otherMethods("GET", "PATCH");
