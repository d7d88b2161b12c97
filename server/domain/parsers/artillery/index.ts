/**
 * The artillery parsers' public face: `ARTILLERY_TOOL`, everything the format registries know of this tool's
 * formats (what the docs say of each, how it is read, its markers, its latency resolution), which tools.ts
 * lists. The files beside it are this tool's own.
 */
import { isRecord } from "../markers";
import type { LatencyStat, ToolDescriptor } from "../tool-descriptor";
import { parseArtilleryConsole } from "./artillery-console";
import { parseArtilleryJson } from "./artillery-json";
import { parseArtillerySet } from "./artillery-set";

/** artillery `--output report.json`: `{aggregate: {counters, …}, intermediate: [...]}`. */
function isArtilleryJson(value: Record<string, unknown>): boolean {
  return isRecord(value.aggregate) && isRecord(value.aggregate.counters) && Array.isArray(value.intermediate);
}

/**
 * artillery's summaries come from a DDSketch built with relativeAccuracy 0.01 (artillery
 * packages/core/lib/ssms.js `_aggregateHistograms`): a quantile is its bucket's representative value, and
 * representatives are spaced by the factor γ = (1 + α)/(1 − α) (DDSketch's logarithmic key mapping;
 * Masson, Rim & Lee, "DDSketch", PVLDB 12(12), 2019).
 */
export const ARTILLERY_SKETCH_RELATIVE_ACCURACY = 0.01;

export const ARTILLERY_SKETCH_GAMMA =
  (1 + ARTILLERY_SKETCH_RELATIVE_ACCURACY) / (1 - ARTILLERY_SKETCH_RELATIVE_ACCURACY);

/**
 * artillery times a request with got's timer, whose timestamps are Date.now(), so each sample is whole ms
 * (@szmarczak/http-timer `timings.phases.firstByte`, which engine_http.js records as http.response_time);
 * the summary rounds min, max, mean and every quantile to 0.1 ms (ssms.js `summarizeHistogram`). Min and
 * max are exact samples (whole ms), the mean is printed to 0.1 ms, a quantile is a sketch representative:
 * it moves by one whole-ms sample, or by one ~2% bucket where buckets are wider than 1 ms (above ~50 ms).
 */
function artilleryStepMs(stat: LatencyStat, valueMs: number): number {
  if (stat === "mean") return 0.1;
  if (stat === "min" || stat === "max") return 1;
  return Math.max(1, valueMs * (ARTILLERY_SKETCH_GAMMA - 1));
}

/** artillery: report.json and the console output, which make one run together (the ensure checks). */
export const ARTILLERY_TOOL: ToolDescriptor = {
  tool: "artillery",
  formats: [
    {
      info: {
        id: "artillery-json",
        extension: ".json",
        title: "artillery report.json",
        command: "artillery run --output report.json script.yml",
        upload: "body or multipart",
        keeps:
          "per-endpoint results from the metrics-by-endpoint plugin (count, min/mean/max, p50/p75/p90/p95/p99/p999, status codes, errors) and the aggregate (http.*, errors.*); requests = responses + errors, failures = status ≥ 400 + errors; throughput over the run's span; the intermediate windows as a timeline; vusers created/completed/failed and session length as run metrics; with the console output in the same upload, the ensure checks as thresholds",
        drops:
          "the .2xx/.5xx splits, bytes downloaded, other plugins' metrics, artillery's http.request_rate (a mean of window rates that partial windows pull down)",
        resolution:
          "percentiles one whole-ms response time or one ~2% sketch bucket (artillery's DDSketch), whichever is larger, shown to 0.1 ms; min and max whole ms; the mean 0.1 ms",
        checkedOn: "real output",
        recipe: `curl --data-binary @report.json $AUTH "$RUNS?label=baseline"\n# with the console output, for the ensure checks:\ncurl -F report=@report.json -F console=@artillery-console.txt $AUTH "$RUNS?label=baseline"`,
      },
      parser: { kind: "json", parse: parseArtilleryJson },
      markers: {
        json: isArtilleryJson,
      },
      latency: { rule: artilleryStepMs },
    },
    {
      info: {
        id: "artillery-console",
        extension: ".txt",
        title: "artillery console output",
        command: "artillery run script.yml > artillery-console.txt",
        upload: "body or multipart",
        keeps:
          "the last Summary report block: counters, status codes, min/max/mean/median/p95/p99 overall and per endpoint, artillery's request rate as the run metric http.request_rate, and the ensure plugin's checks: strict ones as thresholds (they can fail CI), optional ones as checks",
        drops:
          "the intermediate periods, p75/p90/p999 (not printed), the start date (only a time of day is printed), throughput (no span is printed; artillery's rate is a mean of window rates, not the run's)",
        resolution:
          "as report.json (it prints the same rounded summaries): percentiles one whole-ms response time or one ~2% sketch bucket, whichever is larger; min and max whole ms; the mean 0.1 ms",
        checkedOn: "real output",
        recipe: `artillery run script.yml | tee artillery-console.txt\ncurl --data-binary @artillery-console.txt $AUTH "$RUNS?label=baseline"`,
      },
      parser: { kind: "text", parse: parseArtilleryConsole },
      markers: {
        // artillery run's console: `Test run id: …` first, or (captured mid-way) a `Summary report @ …` block.
        text: (start) => /^Test run id: \S+/.test(start) || /^Summary report @ /m.test(start.slice(0, 4 * 1024 * 1024)),
      },
      // The console prints the same rounded summaries as report.json (fixture: both say p95 8.9 for GetListing).
      latency: { rule: artilleryStepMs },
    },
  ],
  fileSets: {
    description: "an artillery report.json with its console output",
    sets: [{ formats: ["artillery-json", "artillery-console"], parse: parseArtillerySet }],
  },
};
