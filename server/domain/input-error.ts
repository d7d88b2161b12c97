/**
 * The one error a pure parser or validator throws for bad input. The REST layer maps `code` to an
 * HTTP status: "malformed" → 400, "wrong_format" and "undetectable_format" → 422,
 * "unsupported_format" → 415 (a Content-Encoding Benchtrack cannot undo), "too_large" → 413. An unknown
 * `?format=` name is "malformed" (400): it is a bad query parameter, not an unsupported media type.
 */
export type InputErrorCode =
  | "malformed"
  | "wrong_format"
  | "undetectable_format"
  | "unsupported_format"
  | "too_large";

export interface InputErrorDetail {
  /** JSON path ("endpoints[3].latency.p95"), "line 12" for CSV/NDJSON, or a file name. */
  path: string;
  message: string;
}

export class InputError extends Error {
  readonly code: InputErrorCode;
  readonly details: InputErrorDetail[];

  constructor(code: InputErrorCode, message: string, details: InputErrorDetail[] = []) {
    super(message);
    this.name = "InputError";
    this.code = code;
    this.details = details;
  }
}
