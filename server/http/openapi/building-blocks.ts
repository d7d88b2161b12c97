import type { z } from "zod";
import type { ErrorCode } from "../../schemas/errors";
import { projectSlugSchema } from "../../schemas/projects";
import { HTTP_STATUS } from "../errors";
import type { JsonSchema } from "./json-schema";
import { toJsonSchema } from "./json-schema";

/**
 * What every resource's part of the OpenAPI document is made of: references, JSON content, the error
 * answers, the security requirements and the path parameters shared by many operations.
 */

/** A resource's share of the document: its paths, and the named schemas and parameters they refer to. */
export interface ApiResource {
  paths: Record<string, Record<string, unknown>>;
  /** Named component schemas: the Zod schema and whether it describes a request (input) or an answer (output). */
  schemas: Record<string, { schema: z.ZodType; io: "input" | "output" }>;
  parameters?: Record<string, JsonSchema>;
}

export const ref = (kind: "schemas" | "parameters" | "responses", name: string) => ({ $ref: `#/components/${kind}/${name}` });
export const jsonContent = (schema: JsonSchema) => ({ "application/json": { schema } });
export const markdownContent = { "text/markdown": { schema: { type: "string", description: "A pull-request comment." } } };
export const request = (schema: z.ZodType) => ({ schema, io: "input" as const });
export const answer = (schema: z.ZodType) => ({ schema, io: "output" as const });

/** The error answers, by OpenAPI response name: their code, status and when they happen (also shown on /docs/api). */
export const ERROR_RESPONSES = {
  BadRequest: {
    code: "bad_request",
    description: "Malformed input; the details point at the JSON path, CSV line or parameter at fault.",
  },
  Unauthorized: { code: "unauthorized", description: "No token, or an unknown, revoked or expired one (an expired token is told so)." },
  Forbidden: {
    code: "forbidden",
    description:
      "The token may not do this (a token of another project, a token whose scopes do not open it, a person whose role does not: docs/access.md), or a share link does not open this read (it opens its comparison with its runs, or its run).",
  },
  NotFound: { code: "not_found", description: "No such project, run, file or token." },
  Conflict: {
    code: "conflict",
    description:
      "Conflict: the Idempotency-Key was used with a different body or other metadata (label, branch…), the project exists, or a live token of the project has that name.",
  },
  PayloadTooLarge: {
    code: "payload_too_large",
    description:
      "An upload larger than BENCHTRACK_MAX_BODY_BYTES, or decompressed larger than the limits; a JSON body larger than its route's limit (64 KiB; 1 MiB for an SLA policy).",
  },
  UnsupportedMediaType: { code: "unsupported_media_type", description: "Unknown ?format= name or unsupported Content-Encoding." },
  Unprocessable: {
    code: "unprocessable",
    description: "The format could not be detected, or the content is not the format given.",
  },
  TooManyRequests: {
    code: "too_many_requests",
    description: "Over a rate limit (uploads per token or address, failed authentications, reads); retry after the Retry-After header's seconds.",
  },
  Unavailable: {
    code: "unavailable",
    description: "The database is unavailable, or the request's transaction was rolled back for a concurrent one (nothing was stored); retry after the Retry-After header's seconds (uploads with the same Idempotency-Key).",
  },
} as const satisfies Record<string, { code: ErrorCode; description: string }>;

export type ErrorResponseName = keyof typeof ERROR_RESPONSES;

/** The error answers as a table: status, code, when. */
export function errorAnswerRows(): { status: number; code: ErrorCode; description: string }[] {
  return Object.values(ERROR_RESPONSES).map(({ code, description }) => ({ status: HTTP_STATUS[code], code, description }));
}

/**
 * An operation's error answers: those named, plus those every route may give — 400 for a path or
 * query value holding text no database can store (a NUL character, a lone surrogate), 429 over a rate
 * limit, and 503 when the database is unavailable or a transaction was rolled back for a concurrent one.
 */
export function errorResponses(...names: ErrorResponseName[]): Record<string, unknown> {
  const all = [...new Set<ErrorResponseName>(["BadRequest", ...names, "TooManyRequests", "Unavailable"])];
  return Object.fromEntries(all.map((name) => [String(HTTP_STATUS[ERROR_RESPONSES[name].code]), ref("responses", name)]));
}

/** One query parameter per property of an object schema (its JSON Schema property, description and all). */
export function queryParameters(schema: z.ZodType): JsonSchema[] {
  const jsonSchema = toJsonSchema(schema, "input");
  const properties = (jsonSchema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((jsonSchema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: "query",
      required: required.has(name),
      ...(typeof description === "string" && { description }),
      schema: rest,
    };
  });
}

/** Who may call an operation: "token", a bearer token; "read", anyone unless BENCHTRACK_READ_TOKEN is set; "none", anyone. */
const SECURITY = {
  token: [{ bearerAuth: [] }],
  read: [{}, { bearerAuth: [] }],
  none: [{}],
} as const;

const DEFAULT_ERRORS: Record<keyof typeof SECURITY, ErrorResponseName[] | null> = {
  // Forbidden: on a private server, a share link outside its comparison or run.
  read: ["Unauthorized", "Forbidden", "NotFound"],
  token: ["Unauthorized", "Forbidden", "NotFound"],
  none: null,
};

/** A success answer: its description and, when it has a body, the named component schema it follows (as Markdown too with `markdown`). */
export function success(description: string, schemaName?: string, { markdown = false } = {}) {
  if (schemaName === undefined) return { description };
  return { description, content: { ...jsonContent(ref("schemas", schemaName)), ...(markdown && markdownContent) } };
}

/** What one operation of a resource says; `operation` adds what they all share. */
export interface OperationSpec {
  operationId: string;
  tag: "projects" | "runs" | "tokens" | "access" | "meta" | "operations";
  summary: string;
  description?: string;
  security: keyof typeof SECURITY;
  parameters?: unknown[];
  /** The JSON request body, by component schema name (`required: false` where an empty body means the defaults). */
  body?: string | { schema: string; required: false };
  /** A request body of several media types, as it stands (instead of `body`). */
  requestBody?: Record<string, unknown>;
  /** The success answers, by status (`success(…)`, or a content of its own). */
  responses: Record<string, unknown>;
  /**
   * The error answers it may give besides those every route may (errorResponses); absent: those of a
   * project's operation under its security ("read" and "token": Unauthorized, Forbidden and NotFound;
   * "none", the static documents: no error answer at all).
   */
  errors?: ErrorResponseName[];
}

/** One operation of the document, from its spec: tags, security, request body and error answers spelled out. */
export function operation(spec: OperationSpec): Record<string, unknown> {
  const body = typeof spec.body === "string" ? { schema: spec.body, required: true } : spec.body;
  const named = spec.errors ?? DEFAULT_ERRORS[spec.security];
  // Every JSON body is read with a cap (server/http/route.ts): past it, 413.
  const errors = named !== null && body !== undefined ? [...named, "PayloadTooLarge" as const] : named;
  return {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    ...(spec.description !== undefined && { description: spec.description }),
    security: SECURITY[spec.security],
    ...(spec.parameters !== undefined && { parameters: spec.parameters }),
    ...(body !== undefined && { requestBody: { required: body.required, content: jsonContent(ref("schemas", body.schema)) } }),
    ...(spec.requestBody !== undefined && { requestBody: spec.requestBody }),
    responses: { ...spec.responses, ...(errors !== null && errorResponses(...errors)) },
  };
}

export function pathParameter(name: string, description: string) {
  return { name, in: "path", required: true, description, schema: { type: "string" } };
}

export const projectParameter = {
  name: "project",
  in: "path",
  required: true,
  description: "The project's slug.",
  schema: toJsonSchema(projectSlugSchema, "input"),
};

export const runIdParameter = pathParameter("id", "The run's id.");
