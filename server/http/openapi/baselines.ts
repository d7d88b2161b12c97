import { baselineListSchema, baselinePinSchema, pinnedBaselineSchema } from "../../schemas/baselines";
import type { ApiResource } from "./building-blocks";
import { answer, errorResponses, jsonContent, projectParameter, ref, request, SECURITY_BEARER, SECURITY_READ } from "./building-blocks";

/** Pinned baselines: what a label's new runs are compared with. */
export const baselinesResource: ApiResource = {
  schemas: {
    BaselinePin: request(baselinePinSchema),
    PinnedBaseline: answer(pinnedBaselineSchema),
    BaselineList: answer(baselineListSchema),
  },
  paths: {
    "/api/v1/projects/{project}/baseline": {
      parameters: [projectParameter],
      get: {
        operationId: "listBaselinePins",
        tags: ["projects"],
        summary: "Pinned baselines (without one, a run is compared with its label's recent runs on the default branch)",
        security: SECURITY_READ,
        responses: {
          "200": { description: "The pins.", content: jsonContent(ref("schemas", "BaselineList")) },
          ...errorResponses("Unauthorized", "NotFound"),
        },
      },
      put: {
        operationId: "pinBaseline",
        tags: ["projects"],
        summary: "Pin runs or a label as the baseline of a label (admin)",
        security: SECURITY_BEARER,
        requestBody: { required: true, content: jsonContent(ref("schemas", "BaselinePin")) },
        responses: {
          "200": { description: "The pin.", content: jsonContent(ref("schemas", "PinnedBaseline")) },
          ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "NotFound"),
        },
      },
      delete: {
        operationId: "unpinBaseline",
        tags: ["projects"],
        summary: "Remove the pin of a label (?for_label=), or the pin for every label (admin)",
        security: SECURITY_BEARER,
        parameters: [{ name: "for_label", in: "query", required: false, schema: { type: "string" } }],
        responses: { "204": { description: "Removed." }, ...errorResponses("Unauthorized", "Forbidden", "NotFound") },
      },
    },
  },
};
