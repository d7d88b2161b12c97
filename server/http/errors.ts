import { ZodError } from "zod";
import { InputError } from "../domain/input-error";
import type { InputErrorCode, InputErrorDetail } from "../domain/input-error";

/**
 * The REST API's one error envelope, `{ error: { code, message, details: [{ path, message }] } }`,
 * from a closed set of codes mapped to HTTP statuses here and nowhere else.
 */
export const API_ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  internal: 500,
  unavailable: 503,
} as const;

export type ApiErrorCode = keyof typeof API_ERROR_STATUS;

export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly details: InputErrorDetail[];

  constructor(code: ApiErrorCode, message: string, details: InputErrorDetail[] = []) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return API_ERROR_STATUS[this.code];
  }
}

const INPUT_ERROR_CODES: Record<InputErrorCode, ApiErrorCode> = {
  malformed: "bad_request",
  wrong_format: "unprocessable",
  undetectable_format: "unprocessable",
  unsupported_format: "unsupported_media_type",
  too_large: "payload_too_large",
};

/** Any thrown value as an ApiError; unexpected ones become a 500 that reveals nothing internal. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof InputError) return new ApiError(INPUT_ERROR_CODES[error.code], error.message, error.details);
  if (error instanceof ZodError) {
    return new ApiError(
      "bad_request",
      "The request does not match the expected shape",
      error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message })),
    );
  }
  if (isDatabaseUnavailable(error)) {
    return new ApiError("unavailable", "The database is unavailable; nothing was stored. Retry later.");
  }
  return new ApiError("internal", "Internal error; nothing was stored.");
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

export function errorResponse(error: ApiError, headers?: HeadersInit): Response {
  return Response.json(
    { error: { code: error.code, message: error.message, details: error.details } },
    { status: error.status, headers },
  );
}
