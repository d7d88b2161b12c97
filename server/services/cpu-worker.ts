/**
 * What a parse thread runs (services/parse-pool.ts): an upload's files parsed, completed with the query's
 * metadata and validated — the pure domain function, in a worker thread so that no upload holds the
 * server's event loop. Errors cross the thread as plain data: an InputError keeps its code and details.
 */
import { InputError } from "../domain/input-error";
import type { InputErrorCode, InputErrorDetail } from "../domain/input-error";
import { parseUploadedRun } from "../domain/parsers";
import type { ParsedUpload, RunMetadata, UploadedFile } from "../domain/parsers";

export interface ParseTask {
  files: UploadedFile[];
  format: string | null;
  metadata: RunMetadata;
}

export type ParseAnswer =
  | { ok: true; parsed: ParsedUpload }
  | { ok: false; error: { code: InputErrorCode; message: string; details: InputErrorDetail[] } };

export default function parseTask(task: ParseTask): ParseAnswer {
  try {
    return { ok: true, parsed: parseUploadedRun(task) };
  } catch (error) {
    if (error instanceof InputError) return { ok: false, error: { code: error.code, message: error.message, details: error.details } };
    throw error;
  }
}
