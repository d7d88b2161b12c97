import { errorEnvelopeSchema } from "../../schemas/errors";
import type { ApiResource } from "./building-blocks";
import { answer, jsonContent, operation } from "./building-blocks";

/** Machine-readable descriptions of the API, and the error envelope every error answer uses. */
export const metaResource: ApiResource = {
  schemas: { ErrorEnvelope: answer(errorEnvelopeSchema) },
  paths: {
    "/api/v1/openapi.json": {
      get: operation({
        operationId: "getOpenApiDocument",
        tag: "meta",
        summary: "This document",
        security: "none",
        responses: { "200": { description: "The OpenAPI 3.1 document.", content: jsonContent({ type: "object" }) } },
      }),
    },
    "/api/v1/schema/run.json": {
      get: operation({
        operationId: "getRunInputSchema",
        tag: "meta",
        summary: "JSON Schema of the Benchtrack JSON format v1",
        security: "none",
        responses: { "200": { description: "A JSON Schema (draft 2020-12).", content: jsonContent({ type: "object" }) } },
      }),
    },
    "/api/v1/schema/benchtrack.json": {
      get: operation({
        operationId: "getBudgetFileSchema",
        tag: "meta",
        summary: "JSON Schema of benchtrack.json, a repository's budget (SLA targets and gate settings as code)",
        security: "none",
        responses: { "200": { description: "A JSON Schema (draft 2020-12), for the file's $schema.", content: jsonContent({ type: "object" }) } },
      }),
    },
  },
};
