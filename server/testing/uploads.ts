import type { ReceivedUpload } from "../http/upload-body";
import { uploadOfFiles } from "../http/upload-body";

/** A JSON document as the upload body ingestRun receives, for service-level tests. */
export function receivedUpload(text: string, name: string | null = "run.json"): ReceivedUpload {
  return uploadOfFiles([{ name, contentType: "application/json", bytes: Buffer.from(text) }]);
}
