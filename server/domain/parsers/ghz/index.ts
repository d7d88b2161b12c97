/**
 * The ghz parsers' public face: `GHZ_TOOL`, everything the format registries know of this tool's
 * formats (what the docs say of each, how it is read, its markers, its latency resolution), which tools.ts
 * lists. The files beside it are this tool's own.
 */
import { firstLineOf, isRecord } from "../markers";
import { FULL_PRECISION, type ToolDescriptor } from "../tool-descriptor";
import { parseGhz } from "./ghz";
import { parseGhzCsv } from "./ghz-csv";

function isGhzReport(value: unknown): boolean {
  return (
    isRecord(value) && isRecord(value.options) && ("latencyDistribution" in value || "statusCodeDistribution" in value)
  );
}

/** ghz: its JSON report and its CSV, one file per method (a run of several). */
export const GHZ_TOOL: ToolDescriptor = {
  tool: "ghz",
  formats: [
    {
      info: {
        id: "ghz",
        extension: ".json",
        title: "ghz -O json (or -O pretty) report",
        command: "ghz -O json -o GetListing.json …   (or -O pretty)",
        upload: "body or multipart",
        keeps:
          "one endpoint per report (the gRPC method), count, failures, throughput, min/mean/max, ghz's percentiles, status codes, errors, shutdown cancellations as a note; when details[] is complete, an HDR histogram of the OK calls and exact aggregate percentiles over several reports",
        drops:
          "ghz's own linear histogram when details[] is complete (the HDR one replaces it), request options other than the load profile",
        resolution: "full precision (integer ns)",
        checkedOn: "real output",
        recipe: `curl --data-binary @GetListing.json $AUTH "$RUNS?label=baseline"\n# several methods, one run:\ncurl -F a=@GetListing.json -F b=@ListListings.json $AUTH "$RUNS?label=baseline"`,
      },
      parser: { kind: "json", parse: parseGhz },
      markers: {
        json: isGhzReport,
        jsonArray: (value) => value.length > 0 && value.every(isGhzReport),
      },
      // ghz's JSON holds integer ns (runner/reporter.go), its full precision.
      latency: { rule: FULL_PRECISION },
    },
    {
      info: {
        id: "ghz-csv",
        extension: ".csv",
        unnamedTarget: true,
        title: "ghz -O csv output",
        command: "ghz -O csv -o GetListing.csv …",
        upload: "body or multipart",
        keeps:
          "one row per call: one endpoint per file named by the file (GetListing.csv → GetListing; a bare body has only the aggregate unless ?endpoint=), calls, failures (non-OK rows), counts by status, errors by message, and over the OK calls exact min/max/percentiles and an HDR histogram (the mean over all calls, as ghz's JSON average)",
        drops: "start time, duration and throughput (the file has no timestamps), load options, the full method name",
        resolution:
          "10 µs: each call's duration has 2 decimals of ms (percentiles interpolated between calls are no finer); the mean over the calls full precision",
        checkedOn: "real output",
        recipe: `# one endpoint per file, named by the file (GetListing.csv → GetListing):\ncurl -F a=@GetListing.csv -F b=@ListListings.csv $AUTH "$RUNS?label=baseline"\n# a bare body has no name: give it one\ncurl --data-binary @GetListing.csv $AUTH "$RUNS?label=baseline&endpoint=GetListing"`,
      },
      parser: {
        kind: "text",
        parse: (text, source) => parseGhzCsv([{ name: source === "body" ? null : source, text }]),
      },
      markers: {
        // ghz -O csv: `duration (ms),status,error`, one row per call.
        text: (start) => /^duration \(ms\),status,error\s*$/.test(firstLineOf(start)),
      },
      // `%4.2f` ms per call (printer/template.go `formatMilli`): 10 µs samples; the mean over them is ours.
      latency: { rule: (stat) => (stat === "mean" ? 0 : 0.01), interpolatedPercentiles: true },
    },
  ],
  fileSets: {
    description: "ghz reports (JSON or CSV, one per method)",
    sets: [
      { formats: ["ghz"], parse: (files) => parseGhz(files.map((file) => file.document)) },
      { formats: ["ghz-csv"], parse: (files) => parseGhzCsv(files) },
    ],
  },
};
