/**
 * The google-benchmark parsers: the public face the format registry (../index.ts, ../format-list.ts) and other code
 * use; the files beside it are this tool's own.
 */
export { isGoogleBenchmarkConsole, isGoogleBenchmarkJson, parseGoogleBenchmarkConsole, parseGoogleBenchmarkJson } from "./google-benchmark";
