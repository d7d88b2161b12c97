import { ServiceError, toServiceError } from "../services/errors";
import { errorResponse } from "./errors";

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
      const serviceError = toServiceError(error);
      if (serviceError.code === "internal" || serviceError.code === "unavailable") {
        console.error(`${request.method} ${new URL(request.url).pathname} failed:`, error);
      }
      return errorResponse(serviceError);
    }
  };
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
    throw new ServiceError("bad_request", "The body must be JSON", [{ path: "body", message: "not valid JSON" }]);
  }
}


/**
 * An answer that is JSON by default and Markdown (for a PR comment) when the client asks for
 * `Accept: text/markdown` (or, where a link must say it, `?format=markdown`: `wantsMarkdown`), as the
 * upload, verdict and compare endpoints give it.
 */
export function jsonOrMarkdown(
  request: Request,
  answer: { json: unknown; markdown: () => string },
  status = 200,
  wantsMarkdown = false,
): Response {
  if (wantsMarkdown || /text\/markdown/i.test(request.headers.get("accept") ?? "")) {
    return new Response(answer.markdown(), { status, headers: { "Content-Type": "text/markdown; charset=utf-8" } });
  }
  return Response.json(answer.json, { status });
}
