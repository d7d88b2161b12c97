/**
 * Ingest: an upload received, parsed (in place or in a CPU thread), stored in one transaction and judged.
 *
 * The module's public face: code outside server/services/ingest/ imports from here, never from its files
 * (eslint.config.js holds that line and which modules this one may use).
 */
export { filesHash, uploadOfFiles } from "./received-upload";
export type { ReceivedFile, ReceivedUpload, StoredRaw } from "./received-upload";
export { authorizeUpload, uploadRun } from "./upload-run";
export { authorizeImport, importHistory } from "./import-history";
export type { ImportHistoryRequest } from "./import-history";
