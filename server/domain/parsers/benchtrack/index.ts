/**
 * The benchtrack parsers' public face: `BENCHTRACK_TOOL`, everything the format registries know of this tool's
 * formats (what the docs say of each, how it is read, its markers, its latency resolution), which tools.ts
 * lists; and what other code imports. The files beside it are this tool's own.
 */
import { FULL_PRECISION, type ToolDescriptor } from "../tool-descriptor";
import { BENCHTRACK_SCHEMA_ID, parseBenchtrack } from "./benchtrack";

export { runDocumentSchema, toBenchtrackDocument } from "./benchtrack-document";
export type { RunDocument } from "./benchtrack-document";
export { BENCHTRACK_SCHEMA_ID, parseBenchtrack, runInputSchema } from "./benchtrack";
export type { RunInput } from "./benchtrack";

/** Benchtrack's own JSON (benchtrack/v1), which any tool can write. */
export const BENCHTRACK_TOOL: ToolDescriptor = {
  tool: "benchtrack",
  formats: [
    {
      info: {
        id: "benchtrack",
        extension: ".json",
        title: "Benchtrack JSON (benchtrack/v1)",
        command: "any tool: write the documented JSON (schema: /api/v1/schema/run.json)",
        upload: "body",
        keeps: "everything it states",
        drops: "nothing",
        resolution: "full precision: as the file states it",
        checkedOn: "real output",
        recipe: `curl --data-binary @run.json -H "Content-Type: application/json" $AUTH "$RUNS"`,
      },
      parser: { kind: "json", parse: parseBenchtrack },
      markers: {
        json: (value) => value.schema === BENCHTRACK_SCHEMA_ID,
      },
      // benchtrack/v1 states its numbers itself; nothing says how its writer rounded them.
      latency: { rule: FULL_PRECISION },
    },
  ],
};
