/**
 * Every format Benchtrack reads, described once, in documentation order (by tool): its name in messages,
 * the tool command that writes it, how to upload it, what its parser keeps and drops, its latency
 * resolution in words, and a ready upload recipe. Each tool's folder declares its own (the `info` of its
 * descriptor's formats); this is their list, in the order of TOOLS (tools.ts). The lookups over it
 * (`?format=` names, the table of docs/uploading.md) are `formats.ts`.
 */
import type { FormatInfo } from "./tool-descriptor";
import { TOOL_FORMATS } from "./tools";

export type { FormatInfo } from "./tool-descriptor";

export const FORMAT_LIST: readonly FormatInfo[] = TOOL_FORMATS.map((format) => {
  const { id, ...info } = format.info;
  return { id, tool: format.tool, ...info };
});
