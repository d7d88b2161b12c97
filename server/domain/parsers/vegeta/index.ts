/**
 * The vegeta parsers: the public face the format registry (../index.ts, ../format-list.ts) and other code
 * use; the files beside it are this tool's own.
 */
export { parseVegetaHist } from "./vegeta-hist";
export { parseVegetaJson } from "./vegeta-json";
export { parseVegetaSet } from "./vegeta-set";
export { parseVegetaText } from "./vegeta-text";
