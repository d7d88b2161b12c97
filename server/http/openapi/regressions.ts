import { regressionListSchema, regressionSchema, regressionsQuerySchema, updateRegressionSchema } from "../../schemas/regressions";
import type { ApiResource } from "./building-blocks";
import {
  answer,
  errorResponses,
  jsonContent,
  pathParameter,
  projectParameter,
  queryParameters,
  ref,
  request,
  SECURITY_BEARER,
  SECURITY_READ,
} from "./building-blocks";

/** The regressions inbox: changes detected in each endpoint's history on the default branch. */
export const regressionsResource: ApiResource = {
  schemas: {
    Regression: answer(regressionSchema),
    RegressionList: answer(regressionListSchema),
    UpdateRegression: request(updateRegressionSchema),
  },
  paths: {
    "/api/v1/projects/{project}/regressions": {
      parameters: [projectParameter],
      get: {
        operationId: "listRegressions",
        tags: ["projects"],
        summary: "Detected regressions and improvements, newest first",
        security: SECURITY_READ,
        parameters: queryParameters(regressionsQuerySchema),
        responses: {
          "200": { description: "The regressions.", content: jsonContent(ref("schemas", "RegressionList")) },
          ...errorResponses("BadRequest", "Unauthorized", "NotFound"),
        },
      },
    },
    "/api/v1/projects/{project}/regressions/{id}": {
      parameters: [projectParameter, pathParameter("id", "The regression's id.")],
      patch: {
        operationId: "updateRegression",
        tags: ["projects"],
        summary: "Acknowledge, dismiss or reopen a regression (admin)",
        security: SECURITY_BEARER,
        requestBody: { required: true, content: jsonContent(ref("schemas", "UpdateRegression")) },
        responses: {
          "200": { description: "The regression.", content: jsonContent(ref("schemas", "Regression")) },
          ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "NotFound"),
        },
      },
    },
  },
};
