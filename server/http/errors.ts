import type { ServiceError, ServiceErrorCode } from "../services/platform";

/**
 * The REST API's one error envelope, `{ error: { code, message, details: [{ path, message }] } }`:
 * a service error's code mapped to its HTTP status here and nowhere else.
 */
export const HTTP_STATUS: Record<ServiceErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  too_many_requests: 429,
  internal: 500,
  unavailable: 503,
};

export function errorResponse(error: ServiceError, headers?: HeadersInit): Response {
  return Response.json(
    { error: { code: error.code, message: error.message, details: error.details } },
    { status: HTTP_STATUS[error.code], headers },
  );
}
