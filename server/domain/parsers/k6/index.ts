/**
 * The k6 parsers: the public face the format registry (../index.ts, ../format-list.ts) and other code
 * use; the files beside it are this tool's own.
 */
export { parseK6HandleSummary } from "./k6-handle-summary";
export { K6NdjsonAccumulator, parseK6Ndjson } from "./k6-ndjson";
export { isK6NewSummary, parseK6NewSummary } from "./k6-new-summary";
export { parseK6SummaryExport } from "./k6-summary";
