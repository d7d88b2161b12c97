/**
 * The benchmarkjs parsers: the public face the format registry (../index.ts, ../format-list.ts) and other code
 * use; the files beside it are this tool's own.
 */
export { isBenchmarkjsText, parseBenchmarkjsText } from "./benchmarkjs";
