import { compareQuerySchema, comparisonResponseSchema } from "../../schemas/compare";
import type { ApiResource } from "./building-blocks";
import { answer, errorResponses, jsonContent, markdownContent, projectParameter, queryParameters, ref, SECURITY_READ } from "./building-blocks";

/** Comparisons: two run selections, before and after. Comparisons are URLs, not stored objects. */
export const compareResource: ApiResource = {
  schemas: { Comparison: answer(comparisonResponseSchema) },
  paths: {
    "/api/v1/projects/{project}/compare": {
      parameters: [projectParameter],
      get: {
        operationId: "compareRuns",
        tags: ["runs"],
        summary: "Compare two run selections (JSON, or a PR comment with Accept: text/markdown)",
        security: SECURITY_READ,
        parameters: queryParameters(compareQuerySchema),
        responses: {
          "200": { description: "The comparison.", content: { ...jsonContent(ref("schemas", "Comparison")), ...markdownContent } },
          ...errorResponses("BadRequest", "Unauthorized", "NotFound", "PayloadTooLarge"),
        },
      },
    },
  },
};
