import { z } from "zod";

/**
 * The REST API's one error envelope and its closed set of codes. The codes are the ServiceError codes
 * (server/services/platform/errors.ts); each maps to one HTTP status (server/http/errors.ts) and one tRPC code
 * (server/api/errors.ts).
 */
export const ERROR_CODES = [
  "bad_request",
  "unauthorized",
  "forbidden",
  "not_found",
  "method_not_allowed",
  "conflict",
  "payload_too_large",
  "unsupported_media_type",
  "unprocessable",
  "too_many_requests",
  "internal",
  "unavailable",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export const errorDetailSchema = z.object({
  path: z
    .string()
    .describe('Where: a JSON path ("endpoints[0].latency.p95"), "query.round", "header.idempotency-key", a CSV line…'),
  message: z.string(),
});

export type ErrorDetail = z.infer<typeof errorDetailSchema>;

export const errorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES).describe("A closed set of codes, each mapped to one HTTP status."),
      message: z.string().describe("What went wrong, for a human."),
      details: z.array(errorDetailSchema).describe("Each problem found; may be empty."),
    }),
  })
  .describe("Every error answer of the REST API.");
