import { buildRunInputJsonSchema } from "@/server/http/openapi";
import { apiRoute, otherMethods } from "@/server/http/route";
import { publicBaseUrl } from "@/server/public-url";

// GET /api/v1/schema/run.json — JSON Schema of the Benchtrack JSON format v1 (what custom tools upload)
export const GET = apiRoute(async (request) =>
  Response.json(buildRunInputJsonSchema(`${publicBaseUrl(request.headers)}/api/v1/schema/run.json`), {
    headers: { "Cache-Control": "public, max-age=300" },
  }),
);

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
