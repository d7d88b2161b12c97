import type { z } from "zod";
import type { ReadDb } from "../db";
import { getDatabase } from "../db";
import { textProblem, textProblems } from "../domain/parsers/validate";
import type { PrismaClient } from "../generated/prisma/client";
import { publicBaseUrl } from "../public-url";
import { parseProjectSlug } from "../schemas/projects";
import type { Principal, ReadTarget, ShareRead } from "../services/access";
import { shareReadTarget } from "../services/access";
import type { ErrorDetail } from "../services/platform";
import { ServiceError, getLogger, noteCaller, toServiceError } from "../services/platform";
import { chooseReader, currentWalPosition, readWithPrimaryFallback, walPositionHeaders, walPositionOf } from "../services/platform";
import type { RouteAccess } from "./auth";
import { admit } from "./auth";
import { readLimitedText } from "./body-limit";
import { errorResponse } from "./errors";
import { observed, restRouteTemplate } from "./observe";

/**
 * The largest JSON body a route reads unless it says otherwise (`maxBodyBytes`): settings, a triage
 * change, a token's name are a few hundred bytes; 64 KiB is far beyond any of them.
 */
export const DEFAULT_MAX_JSON_BODY_BYTES = 64 * 1024;

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

const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * Handlers for the methods a route does not serve, so that they too answer the error envelope (405,
 * with `Allow`) rather than Next's empty 405. A route exports the ones it lacks:
 * `export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");` — listing one it serves is a
 * type error (two exports of one name), and routes.test.ts checks every route exports all five.
 */
export function otherMethods(...allowed: HttpMethod[]): Record<HttpMethod, (request: Request) => Promise<Response>> {
  const allow = [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : [])].join(", ");
  const refuse = observed((request) => restRouteTemplate(new URL(request.url).pathname), (request: Request) =>
    errorResponse(
      new ServiceError("method_not_allowed", `${request.method} is not allowed here; use ${allowed.join(" or ")}`, [
        { path: "method", message: `allowed: ${allow}` },
      ]),
      { Allow: allow },
    ),
  );
  return Object.fromEntries(HTTP_METHODS.map((method) => [method, refuse])) as Record<HttpMethod, (request: Request) => Promise<Response>>;
}

/**
 * Wraps a REST route handler: every error leaves as the JSON envelope with its status; unexpected
 * errors are logged (message and stack only: requests may carry secrets) and answered with a 500. A
 * request the client abandoned is logged as one info line, not as an error. Every request gets its id,
 * its log line and its place in the request histogram (observe.ts).
 */
export function apiRoute<Params = Record<string, never>>(
  handler: (request: Request, params: Params) => Promise<Response>,
) {
  return observed((request) => restRouteTemplate(new URL(request.url).pathname), async (request: Request, context: RouteContext<Params>): Promise<Response> => {
    const startedAt = performance.now();
    try {
      const params = await context.params;
      const problems = urlTextProblems(request, params);
      if (problems.length > 0) throw new ServiceError("bad_request", `Invalid text at ${problems[0]!.path}: ${problems[0]!.message}`, problems);
      return await handler(request, params);
    } catch (error) {
      if (request.signal.aborted) {
        // Not a failure of ours: one line, no stack. Nobody reads the answer.
        getLogger().info(
          { method: request.method, path: new URL(request.url).pathname, afterMs: Math.round(performance.now() - startedAt) },
          "the client went away; the request was dropped",
        );
        return errorResponse(new ServiceError("bad_request", "The client closed the request", [{ path: "body", message: "aborted" }]));
      }
      const serviceError = toServiceError(error);
      if (serviceError.code === "internal" || serviceError.code === "unavailable") {
        getLogger().error({ err: error, method: request.method, path: new URL(request.url).pathname }, `request failed (${serviceError.code})`);
      }
      const retryAfter = serviceError.retryAfterSeconds ?? (serviceError.code === "unavailable" ? RETRY_AFTER_SECONDS : null);
      const headers: Record<string, string> = retryAfter === null ? {} : { "Retry-After": String(retryAfter) };
      // A body refused part-way is left unread on its connection: closed, so no client reuses it for its next request.
      if (serviceError.code === "payload_too_large") headers.Connection = "close";
      return errorResponse(serviceError, headers);
    }
  });
}

/**
 * The database a handler is handed: a read route ("read" access) gets a reader (a ReadDb: a replica when
 * DATABASE_READ_URL names some, services/platform/read-replicas.ts), every other route the primary.
 */
type RouteDb<Access extends RouteAccess> = Access extends "read" ? ReadDb : PrismaClient;

/** What a route handler is handed once its caller is admitted: the request, and what every handler reads from it. */
interface RouteCall<Params, Access extends RouteAccess = RouteAccess> {
  request: Request;
  params: Params;
  db: RouteDb<Access>;
  /** The primary, whatever `db` is: for a read whose answer stores something (a verdict's share links). */
  primary: PrismaClient;
  /** Who is calling (anonymous for a read of a public project: no lookup): services that authorize take it. */
  principal: Principal;
  searchParams: URLSearchParams;
  /** The query string as `schema` reads it (a 400 naming the parameter at fault otherwise). */
  readQuery: <T>(schema: z.ZodType<T>) => T;
  /** The body as JSON (readJsonBody). */
  readBody: (emptyAs?: unknown) => Promise<unknown>;
  /** The public base URL for the links an answer hands out (server/public-url.ts). */
  baseUrl: string;
}

/** A project's route: its slug (from the path, validated) comes with the call. */
interface ProjectRouteCall<Params, Access extends RouteAccess> extends RouteCall<Params, Access> {
  slug: string;
}

interface RouteOptions<Access extends RouteAccess> {
  access: Access;
  /** The largest JSON body the route reads (DEFAULT_MAX_JSON_BODY_BYTES): larger ones are refused as they stream (413). */
  maxBodyBytes?: number;
}

interface ProjectRouteOptions<Access extends RouteAccess> extends RouteOptions<Access> {
  /** The one read a share link may open here (services/access/auth.ts:shareReadTarget), from the path and query. */
  share?: ShareRead;
}

/**
 * Admits the caller (on the primary: rate limits and failed authentications are counted there) and runs
 * the handler with its database. A read route reads from a reader chosen for the request's WAL position
 * (the caller's own last write) and is run again on the primary when it misses there; a write's answer
 * (2xx) carries the WAL position it left, so the writer's next reads see it (services/platform/read-replicas.ts).
 */
async function runAdmitted<Params, Access extends RouteAccess>(
  request: Request,
  params: Params,
  { access, maxBodyBytes = DEFAULT_MAX_JSON_BODY_BYTES }: RouteOptions<Access>,
  slug: string | null,
  target: ReadTarget | undefined,
  handler: (call: RouteCall<Params, Access>) => Promise<Response>,
): Promise<Response> {
  const database = await getDatabase();
  const principal = await admit(request, database.prisma, access, slug, target);
  noteCaller(principal, request.headers.has("authorization"));
  const searchParams = new URL(request.url).searchParams;
  const callWith = (db: ReadDb | PrismaClient) =>
    handler({
      request,
      params,
      db: db as RouteDb<Access>,
      primary: database.prisma,
      principal,
      searchParams,
      readQuery: (schema) => schema.parse(Object.fromEntries(searchParams)),
      readBody: (emptyAs) => readJsonBody(request, emptyAs, maxBodyBytes),
      baseUrl: publicBaseUrl(request.headers),
    });
  if (access === "read") {
    return readWithPrimaryFallback(database, await chooseReader(database, walPositionOf(request.headers)), callWith);
  }
  const response = await callWith(database.prisma);
  if (request.method === "GET" || response.status >= 300) return response;
  const position = await currentWalPosition(database);
  if (position === null) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(walPositionHeaders(position))) headers.append(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** A REST route outside any project (the project list): apiRoute's error envelope, the caller admitted before the handler runs. */
export function accessRoute<Access extends RouteAccess, Params = Record<string, never>>(
  options: RouteOptions<Access>,
  handler: (call: RouteCall<Params, Access>) => Promise<Response>,
) {
  return apiRoute<Params>(async (request, params) => runAdmitted(request, params, options, null, undefined, handler));
}

/**
 * A project's REST route, the preamble every one of them shares written once: the `project` path
 * parameter validated as a slug (a 400 before any query), the database (a reader for "read" access),
 * and the caller admitted by `access` (auth.ts:admit); a share link opens only the read that `share`
 * names. The handler then validates its input, calls one service and answers; errors leave as
 * apiRoute's envelope. Routes that name their Params name their access too:
 * `projectRoute<{ project: string; id: string }, "read">`.
 */
export function projectRoute<Params extends { project: string } = { project: string }, Access extends RouteAccess = RouteAccess>(
  options: ProjectRouteOptions<Access>,
  handler: (call: ProjectRouteCall<Params, Access>) => Promise<Response>,
) {
  return apiRoute<Params>(async (request, params) => {
    const slug = parseProjectSlug(params.project);
    const fields: Record<string, string | undefined> = { ...params, project: slug };
    const target = shareReadTarget(options.share, (name) => fields[name] ?? new URL(request.url).searchParams.get(name));
    return runAdmitted(request, params, options, slug, target, (call) => handler({ ...call, slug }));
  });
}

/**
 * The request body as JSON, or a 400 naming the body. `emptyAs` is what an empty body means (e.g. {}
 * for "all defaults"); without it an empty body is malformed. The body is read with a cap (413 past
 * `maxBytes`, as it streams: never held whole), must be UTF-8, and its text follows the rules tRPC
 * input follows (no NUL, no lone surrogate: a 400 naming the path), so both transports store the same.
 */
export async function readJsonBody(request: Request, emptyAs?: unknown, maxBytes = DEFAULT_MAX_JSON_BODY_BYTES): Promise<unknown> {
  const text = await readLimitedText(request, maxBytes);
  if (text.trim() === "" && emptyAs !== undefined) return emptyAs;
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw new ServiceError("bad_request", "The body must be JSON", [{ path: "body", message: "not valid JSON" }]);
  }
  const problems = [...textProblems(value, "body")].slice(0, 20);
  if (problems.length > 0) throw new ServiceError("bad_request", `Invalid text at ${problems[0]!.path}: ${problems[0]!.message}`, problems);
  return value;
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
