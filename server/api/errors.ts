import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server";
import { ZodError } from "zod";
import { toServiceError } from "../services/platform";
import type { ServiceErrorCode } from "../services/platform";

/**
 * A service error as tRPC reports it: the code mapped here and nowhere else, the message kept (an
 * internal error's message reveals nothing: see toServiceError), and the service code and details
 * (the path at fault) sent to the client in `error.data` by the error formatter (see ./trpc).
 */
export const TRPC_CODE: Record<ServiceErrorCode, TRPC_ERROR_CODE_KEY> = {
  bad_request: "BAD_REQUEST",
  unauthorized: "UNAUTHORIZED",
  forbidden: "FORBIDDEN",
  not_found: "NOT_FOUND",
  method_not_allowed: "METHOD_NOT_SUPPORTED",
  conflict: "CONFLICT",
  payload_too_large: "PAYLOAD_TOO_LARGE",
  unsupported_media_type: "UNSUPPORTED_MEDIA_TYPE",
  unprocessable: "UNPROCESSABLE_CONTENT",
  too_many_requests: "TOO_MANY_REQUESTS",
  internal: "INTERNAL_SERVER_ERROR",
  unavailable: "SERVICE_UNAVAILABLE",
};

/**
 * Whatever a procedure threw, as a TRPCError. tRPC wraps anything that is not a TRPCError in an
 * INTERNAL_SERVER_ERROR whose cause is the original: that cause is mapped (a ServiceError to its code,
 * anything else to a generic internal error). A procedure's input refused by its Zod schema is mapped
 * too, so it reads as the REST API's 400 (its message, and the path at fault in the details); other
 * TRPCErrors are kept.
 */
export function toTRPCError(error: unknown): TRPCError {
  if (error instanceof TRPCError && error.code !== "INTERNAL_SERVER_ERROR" && !(error.cause instanceof ZodError)) return error;
  const cause = error instanceof TRPCError && error.cause !== undefined ? error.cause : error;
  const serviceError = toServiceError(cause);
  return new TRPCError({ code: TRPC_CODE[serviceError.code], message: serviceError.message, cause: serviceError });
}

/**
 * The Retry-After header of a tRPC answer, as the REST API sends it: the longest wait its errors ask
 * for (an unavailable database: 503; a rate limit: 429), none when no error asks. For the fetch
 * adapter's `responseMeta: ({ errors }) => ({ headers: retryAfterHeaders(errors) })`.
 */
export function retryAfterHeaders(errors: readonly TRPCError[]): Record<string, string> {
  const waits = errors.flatMap((error) => {
    const seconds = toServiceError(error.cause ?? error).retryAfterSeconds;
    return seconds === null ? [] : [seconds];
  });
  return waits.length === 0 ? {} : { "Retry-After": String(Math.max(...waits)) };
}
