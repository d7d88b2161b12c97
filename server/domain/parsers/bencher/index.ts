/**
 * The Bencher parsers' public face: `BENCHER_TOOL` (Bencher Metric Format JSON, which tools.ts lists) and
 * the reader of a Bencher history (NDJSON of BMF runs), which the history import uses. The files beside it
 * are this tool's own.
 */
import { FULL_PRECISION, type ToolDescriptor } from "../tool-descriptor";
import { isBmfDocument, parseBmf } from "./bmf";

export { BENCHER_TOOL_NAME, bmfSchema, directionOfMeasure, parseBmfDocument } from "./bmf";
export { bencherHistoryLineSchema, MAX_BENCHER_HISTORY_LINES, parseBencherHistory } from "./history";
export type { BencherHistoryEntry } from "./history";

/** Bencher: its Metric Format. */
export const BENCHER_TOOL: ToolDescriptor = {
  tool: "bencher",
  formats: [
    {
      info: {
        id: "bencher-bmf",
        extension: ".json",
        title: "Bencher Metric Format (BMF) JSON",
        command: "a harness's BMF output (what `bencher run --adapter json` reads): {\"<benchmark>\": {\"<measure>\": {\"value\": n}}}",
        upload: "body",
        keeps:
          "one benchmark per key: latency (ns) as its mean time per operation, throughput (ops/s) as ops/s (and 1000 / ops/s as the time per operation when no latency is given), every other measure as a custom metric under its slug: lower is better for Bencher's file-size, build-time and instruction or cache counts, higher for a rate (…/s, throughput), else shown and never judged",
        drops: "lower_value and upper_value (bounds whose meaning is the adapter's); samples; the commit, time and testbed (not in the file: give them as query parameters)",
        resolution: "full precision: as the file states it",
        checkedOn: "documented format",
        recipe: `curl --data-binary @results.json $AUTH "$RUNS?label=bencher"`,
      },
      parser: { kind: "json", parse: parseBmf },
      markers: { json: isBmfDocument },
      latency: { rule: FULL_PRECISION },
    },
  ],
};
