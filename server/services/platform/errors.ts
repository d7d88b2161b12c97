import { ZodError } from "zod";
import { InputError } from "../../domain/input-error";
import type { InputErrorCode } from "../../domain/input-error";
import type { ErrorCode, ErrorDetail } from "../../schemas/errors";

/**
 * The one error services throw: a code from a closed set, a message a user can act on, and details
 * naming the path or line at fault. The REST API maps the code to an HTTP status in one place
 * (server/http/errors.ts), tRPC to its error codes in one place (server/api/errors.ts); the codes are
 * also the `code` of the REST error envelope, so they are part of the public API.
 */
export type ServiceErrorCode = ErrorCode;
export type { ErrorDetail };

export class ServiceError extends Error {
  readonly code: ServiceErrorCode;
  readonly details: ErrorDetail[];
  /** Seconds to wait before retrying (429, 503): the Retry-After header. */
  readonly retryAfterSeconds: number | null;

  constructor(code: ServiceErrorCode, message: string, details: ErrorDetail[] = [], retryAfterSeconds: number | null = null) {
    super(message);
    this.name = "ServiceError";
    this.code = code;
    this.details = details;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** "Project "x" not found", the one not-found every use case answers for a missing thing. */
export function notFound(what: string, details: ErrorDetail[] = []): ServiceError {
  return new ServiceError("not_found", `${what} not found`, details);
}

const INPUT_ERROR_CODES: Record<InputErrorCode, ServiceErrorCode> = {
  malformed: "bad_request",
  wrong_format: "unprocessable",
  undetectable_format: "unprocessable",
  unsupported_format: "unsupported_media_type",
  too_large: "payload_too_large",
};

/**
 * Any thrown value as a ServiceError: the domain's InputError and Zod's validation errors keep their
 * details; a database that cannot be reached is "unavailable"; anything else is "internal", with a
 * message that reveals nothing about the internals.
 */
export function toServiceError(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  if (error instanceof InputError) return new ServiceError(INPUT_ERROR_CODES[error.code], error.message, error.details);
  if (error instanceof ZodError) {
    return new ServiceError(
      "bad_request",
      "The request does not match the expected shape",
      error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message })),
    );
  }
  const codes = errorCodesOf(error);
  if (isDatabaseUnavailable(error, codes)) {
    return new ServiceError(
      "unavailable",
      "The database is unavailable. Retry later; an upload retried with the same Idempotency-Key is never stored twice.",
      [],
      DATABASE_RETRY_AFTER_SECONDS,
    );
  }
  if (codes.some((code) => CONFLICT_CODES.has(code))) {
    // Rolled back whole: retrying the same request is safe, and meets the other writer gone.
    return new ServiceError(
      "unavailable",
      "The write met a concurrent one and was rolled back: nothing was stored. Retry; an upload retried with the same Idempotency-Key is never stored twice.",
      [],
      CONFLICT_RETRY_AFTER_SECONDS,
    );
  }
  if (codes.some((code) => UNSTORABLE_CODES.has(code))) {
    // A safety net: validation refuses these with their path first (domain/parsers/validate.ts).
    return new ServiceError("bad_request", "A value cannot be stored: a number out of range, or text with a NUL character");
  }
  return new ServiceError(
    "internal",
    "Internal error (logged on the server). An upload retried with the same Idempotency-Key is never stored twice.",
  );
}

/**
 * Seconds a client should wait before retrying when the database is unavailable (503's Retry-After):
 * a PostgreSQL restart (`pg_ctl restart -m fast`) or a fail-over takes a few seconds.
 */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Prisma, PostgreSQL (SQLSTATE) and socket codes of a database that cannot be reached or is going away. */
const UNAVAILABLE_CODES = new Set([
  "P1001", "P1002", "P1008", "P1017", "P2024",
  "57P01", "57P02", "57P03", "53300",
  "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH",
  "DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections",
]);
/**
 * A transaction PostgreSQL rolled back for another's sake: a deadlock (40P01) or a serialization failure
 * (40001), as Prisma (P2034) and its adapter (TransactionWriteConflict) name them. The writes take their
 * locks in one order (docs/architecture.md, the upload's path), so none is known; should one come, it
 * answers 503 with a one-second Retry-After, which `curl --retry` honours, not a 500.
 */
const CONFLICT_CODES = new Set(["40P01", "40001", "P2034", "TransactionWriteConflict"]);
export const CONFLICT_RETRY_AFTER_SECONDS = 1;
/** Values the database refuses to store: out of range (Prisma P2020, SQLSTATE 22003), NUL (22021), bad Unicode escapes (22P05). */
const UNSTORABLE_CODES = new Set(["P2020", "22003", "22021", "22P05"]);

/**
 * Every `code`, `kind` and `originalCode` along an error's causes (Prisma wraps driver errors several
 * levels deep; an AggregateError, a connect tried on several addresses, holds them in `errors`).
 */
export function errorCodesOf(error: unknown, depth = 0): string[] {
  if (typeof error !== "object" || error === null || depth > 6) return [];
  if (Array.isArray(error)) return error.flatMap((item) => errorCodesOf(item, depth + 1));
  const record = error as Record<string, unknown>;
  const own = ["code", "kind", "originalCode"].flatMap((key) => {
    const value = record[key];
    return typeof value === "string" ? [value] : [];
  });
  const nested = ["cause", "meta", "driverAdapterError", "error", "errors"].flatMap((key) => errorCodesOf(record[key], depth + 1));
  return [...own, ...nested];
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => {
    if (typeof key === "number") return `${text}[${key}]`;
    return text === "" ? String(key) : `${text}.${String(key)}`;
  }, "");
}

/**
 * Every `message` (and Prisma's `originalMessage`) along an error's causes, the error's own first:
 * node-postgres's errors of a broken connection carry no code, and Prisma's adapter passes them on
 * unwrapped or as the `cause` of another error.
 */
export function errorMessagesOf(error: unknown, depth = 0): string[] {
  if (typeof error === "string") return depth === 0 ? [error] : [];
  if (typeof error !== "object" || error === null || depth > 6) return [];
  if (Array.isArray(error)) return error.flatMap((item) => errorMessagesOf(item, depth + 1));
  const record = error as Record<string, unknown>;
  const own = ["message", "originalMessage"].flatMap((key) => {
    const value = record[key];
    return typeof value === "string" ? [value] : [];
  });
  const nested = ["cause", "meta", "driverAdapterError", "error", "errors"].flatMap((key) => errorMessagesOf(record[key], depth + 1));
  return [...own, ...nested];
}

/**
 * What node-postgres and the pool say, with no code, when the connection is gone: a socket closed under
 * a query ("Connection terminated unexpectedly"), a pooled client whose connection broke used again
 * ("Client has encountered a connection error and is not queryable": a transaction's ROLLBACK on the
 * connection the restart cut), a client closed under it, a connect that timed out.
 */
const UNAVAILABLE_MESSAGES =
  /Connection terminated|ECONNREFUSED|ECONNRESET|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|the database system is (starting up|shutting down|in recovery)|terminating connection due to administrator command/i;

function isDatabaseUnavailable(error: unknown, codes: readonly string[]): boolean {
  if (codes.some((code) => UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  return errorMessagesOf(error).some((message) => UNAVAILABLE_MESSAGES.test(message));
}
