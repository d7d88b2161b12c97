import { slaPolicySchema } from "../../domain/sla/policy";
import type { ApiResource } from "./building-blocks";
import { operation, projectParameter, request, success } from "./building-blocks";

/** SLA policies and the grade badge. */
export const slaResource: ApiResource = {
  schemas: { SlaPolicy: request(slaPolicySchema) },
  paths: {
    "/api/v1/projects/{project}/sla": {
      parameters: [projectParameter],
      get: operation({
        operationId: "getSlaPolicy",
        tag: "projects",
        summary: "The project's SLA policy ({ targets: [] } when it has none)",
        security: "read",
        responses: { "200": success("The policy.", "SlaPolicy") },
      }),
      put: operation({
        operationId: "putSlaPolicy",
        tag: "projects",
        summary: "Replace the SLA policy (admin); an empty target list removes it. Runs are graded against the current policy.",
        security: "token",
        body: "SlaPolicy",
        responses: { "200": success("The stored policy.", "SlaPolicy") },
      }),
    },
    "/api/v1/projects/{project}/badge.svg": {
      parameters: [projectParameter],
      get: operation({
        operationId: "getGradeBadge",
        tag: "projects",
        summary: "SVG badge with the SLA grade of the latest run on the default branch",
        security: "read",
        parameters: [{ name: "label", in: "query", required: false, description: "Only runs with this label.", schema: { type: "string" } }],
        responses: { "200": { description: "The badge.", content: { "image/svg+xml": { schema: { type: "string" } } } } },
      }),
    },
  },
};
