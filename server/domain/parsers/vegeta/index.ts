/**
 * The vegeta parsers' public face: `VEGETA_TOOL`, everything the format registries know of this tool's
 * formats (what the docs say of each, how it is read, its markers, its latency resolution), which tools.ts
 * lists. The files beside it are this tool's own.
 */
import { firstLineOf, isRecord } from "../markers";
import { FULL_PRECISION, type ToolDescriptor } from "../tool-descriptor";
import { parseVegetaHist } from "./vegeta-hist";
import { parseVegetaJson } from "./vegeta-json";
import { parseVegetaSet } from "./vegeta-set";
import { parseVegetaText } from "./vegeta-text";

/** `vegeta report -type=json`: `latencies` with Go-style "50th" keys, `status_codes`, `success`. */
function isVegetaJson(value: Record<string, unknown>): boolean {
  return isRecord(value.latencies) && "50th" in value.latencies && "status_codes" in value && "success" in value;
}

/**
 * vegeta's text report rounds a duration to the unit below its own (lib/reporters.go `round`: ≥ 1 h to
 * the minute, ≥ 1 min to the second, ≥ 1 s to the ms, ≥ 1 ms to the µs) and prints it with Go's
 * Duration.String; below 1 ms it keeps the ns, vegeta's own precision. Checked on the fixture: JSON
 * 1388484 ns is printed `1.388ms`.
 */
function vegetaTextStepMs(valueMs: number): number {
  if (valueMs >= 3_600_000) return 60_000;
  if (valueMs >= 60_000) return 1_000;
  if (valueMs >= 1_000) return 1;
  if (valueMs >= 1) return 0.001;
  return 0;
}

/** vegeta: the report's three types, one attack's reports making one run. */
export const VEGETA_TOOL: ToolDescriptor = {
  tool: "vegeta",
  formats: [
    {
      info: {
        id: "vegeta-json",
        extension: ".json",
        unnamedTarget: true,
        title: "vegeta report -type=json",
        command: "vegeta report -type=json results.bin > report.json",
        upload: "body or multipart",
        keeps:
          "the aggregate: requests, failures (status codes outside 200–399, code 0 included, checked against success), throughput (vegeta's rate: all requests per second), min/mean/max and vegeta's percentiles, status codes, start and duration (attack + wait); vegeta's success-only throughput as the run metric success_throughput; the error strings in a note",
        drops:
          "per-target numbers (vegeta does not report them; ?endpoint= names a single-target attack), bytes in/out, error counts (vegeta lists distinct errors without counts)",
        resolution: "full precision (integer ns)",
        checkedOn: "real output",
        recipe: `curl --data-binary @report.json $AUTH "$RUNS?label=baseline&endpoint=GetListing"\n# with the histogram of the same attack:\ncurl -F report=@report.json -F hist=@report-hist.txt $AUTH "$RUNS?label=baseline"`,
      },
      parser: { kind: "json", parse: parseVegetaJson },
      markers: {
        json: isVegetaJson,
      },
      // vegeta's JSON holds integer ns (lib/metrics.go LatencyMetrics), its full precision.
      latency: { rule: FULL_PRECISION },
    },
    {
      info: {
        id: "vegeta-text",
        extension: ".txt",
        unnamedTarget: true,
        title: "vegeta report -type=text",
        command: "vegeta report -type=text results.bin > report.txt",
        upload: "body or multipart",
        keeps: "as the JSON report, from the printed figures (their rounding)",
        drops: "as the JSON report; the start time (not printed)",
        resolution:
          "the unit below the value's own: 1 µs from 1 ms, 1 ms from 1 s, 1 s from 1 min, 1 min from 1 h (vegeta rounds before printing); below 1 ms full ns",
        checkedOn: "real output",
        recipe: `curl --data-binary @report.txt $AUTH "$RUNS?label=baseline"`,
      },
      parser: { kind: "text", parse: parseVegetaText },
      markers: {
        // vegeta report -type=text: `Requests      [total, rate, throughput]  1200, 100.08, 99.78`.
        text: (start) => /^Requests\s+\[total, rate, throughput\]/.test(start),
      },
      latency: { rule: (_stat, valueMs) => vegetaTextStepMs(valueMs) },
    },
    {
      info: {
        id: "vegeta-hist",
        extension: ".txt",
        unnamedTarget: true,
        title: "vegeta report -type=hist",
        command: "vegeta report '-type=hist[0,2ms,5ms,10ms,20ms,50ms,100ms]' results.bin > report-hist.txt",
        upload: "body or multipart",
        keeps:
          "the histogram and its request count; sent with a JSON or text report of the same attack, it adds the histogram to it",
        drops: "percentiles (not in the report), the open last bucket's range",
        resolution: "no latency statistic to round (bucket counts only)",
        checkedOn: "real output",
        recipe: `curl --data-binary @report-hist.txt $AUTH "$RUNS?label=baseline"`,
      },
      parser: { kind: "text", parse: parseVegetaHist },
      markers: {
        // vegeta report -type=hist[...]: `Bucket           #    %       Histogram`.
        text: (start) => /^Bucket\s+#\s+%\s+Histogram\s*$/.test(firstLineOf(start)),
      },
      // A histogram report holds no latency statistic at all (bucket counts only).
      latency: { rule: FULL_PRECISION },
    },
  ],
  fileSets: {
    description: "one vegeta attack's reports",
    sets: [{ formats: ["vegeta-json", "vegeta-text", "vegeta-hist"], parse: parseVegetaSet }],
  },
};
