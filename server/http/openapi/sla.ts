import { slaPolicySchema } from "../../domain/sla/policy";
import { badgeQuerySchema } from "../../schemas/badges";
import type { ApiResource } from "./building-blocks";
import { operation, projectParameter, queryParameters, request, success } from "./building-blocks";

/** SLA policies and the project's badge (its SLA grade, or its CI gate). */
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
        summary: "Replace the SLA policy (its maintainers); an empty target list removes it. Runs are graded against the current policy.",
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
        summary: "SVG badge for a README: the SLA grade (kind=sla, the default) or the CI gate and open incidents (kind=gate) of the default branch",
        description:
          "kind=sla: \"SLA | A 100%\" for the latest run on the default branch (of any branch when it has none): \"no SLA\" without a policy, " +
          "\"no runs\" without a run. kind=gate: \"gate | pass\", \"gate | fail · 2 incidents\": the outcome the latest run on the default branch " +
          "stored at upload (green pass, red fail, amber inconclusive; grey \"unknown\" for a run stored before outcomes were kept, grey \"no runs\" " +
          "without one; never judged again) and the project's incidents still open (open or investigating), when there are any. Another `kind` is a " +
          "400 naming it. In a README: `![SLA](https://bench.example.com/api/v1/projects/<project>/badge.svg?kind=sla)` and " +
          "`![gate](https://bench.example.com/api/v1/projects/<project>/badge.svg?kind=gate)`.",
        security: "read",
        parameters: queryParameters(badgeQuerySchema),
        responses: { "200": { description: "The badge.", content: { "image/svg+xml": { schema: { type: "string" } } } } },
      }),
    },
  },
};
