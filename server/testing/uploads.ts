import type { ReceivedUpload } from "../services/received-upload";
import { uploadOfFiles } from "../services/received-upload";

/** A JSON document as the upload body ingestRun receives, for service-level tests. */
export function receivedUpload(text: string, name: string | null = "run.json"): ReceivedUpload {
  return uploadOfFiles([{ name, contentType: "application/json", bytes: Buffer.from(text) }]);
}
