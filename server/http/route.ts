import { textProblem } from "../domain/parsers/validate";
import type { ErrorDetail } from "../services/errors";
import { ServiceError, toServiceError } from "../services/errors";
import { errorResponse } from "./errors";

/** Seconds a client should wait before retrying when the database is unavailable (503). */
const RETRY_AFTER_SECONDS = 5;

/**
 * Path and query values the database could never hold (a NUL character, a lone surrogate, as `%00` or
 * `%ED%A0%80` decode to): refused up front, with the parameter at fault, before any query sees them.
 */
function urlTextProblems(request: Request, params: unknown): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  for (const [name, value] of Object.entries((params ?? {}) as Record<string, unknown>)) {
    const problem = typeof value === "string" ? textProblem(value) : null;
    if (problem) problems.push({ path: `path.${name}`, message: problem });
  }
  for (const [name, value] of new URL(request.url).searchParams) {
    const problem = textProblem(name) ?? textProblem(value);
    if (problem) problems.push({ path: `query.${textProblem(name) ? "(name)" : name}`, message: problem });
  }
  return problems;
}

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
      const params = await context.params;
      const problems = urlTextProblems(request, params);
      if (problems.length > 0) throw new ServiceError("bad_request", `Invalid text at ${problems[0]!.path}: ${problems[0]!.message}`, problems);
      return await handler(request, params);
    } catch (error) {
      const serviceError = toServiceError(error);
      if (serviceError.code === "internal" || serviceError.code === "unavailable") {
        console.error(`${request.method} ${new URL(request.url).pathname} failed:`, error);
      }
      const retryAfter = serviceError.retryAfterSeconds ?? (serviceError.code === "unavailable" ? RETRY_AFTER_SECONDS : null);
      return errorResponse(serviceError, retryAfter === null ? undefined : { "Retry-After": String(retryAfter) });
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
