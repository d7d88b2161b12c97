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
