import { baselineListSchema, baselinePinSchema, pinnedBaselineSchema } from "../../schemas/baselines";
import type { ApiResource } from "./building-blocks";
import { answer, operation, projectParameter, request, success } from "./building-blocks";

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
      get: operation({
        operationId: "listBaselinePins",
        tag: "projects",
        summary: "Pinned baselines (without one, a run is compared with its label's recent runs on the default branch)",
        security: "read",
        responses: { "200": success("The pins.", "BaselineList") },
      }),
      put: operation({
        operationId: "pinBaseline",
        tag: "projects",
        summary: "Pin runs or a label as the baseline of a label (its maintainers)",
        security: "token",
        body: "BaselinePin",
        responses: { "200": success("The pin.", "PinnedBaseline") },
      }),
      delete: operation({
        operationId: "unpinBaseline",
        tag: "projects",
        summary: "Remove the pin of a label (?for_label=), or the pin for every label (its maintainers)",
        security: "token",
        parameters: [{ name: "for_label", in: "query", required: false, schema: { type: "string" } }],
        responses: { "204": success("Removed.") },
      }),
    },
  },
};
