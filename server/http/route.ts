import type { PrismaClient } from "../generated/prisma/client";
import { findProject } from "../services/projects";
import { ApiError, errorResponse, toApiError } from "./errors";

type RouteContext<Params> = { params: Promise<Params> };

/**
 * Wraps a REST route handler: every error leaves as the JSON envelope with its status; unexpected
 * errors are logged (message and stack only: requests may carry secrets) and answered with a 500.
 */
export function apiRoute<Params = Record<string, never>>(
  handler: (request: Request, params: Params) => Promise<Response>,
) {
  return async (request: Request, context: RouteContext<Params>): Promise<Response> => {
    try {
      return await handler(request, await context.params);
    } catch (error) {
      const apiError = toApiError(error);
      if (apiError.code === "internal" || apiError.code === "unavailable") {
        console.error(`${request.method} ${new URL(request.url).pathname} failed:`, error);
      }
      return errorResponse(apiError);
    }
  };
}

export function notFound(what: string): ApiError {
  return new ApiError("not_found", `${what} not found`);
}

/**
 * The request body as JSON, or a 400 naming the body. `emptyAs` is what an empty body means (e.g. {}
 * for "all defaults"); without it an empty body is malformed.
 */
export async function readJsonBody(request: Request, emptyAs?: unknown): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === "" && emptyAs !== undefined) return emptyAs;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError("bad_request", "The body must be JSON", [{ path: "body", message: "not valid JSON" }]);
  }
}

/** The project a REST route is about, or the 404 every route answers for an unknown one. */
export async function requireProject(db: PrismaClient, slug: string) {
  const project = await findProject(db, slug);
  if (!project) throw notFound(`Project "${slug}"`);
  return project;
}
