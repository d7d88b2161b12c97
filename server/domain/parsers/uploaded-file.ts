import type { FormatId } from "../run";

/** One file of an upload: the body itself, or a part of a multipart upload. */
export interface UploadedFile {
  /** The file name as uploaded, or null for a bare request body. */
  name: string | null;
  text: string;
}

/** A file whose format detection settled (`detect.ts`), with its JSON already decoded when it is JSON. */
export interface DetectedFile extends UploadedFile {
  format: FormatId;
  /** The decoded document of a JSON format; undefined for text formats. */
  document?: unknown;
}

/** What error paths call a file: its name, or "body" for a bare request body. */
export function sourceOf(file: UploadedFile, index = 0): string {
  return file.name ?? (index === 0 ? "body" : `file ${index + 1}`);
}
