/**
 * The benchtrack parsers: the public face the format registry (../index.ts, ../format-list.ts) and other code
 * use; the files beside it are this tool's own.
 */
export { runDocumentSchema, toBenchtrackDocument } from "./benchtrack-document";
export type { RunDocument } from "./benchtrack-document";
export { BENCHTRACK_SCHEMA_ID, parseBenchtrack, runInputSchema } from "./benchtrack";
export type { RunInput } from "./benchtrack";
