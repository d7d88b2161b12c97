import { errorEnvelopeSchema } from "../../schemas/errors";
import type { ApiResource } from "./building-blocks";
import { answer, jsonContent, SECURITY_NONE } from "./building-blocks";

/** Machine-readable descriptions of the API, and the error envelope every error answer uses. */
export const metaResource: ApiResource = {
  schemas: { ErrorEnvelope: answer(errorEnvelopeSchema) },
  paths: {
    "/api/v1/openapi.json": {
      get: {
        operationId: "getOpenApiDocument",
        tags: ["meta"],
        summary: "This document",
        security: SECURITY_NONE,
        responses: { "200": { description: "The OpenAPI 3.1 document.", content: jsonContent({ type: "object" }) } },
      },
    },
    "/api/v1/schema/run.json": {
      get: {
        operationId: "getRunInputSchema",
        tags: ["meta"],
        summary: "JSON Schema of the Benchtrack JSON format v1",
        security: SECURITY_NONE,
        responses: { "200": { description: "A JSON Schema (draft 2020-12).", content: jsonContent({ type: "object" }) } },
      },
    },
  },
};
