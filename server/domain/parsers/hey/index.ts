/**
 * The hey parsers: the public face the format registry (../index.ts, ../format-list.ts) and other code
 * use; the files beside it are this tool's own.
 */
export { parseHeyCsv } from "./hey-csv";
export { parseHeyText } from "./hey-text";
