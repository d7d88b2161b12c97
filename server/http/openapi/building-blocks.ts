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
  Unauthorized: { code: "unauthorized", description: "No token, or an unknown or revoked one." },
  Forbidden: {
    code: "forbidden",
    description: "The token may not do this (a project token outside its project, or an admin-only call).",
  },
  NotFound: { code: "not_found", description: "No such project, run, file or token." },
  Conflict: {
    code: "conflict",
    description: "Conflict: the Idempotency-Key was used with a different body or other metadata (label, branch…), or the project exists.",
  },
  PayloadTooLarge: {
    code: "payload_too_large",
    description: "Body larger than BENCHTRACK_MAX_BODY_BYTES, or decompressed larger than the limits.",
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
    description: "The database is unavailable; retry after the Retry-After header's seconds (uploads with the same Idempotency-Key).",
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
 * limit, and 503 when the database is unavailable.
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

export const SECURITY_BEARER = [{ bearerAuth: [] }];
/** Reading is open unless BENCHTRACK_READ_TOKEN is set. */
export const SECURITY_READ = [{}, { bearerAuth: [] }];
export const SECURITY_NONE = [{}];

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
