import { randomUUID } from "node:crypto";
import { SHARE_PARAM } from "../domain/share";
import { FORMAT_NAMES } from "../domain/parsers/formats";
import { OIDC_CALLBACK_PATH } from "../services/access";
import { ServiceError, getLogger, recordRequest, recordUpload, runInRequestContext } from "../services/platform";
import type { RequestContext } from "../services/platform";
import { documentedPathTemplate } from "./openapi";
import { errorResponse } from "./errors";

/**
 * Every API request's bookkeeping, written once for every transport (REST routes through apiRoute, the
 * tRPC handler, the probes and /metrics): its request id (the caller's `X-Request-Id` when it is sane,
 * else a new one, returned in the `X-Request-Id` header of every answer), its duration in the request
 * histogram by route template (services/platform/metrics.ts), and one log line: method, route template,
 * path (without a share link), status, duration, request id and the caller's kind. Never a header, a
 * cookie or a token.
 */
export const REQUEST_ID_HEADER = "X-Request-Id";

/** An incoming request id is kept when it is at most 128 characters of [A-Za-z0-9._:-]; anything else is replaced. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(headers: Headers): string {
  const incoming = headers.get(REQUEST_ID_HEADER);
  return incoming !== null && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * The path and query as logged: the share link (`?share=`) left out, the rest as sent; on the identity
 * provider's callback only its `error` (a provider's refusal), never the one-time code or the state.
 */
export function loggedPath(url: URL): string {
  const params = new URLSearchParams(url.search);
  params.delete(SHARE_PARAM);
  if (url.pathname === OIDC_CALLBACK_PATH) {
    for (const name of [...params.keys()]) if (name !== "error") params.delete(name);
  }
  const query = params.toString();
  return `${url.pathname}${query === "" ? "" : `?${query}`}`;
}

/** The route template a route is counted under: a fixed string, or one told from the request (REST). */
type RouteTemplate = string | ((request: Request) => string);

/** Wraps a route handler with the request's id, duration, metric and log line. */
export function observed<Rest extends unknown[]>(
  route: RouteTemplate,
  handler: (request: Request, ...rest: Rest) => Promise<Response> | Response,
): (request: Request, ...rest: Rest) => Promise<Response> {
  return async (request, ...rest) => {
    const startedAt = performance.now();
    const context: RequestContext = { requestId: requestIdOf(request.headers), callerKind: "anonymous" };
    let response: Response;
    try {
      response = await runInRequestContext(context, () => handler(request, ...rest));
    } catch (error) {
      // Handlers answer their own errors (apiRoute's envelope); this is the last guard.
      getLogger().error({ err: error, requestId: context.requestId }, `${request.method} ${new URL(request.url).pathname} failed`);
      response = errorResponse(new ServiceError("internal", "Internal error"));
    }
    const durationMs = performance.now() - startedAt;
    const template = typeof route === "string" ? route : route(request);
    response = withHeader(response, REQUEST_ID_HEADER, context.requestId);
    recordRequest(template, request.method, response.status, durationMs / 1000);
    const line = {
      method: request.method,
      route: template,
      path: loggedPath(new URL(request.url)),
      status: response.status,
      durationMs: Math.round(durationMs * 10) / 10,
      requestId: context.requestId,
      caller: context.callerKind,
    };
    if (response.status >= 500) getLogger().error(line, "request");
    else getLogger().info(line, "request");
    return response;
  };
}

/** The response with one more header (a copy when its headers are immutable: a redirect's). */
function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/**
 * The REST route template a path falls under, as its folder names it (`/api/v1/projects/[project]/runs`),
 * from the paths the OpenAPI document lists (every route's); "unmatched" for a path no route serves.
 * Never the path itself: the metric's labels stay bounded.
 */
export function restRouteTemplate(pathname: string): string {
  return documentedPathTemplate(pathname)?.replace(/\{([^}]+)\}/g, "[$1]") ?? "unmatched";
}

/**
 * Counts the uploads a route refused (4xx, 5xx) in `benchtrack_uploads_total`, under the `?format=`
 * asked when it names one, else "unknown" (a refusal comes before detection). Stored and replayed
 * uploads are counted by the use case, which knows their format (services/ingest).
 */
export function countingRefusedUploads<Rest extends unknown[]>(
  handler: (request: Request, ...rest: Rest) => Promise<Response>,
): (request: Request, ...rest: Rest) => Promise<Response> {
  return async (request, ...rest) => {
    const response = await handler(request, ...rest);
    if (response.status >= 400) {
      const asked = new URL(request.url).searchParams.get("format");
      recordUpload(asked !== null && FORMAT_NAMES.includes(asked) ? asked : "unknown", "refused", response.status);
    }
    return response;
  };
}
