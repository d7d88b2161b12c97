/**
 * The artillery parsers: the public face the format registry (../index.ts, ../format-list.ts) and other code
 * use; the files beside it are this tool's own.
 */
export { parseArtilleryConsole } from "./artillery-console";
export { parseArtilleryJson } from "./artillery-json";
export { parseArtillerySet } from "./artillery-set";
