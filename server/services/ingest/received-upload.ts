import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";

/**
 * An upload as the transport received it: the files' text, each gzipped for storage, and the content
 * hash that idempotency compares; or, for k6 NDJSON, the lines as the body streams in (the upload use
 * case parses them line by line), with the stored copy and hash ready once the last line is read.
 */
export interface ReceivedFile {
  name: string | null;
  contentType: string | null;
  text: string;
  sizeBytes: number;
  gzip: Buffer;
}

export interface StoredRaw {
  name: string | null;
  contentType: string | null;
  sizeBytes: number;
  gzip: Buffer;
}

export type ReceivedUpload =
  | { kind: "files"; files: ReceivedFile[]; sha256: string }
  | {
      kind: "ndjson";
      /** The body's lines as they stream in (read once), in batches: those each received piece completed. */
      lines: AsyncIterable<readonly string[]>;
      /** The stored copy and the hash, once `lines` has been read to its end. */
      stored: () => { raw: StoredRaw; sha256: string };
    };

/**
 * A ReceivedUpload built from files already in memory (the demo seed, tests): each file gzipped for
 * storage, the hash over names and bytes so idempotency sees the file set, not just its content.
 */
export function uploadOfFiles(files: readonly { name: string | null; contentType: string | null; bytes: Buffer }[]): ReceivedUpload {
  const received = files.map(({ name, contentType, bytes }) => ({
    name,
    contentType,
    text: bytes.toString("utf8"),
    sizeBytes: bytes.length,
    gzip: gzipSync(bytes, { level: 4 }),
  }));
  return { kind: "files", files: received, sha256: filesHash(files) };
}

/**
 * The hash idempotency compares for a set of files: their names and bytes, in order — not the
 * multipart envelope around them, whose boundary changes with every `curl -F` retry.
 */
export function filesHash(files: readonly { name: string | null; bytes: Buffer }[]): string {
  const hash = createHash("sha256");
  for (const { name, bytes } of files) hash.update(`${name ?? ""}\0${bytes.length}\0`).update(bytes);
  return hash.digest("hex");
}
