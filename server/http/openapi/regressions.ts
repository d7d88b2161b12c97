import { regressionListSchema, regressionSchema, regressionsQuerySchema, updateRegressionSchema } from "../../schemas/regressions";
import type { ApiResource } from "./building-blocks";
import { answer, operation, pathParameter, projectParameter, queryParameters, request, success } from "./building-blocks";

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
      get: operation({
        operationId: "listRegressions",
        tag: "projects",
        summary: "Detected regressions and improvements, newest first",
        security: "read",
        parameters: queryParameters(regressionsQuerySchema),
        responses: { "200": success("The regressions.", "RegressionList") },
      }),
    },
    "/api/v1/projects/{project}/regressions/{id}": {
      parameters: [projectParameter, pathParameter("id", "The regression's id.")],
      patch: operation({
        operationId: "updateRegression",
        tag: "projects",
        summary: "Acknowledge, dismiss or reopen a regression (the triage action)",
        security: "token",
        body: "UpdateRegression",
        responses: { "200": success("The regression.", "Regression") },
      }),
    },
  },
};
