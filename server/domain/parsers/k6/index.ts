/**
 * The k6 parsers' public face: `K6_TOOL`, everything the format registries know of this tool's
 * formats (what the docs say of each, how it is read, its markers, its latency resolution), which tools.ts
 * lists; and what other code imports. The files beside it are this tool's own.
 */
import type { FormatId, ParsedRun } from "../../run";
import { isRecord } from "../markers";
import { FULL_PRECISION, type ToolDescriptor } from "../tool-descriptor";
import { parseK6HandleSummary } from "./k6-handle-summary";
import { isNdjsonStart, K6NdjsonAccumulator } from "./k6-ndjson";
import { isK6NewSummary, parseK6NewSummary } from "./k6-new-summary";
import { parseK6SummaryExport } from "./k6-summary";

export { isNdjsonStart, K6NdjsonAccumulator, parseK6Ndjson } from "./k6-ndjson";

/** A k6 handleSummary metric is `{type, values}`; a legacy export metric is a flat object of numbers. */
function isHandleSummaryMetric(value: unknown): boolean {
  return isRecord(value) && typeof value.type === "string" && isRecord(value.values);
}

/** The two legacy k6 summaries share `{root_group, metrics}`; how metrics are written tells them apart. */
function k6LegacySummaryOf(value: Record<string, unknown>): FormatId | null {
  if (!(isRecord(value.metrics) && "root_group" in value)) return null;
  const metrics = Object.values(value.metrics);
  const looksHandleSummary =
    "state" in value || "options" in value || (metrics.length > 0 && metrics.every(isHandleSummaryMetric));
  return looksHandleSummary ? "k6-handle-summary" : "k6-summary";
}

/** k6 --out json NDJSON read from memory, line by line (a large body is streamed instead: parseK6Ndjson). */
function parseK6NdjsonText(text: string): ParsedRun {
  const accumulator = new K6NdjsonAccumulator();
  for (const line of text.split(/\r?\n/)) accumulator.addLine(line);
  return accumulator.finish();
}

/** k6: its three JSON summaries and the --out json NDJSON. */
export const K6_TOOL: ToolDescriptor = {
  tool: "k6",
  formats: [
    {
      info: {
        id: "k6-summary",
        extension: ".json",
        title: "k6 --summary-export JSON",
        command: "k6 run --summary-export=summary.json script.js",
        upload: "body",
        keeps:
          "http_req_duration/http_reqs/http_req_failed overall and per `name` sub-metric (endpoints), every threshold with its result, checks with their group path, group and other sub-metrics as run metrics (`<key> <stat>`), custom Counters, Rates, Gauges and Trends with units and direction where known (from a threshold's comparator; time trends lower is better; else unknown), iterations, VUs",
        drops:
          "k6's built-in timing breakdowns (http_req_blocked, _sending, _waiting…), data sent/received, group_duration and iteration_duration unless a threshold names them; endpoints exist only for requests a sub-metric names (a threshold on http_req_duration{name:…})",
        resolution: "full precision (float64 ms of k6's ns timings)",
        checkedOn: "real output",
        recipe: `curl --data-binary @summary.json $AUTH \\\n  "$RUNS?label=baseline&branch=main&commit=9f1c2e7"`,
      },
      parser: { kind: "json", parse: parseK6SummaryExport },
      markers: {
        json: (value) => k6LegacySummaryOf(value) === "k6-summary",
      },
      // k6 keeps trend values as float64 ms of ns durations and writes them as JSON floats (fixtures:
      // `"p(95)": 21.747017399999994`); NDJSON points likewise (`"value": 4.185122`).
      latency: { rule: FULL_PRECISION },
    },
    {
      info: {
        id: "k6-handle-summary",
        extension: ".json",
        title: "k6 handleSummary JSON",
        command: "handleSummary(data) { return { 'summary.json': JSON.stringify(data) } }",
        upload: "body",
        keeps:
          "as the --summary-export JSON, plus the test duration (state.testRunDurationMs) and metric units (contains: time)",
        drops: "as the --summary-export JSON; options",
        resolution: "full precision (as the --summary-export JSON)",
        checkedOn: "real output",
        recipe: `curl --data-binary @summary.json $AUTH "$RUNS?label=baseline"`,
      },
      parser: { kind: "json", parse: parseK6HandleSummary },
      markers: {
        json: (value) => k6LegacySummaryOf(value) === "k6-handle-summary",
      },
      latency: { rule: FULL_PRECISION },
    },
    {
      info: {
        id: "k6-new-summary",
        extension: ".json",
        title: "k6 --new-machine-readable-summary JSON",
        command: "k6 run --new-machine-readable-summary --summary-export=summary.json script.js",
        upload: "body",
        keeps:
          "the same metrics as the legacy summary (p90/p95 keys, rates as matches/total), checks, k6's version, the test's length, the execution mode (local/cloud) as load config, the start time",
        drops:
          "thresholds (the file holds no results, only the script text), executors and scenarios (only inside the script), p99 unless summaryTrendStats asks for it",
        resolution: "full precision (float64 ms, as the legacy summary)",
        checkedOn: "real output",
        recipe: `curl --data-binary @summary.json $AUTH "$RUNS?label=baseline"`,
      },
      parser: { kind: "json", parse: parseK6NewSummary },
      markers: {
        json: isK6NewSummary,
      },
      latency: { rule: FULL_PRECISION },
    },
    {
      info: {
        id: "k6-ndjson",
        extension: ".ndjson",
        title: "k6 --out json NDJSON",
        command: "k6 run --out json=points.ndjson script.js",
        upload: "body",
        keeps:
          "every http_req_duration sample reduced to exact percentiles and an HDR histogram per endpoint (by the `name` tag, else method and URL), status codes, failures, checks, iterations, constant tags as attributes; the points' times as a timeline of one-second windows (requests/s, failures/s, p50 and p95 within 1%, and VUs for the aggregate), overall and per endpoint",
        drops: "threshold results (not written there), other metrics' samples, the samples themselves",
        resolution: "full precision (each point is float64 ms; percentiles are exact over the points)",
        checkedOn: "real output",
        recipe: `gzip -c points.ndjson | curl --data-binary @- -H "Content-Encoding: gzip" $AUTH \\\n  "$RUNS?label=baseline"`,
      },
      parser: { kind: "ndjson", parse: parseK6NdjsonText },
      markers: {
        firstLine: isNdjsonStart,
      },
      latency: { rule: FULL_PRECISION },
    },
  ],
};
