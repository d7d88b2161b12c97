import { compareQuerySchema, comparisonResponseSchema } from "../../schemas/compare";
import type { ApiResource } from "./building-blocks";
import { answer, operation, projectParameter, queryParameters, success } from "./building-blocks";

/** Comparisons: two run selections, before and after. Comparisons are URLs, not stored objects. */
export const compareResource: ApiResource = {
  schemas: { Comparison: answer(comparisonResponseSchema) },
  paths: {
    "/api/v1/projects/{project}/compare": {
      parameters: [projectParameter],
      get: operation({
        operationId: "compareRuns",
        tag: "runs",
        summary: "Compare two run selections (JSON, or a PR comment with Accept: text/markdown)",
        security: "read",
        parameters: queryParameters(compareQuerySchema),
        responses: { "200": success("The comparison.", "Comparison", { markdown: true }) },
        errors: ["BadRequest", "Unauthorized", "Forbidden", "NotFound", "PayloadTooLarge"],
      }),
    },
  },
};
