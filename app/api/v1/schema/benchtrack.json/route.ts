import { buildBudgetJsonSchema } from "@/server/http/openapi";
import { apiRoute, otherMethods } from "@/server/http/route";
import { publicBaseUrl } from "@/server/public-url";

// GET /api/v1/schema/benchtrack.json — JSON Schema of benchtrack.json, a repository's budget (the file's $schema)
export const GET = apiRoute(async (request) =>
  Response.json(buildBudgetJsonSchema(`${publicBaseUrl(request.headers)}/api/v1/schema/benchtrack.json`), {
    headers: { "Cache-Control": "public, max-age=300" },
  }),
);

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
