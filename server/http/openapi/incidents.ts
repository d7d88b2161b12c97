import {
  alertPrecisionSchema,
  bulkUpdateIncidentsSchema,
  incidentListSchema,
  incidentSchema,
  incidentsQuerySchema,
  updateIncidentSchema,
} from "../../schemas/incidents";
import type { ApiResource } from "./building-blocks";
import { answer, operation, pathParameter, projectParameter, queryParameters, request, success } from "./building-blocks";

/** Incidents: the regressions one step opened, triaged as one (docs/incidents.md), and alert precision. */
export const incidentsResource: ApiResource = {
  schemas: {
    Incident: answer(incidentSchema),
    IncidentList: answer(incidentListSchema),
    UpdateIncident: request(updateIncidentSchema),
    BulkUpdateIncidents: request(bulkUpdateIncidentsSchema),
    AlertPrecision: answer(alertPrecisionSchema),
  },
  paths: {
    "/api/v1/projects/{project}/incidents": {
      parameters: [projectParameter],
      get: operation({
        operationId: "listIncidents",
        tag: "projects",
        summary: "Incidents, newest first, with their regressions",
        security: "read",
        parameters: queryParameters(incidentsQuerySchema),
        responses: { "200": success("The incidents.", "IncidentList") },
      }),
      patch: operation({
        operationId: "updateIncidents",
        tag: "projects",
        summary: "The same change to many incidents at once (the triage action: triagers, tokens with the triage scope)",
        security: "token",
        body: "BulkUpdateIncidents",
        responses: { "200": success("The incidents, in the order given.", "IncidentList") },
      }),
    },
    "/api/v1/projects/{project}/incidents/precision": {
      parameters: [projectParameter],
      get: operation({
        operationId: "getAlertPrecision",
        tag: "projects",
        summary: "Alert precision: closed incidents, valid against invalid, per detector version and month",
        security: "read",
        responses: { "200": success("The alert precision.", "AlertPrecision") },
      }),
    },
    "/api/v1/projects/{project}/incidents/{number}": {
      parameters: [projectParameter, pathParameter("number", "The incident's number within the project.")],
      get: operation({
        operationId: "getIncident",
        tag: "projects",
        summary: "One incident with its regressions and history",
        security: "read",
        responses: { "200": success("The incident.", "Incident") },
      }),
      patch: operation({
        operationId: "updateIncident",
        tag: "projects",
        summary: "Change an incident's state, note or links (the triage action: triagers, tokens with the triage scope)",
        security: "token",
        body: "UpdateIncident",
        responses: { "200": success("The incident.", "Incident") },
      }),
    },
  },
};
