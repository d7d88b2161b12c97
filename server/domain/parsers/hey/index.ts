/**
 * The hey parsers' public face: `HEY_TOOL`, everything the format registries know of this tool's
 * formats (what the docs say of each, how it is read, its markers, its latency resolution), which tools.ts
 * lists. The files beside it are this tool's own.
 */
import { firstLineOf } from "../markers";
import type { ToolDescriptor } from "../tool-descriptor";
import { parseHeyCsv } from "./hey-csv";
import { parseHeyText } from "./hey-text";

/** hey prints every time in seconds with `%4.4f` (requester/print.go `print`, `printCSV`): 0.1 ms. */
const HEY_STEP_MS = 0.1;

/** hey: its text report and its -o csv rows. */
export const HEY_TOOL: ToolDescriptor = {
  tool: "hey",
  formats: [
    {
      info: {
        id: "hey-text",
        extension: ".txt",
        unnamedTarget: true,
        title: "hey text report",
        command: "hey -z 30s -c 10 http://… > hey.txt",
        upload: "body",
        keeps:
          "requests (responses + errors), failures (non-2xx/3xx responses + errors), requests/s, total time, fastest/average/slowest, the 10…99% distribution, hey's 11-bucket histogram, status codes, the error distribution",
        drops:
          "the DNS/dial/write/wait/read details, total data and size per request, the URL (not printed; ?endpoint= names it)",
        resolution: "0.1 ms: every time is printed in seconds with 4 decimals",
        checkedOn: "real output",
        recipe: `curl --data-binary @hey.txt $AUTH "$RUNS?label=baseline&endpoint=GetListing"`,
      },
      parser: { kind: "text", parse: parseHeyText },
      markers: {
        // hey's text report: `Summary:` then `  Total:\t12.0110 secs`.
        // (Horizontal space only: \`\s*\r?\n\s+\` backtracks quadratically over a long run of blank lines.)
        text: (start) => /^Summary:[ \t]*\r?\n[ \t]+Total:[ \t]/.test(start),
      },
      // Fastest/Average/Slowest and the distribution, all `%4.4f` seconds.
      latency: { rule: () => HEY_STEP_MS },
    },
    {
      info: {
        id: "hey-csv",
        extension: ".csv",
        unnamedTarget: true,
        title: "hey -o csv output",
        command: "hey -n 1000 -c 10 -o csv http://… > hey.csv",
        upload: "body",
        keeps:
          "one row per request: exact min/mean/stdev/max and percentiles (10…99.9), an HDR histogram, status codes, failures (non-2xx/3xx rows), duration from the first request to the last answer and throughput over it",
        drops:
          "the DNS/dial/write/wait/read columns, errored requests (hey leaves them out of the CSV), the start time and URL (not in the file; ?endpoint= names it)",
        resolution:
          "0.1 ms: each row's time is seconds with 4 decimals (percentiles interpolated between rows are no finer); the mean over the rows full precision",
        checkedOn: "real output",
        recipe: `curl --data-binary @hey.csv $AUTH "$RUNS?label=baseline&endpoint=GetListing"`,
      },
      parser: { kind: "text", parse: parseHeyCsv },
      markers: {
        // hey -o csv: `response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset`.
        text: (start) => /^response-time,DNS\+dialup,DNS,/.test(firstLineOf(start)),
      },
      // Rows are `%4.4f` seconds: 0.1 ms samples; the mean over them is ours.
      latency: { rule: (stat) => (stat === "mean" ? 0 : HEY_STEP_MS), interpolatedPercentiles: true },
    },
  ],
};
