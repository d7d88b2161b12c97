import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { ReceivedUpload } from "../http/upload-body";

/** An upload body as the REST layer hands it to ingestRun, for service-level tests and scripts. */
export function receivedUpload(text: string, name: string | null = null): ReceivedUpload {
  const bytes = Buffer.from(text);
  return {
    kind: "files",
    files: [{ name, contentType: "application/json", text, sizeBytes: bytes.length, gzip: gzipSync(bytes) }],
    sha256: createHash("sha256").update(bytes).digest("hex"),
  };
}
