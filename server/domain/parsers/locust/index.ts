/**
 * The locust parsers' public face: `LOCUST_TOOL`, everything the format registries know of this tool's
 * formats (what the docs say of each, how it is read, its markers, its latency resolution), which tools.ts
 * lists. The files beside it are this tool's own.
 */
import { isRecord } from "../markers";
import type { ToolDescriptor } from "../tool-descriptor";
import { locustCsvKindFromName, locustCsvKindOf, parseLocustCsv } from "./locust-csv";
import { parseLocustHtml } from "./locust-html";
import { parseLocustJson } from "./locust-json";

function isLocustStatsEntry(value: unknown): boolean {
  return isRecord(value) && "num_requests" in value && "response_times" in value;
}

/**
 * Locust rounds each response time before counting it in `response_times`: whole ms below 100 ms, 10 ms
 * below 1 s, 100 ms below 10 s, then 1 s (locust/stats.py `StatsEntry._log_response_time`); every
 * percentile is read from those keys (`calculate_response_time_percentile`), so it is a key. Rounding can
 * carry a value up to the next range (99.6 → 100), where the next range's step applies: keys stay multiples
 * of the step of their own magnitude. Checked on every Locust fixture (resolution.test.ts).
 * (A _stats.csv without its "Max Response Time" column gets its max from the "100%" column, a key too; the
 * rule cannot see that case and says full precision for the max.)
 */
function locustHistogramStepMs(valueMs: number): number {
  if (valueMs < 100) return 1;
  if (valueMs < 1_000) return 10;
  if (valueMs < 10_000) return 100;
  return 1_000;
}

/** Locust: --json, the --csv files (one run together) and the --html report. */
export const LOCUST_TOOL: ToolDescriptor = {
  tool: "locust",
  formats: [
    {
      info: {
        id: "locust-json",
        extension: ".json",
        title: "Locust --json output",
        command: "locust --headless --json … > locust.json",
        upload: "body",
        keeps:
          "per-endpoint counts, failures, min/mean/max, Locust's response-time histogram and the percentiles read from it as Locust reads them",
        drops: "per-second counts (num_reqs_per_sec), content length",
        resolution:
          "percentiles in Locust's histogram steps: whole ms below 100 ms, 10 ms below 1 s, 100 ms below 10 s, then 1 s (Locust rounds each response time before counting it); min, mean and max full precision",
        checkedOn: "real output",
        recipe: `curl --data-binary @locust.json $AUTH "$RUNS?label=baseline"`,
      },
      parser: { kind: "json", parse: parseLocustJson },
      markers: {
        jsonArray: (value) => value.length > 0 && value.every(isLocustStatsEntry),
      },
      // Percentiles are histogram keys; min, max and total_response_time are the unrounded times.
      latency: { rule: (stat, valueMs) => (stat === "percentile" ? locustHistogramStepMs(valueMs) : 0) },
    },
    {
      info: {
        id: "locust-csv",
        extension: ".csv",
        title: "Locust --csv files",
        command: "locust --headless --csv=locust [--csv-full-history] …",
        upload: "body or multipart",
        keeps:
          "_stats.csv rows (every percentile column), failures by message, exceptions as notes, the history as a timeline: per endpoint with requests/s, failures/s, p50, p95 and users when written with --csv-full-history, else the aggregate's requests/s, failures/s and users; the start, duration and peak users",
        drops:
          "average content size, the history's running totals (and, without --csv-full-history, its percentiles: they run since the start, not per window)",
        resolution:
          "percentiles in Locust's histogram steps: whole ms below 100 ms, 10 ms below 1 s, 100 ms below 10 s, then 1 s (Locust rounds each response time before counting it); min, average and max full precision",
        checkedOn: "real output",
        recipe: `curl -F stats=@locust_stats.csv -F history=@locust_stats_history.csv -F failures=@locust_failures.csv $AUTH \\\n  "$RUNS?label=baseline"`,
      },
      parser: { kind: "text", parse: (text, source) => parseLocustCsv([{ name: source, text }]) },
      markers: {
        text: (start) => locustCsvKindOf(start) !== null,
        // A file named as Locust names its CSVs is one of them, even when its header is broken (its parser says how).
        fileName: (name) => locustCsvKindFromName(name) !== null,
      },
      // The percentile columns are int() of those keys (stats.py `StatsCSV._percentile_fields`); min, max and
      // average are written unrounded (`_requests_data_rows`; fixture: `5.600060999995549`).
      latency: { rule: (stat, valueMs) => (stat === "percentile" ? locustHistogramStepMs(valueMs) : 0) },
    },
    {
      info: {
        id: "locust-html",
        extension: ".html",
        title: "Locust --html report",
        command: "locust --headless --html=report.html …",
        upload: "body",
        keeps:
          "the report's inline stats (window.templateArgs): per-endpoint counts, failures, throughput, min/mean/max, every percentile it lists (50…99), failures by message, exceptions as a note, the aggregate's timeline (requests/s, failures/s, p50, p95, users; one point per 5 s), start and end time, host, peak users",
        drops:
          "the page itself, the task ratios, the locustfile name, content lengths; Locust's version (not in the report)",
        resolution:
          "percentiles in Locust's histogram steps: whole ms below 100 ms, 10 ms below 1 s, 100 ms below 10 s, then 1 s (Locust rounds each response time before counting it); min and max whole ms (the report rounds them); mean full precision",
        checkedOn: "real output",
        recipe: `curl --data-binary @report.html $AUTH "$RUNS?label=baseline"`,
      },
      parser: { kind: "text", parse: parseLocustHtml },
      markers: {
        // locust --html: a page whose stats sit in `window.templateArgs = {…}`.
        text: (start) => /^<(!doctype html|html)/i.test(start) && /window\.templateArgs\s*=\s*\{/.test(start),
      },
      // As the CSV, but the report rounds min and max to whole ms (stats.py `StatsEntry.to_dict`:
      // proper_round; fixture: 6.0 where the CSV of the same run says 5.600060999995549). The mean is unrounded.
      latency: {
        rule: (stat, valueMs) => {
          if (stat === "percentile") return locustHistogramStepMs(valueMs);
          return stat === "mean" ? 0 : 1;
        },
      },
    },
  ],
  fileSets: {
    description: "Locust --csv files",
    sets: [{ formats: ["locust-csv"], parse: (files) => parseLocustCsv(files) }],
  },
};
