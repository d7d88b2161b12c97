import { buildOpenApiDocument } from "@/server/http/openapi";
import { apiRoute, otherMethods } from "@/server/http/route";
import { publicBaseUrl } from "@/server/public-url";

// GET /api/v1/openapi.json — the OpenAPI document, generated from the routes' Zod schemas
export const GET = apiRoute(async (request) =>
  Response.json(buildOpenApiDocument(publicBaseUrl(request.headers)), {
    headers: { "Cache-Control": "public, max-age=300" },
  }),
);

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
