import { ZodError } from "zod";
import { InputError } from "../domain/input-error";
import type { InputErrorCode } from "../domain/input-error";
import type { ErrorCode, ErrorDetail } from "../schemas/errors";

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

  constructor(code: ServiceErrorCode, message: string, details: ErrorDetail[] = []) {
    super(message);
    this.name = "ServiceError";
    this.code = code;
    this.details = details;
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
  if (isDatabaseUnavailable(error)) {
    return new ServiceError("unavailable", "The database is unavailable; nothing was stored. Retry later.");
  }
  return new ServiceError("internal", "Internal error; nothing was stored.");
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => {
    if (typeof key === "number") return `${text}[${key}]`;
    return text === "" ? String(key) : `${text}.${String(key)}`;
  }, "");
}

function isDatabaseUnavailable(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /ECONNREFUSED|ECONNRESET|Connection terminated|DatabaseNotReachable|P1001|P1017/i.test(text);
}
