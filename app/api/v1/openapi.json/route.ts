import { buildOpenApiDocument } from "@/server/http/openapi";
import { apiRoute } from "@/server/http/route";
import { publicBaseUrl } from "@/server/public-url";

// GET /api/v1/openapi.json — the OpenAPI document, generated from the routes' Zod schemas
export const GET = apiRoute(async (request) =>
  Response.json(buildOpenApiDocument(publicBaseUrl(request.headers)), {
    headers: { "Cache-Control": "public, max-age=300" },
  }),
);
