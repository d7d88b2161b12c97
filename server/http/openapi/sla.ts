import { slaPolicySchema } from "../../domain/sla/policy";
import type { ApiResource } from "./building-blocks";
import { errorResponses, jsonContent, projectParameter, ref, request, SECURITY_BEARER, SECURITY_READ } from "./building-blocks";

/** SLA policies and the grade badge. */
export const slaResource: ApiResource = {
  schemas: { SlaPolicy: request(slaPolicySchema) },
  paths: {
    "/api/v1/projects/{project}/sla": {
      parameters: [projectParameter],
      get: {
        operationId: "getSlaPolicy",
        tags: ["projects"],
        summary: "The project's SLA policy ({ targets: [] } when it has none)",
        security: SECURITY_READ,
        responses: {
          "200": { description: "The policy.", content: jsonContent(ref("schemas", "SlaPolicy")) },
          ...errorResponses("Unauthorized", "NotFound"),
        },
      },
      put: {
        operationId: "putSlaPolicy",
        tags: ["projects"],
        summary: "Replace the SLA policy (admin); an empty target list removes it. Runs are graded against the current policy.",
        security: SECURITY_BEARER,
        requestBody: { required: true, content: jsonContent(ref("schemas", "SlaPolicy")) },
        responses: {
          "200": { description: "The stored policy.", content: jsonContent(ref("schemas", "SlaPolicy")) },
          ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "NotFound"),
        },
      },
    },
    "/api/v1/projects/{project}/badge.svg": {
      parameters: [projectParameter],
      get: {
        operationId: "getGradeBadge",
        tags: ["projects"],
        summary: "SVG badge with the SLA grade of the latest run on the default branch",
        security: SECURITY_READ,
        parameters: [{ name: "label", in: "query", required: false, description: "Only runs with this label.", schema: { type: "string" } }],
        responses: {
          "200": { description: "The badge.", content: { "image/svg+xml": { schema: { type: "string" } } } },
          ...errorResponses("Unauthorized", "NotFound"),
        },
      },
    },
  },
};
