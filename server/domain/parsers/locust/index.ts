/**
 * The locust parsers: the public face the format registry (../index.ts, ../format-list.ts) and other code
 * use; the files beside it are this tool's own.
 */
export { locustCsvKindFromName, locustCsvKindOf, parseLocustCsv } from "./locust-csv";
export { parseLocustHtml } from "./locust-html";
export { parseLocustJson } from "./locust-json";
