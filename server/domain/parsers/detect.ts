/**
 * Which format an upload is in, from its content alone. Detection only looks at each format's own
 * markers (top-level JSON keys, the first NDJSON line, a CSV header, a text report's first line); the
 * format's parser then validates everything. Every format whose markers match is listed, so a content
 * that looks like two formats is never settled by a silent guess (index.ts refuses it and asks for
 * `?format=`). Text reports are recognised by their own markers, never as "some CSV".
 */
import type { FormatId } from "../run";
import { isBenchmarkDotNetJson } from "./benchmarkdotnet";
import { isBenchmarkjsText } from "./benchmarkjs";
import { BENCHTRACK_SCHEMA_ID } from "./benchtrack";
import { isCriterionJson } from "./criterion";
import { isGoBenchText, isGoTest2JsonLine } from "./go-bench";
import { isGoogleBenchmarkConsole, isGoogleBenchmarkJson } from "./google-benchmark";
import { isHyperfineCsv, isHyperfineJson } from "./hyperfine";
import { isHyperfineMarkdown, isHyperfineText } from "./hyperfine";
import { isJmhJson } from "./jmh";
import { isPytestBenchmarkJson, isPytestBenchmarkText } from "./pytest-benchmark";
import { isCachegrindText, isCallgrindText } from "./valgrind";
import { isVitestBenchJson, isVitestBenchText } from "./vitest-bench";
import { isK6NewSummary } from "./k6";
import { locustCsvKindOf } from "./locust";
import { parseJsonText } from "./wire";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ---- JSON documents ----

/** A k6 handleSummary metric is `{type, values}`; a legacy export metric is a flat object of numbers. */
function isHandleSummaryMetric(value: unknown): boolean {
  return isRecord(value) && typeof value.type === "string" && isRecord(value.values);
}

function isGhzReport(value: unknown): boolean {
  return (
    isRecord(value) && isRecord(value.options) && ("latencyDistribution" in value || "statusCodeDistribution" in value)
  );
}

function isLocustStatsEntry(value: unknown): boolean {
  return isRecord(value) && "num_requests" in value && "response_times" in value;
}

/** The two legacy k6 summaries share `{root_group, metrics}`; how metrics are written tells them apart. */
function k6LegacySummaryOf(value: Record<string, unknown>): FormatId | null {
  if (!(isRecord(value.metrics) && "root_group" in value)) return null;
  const metrics = Object.values(value.metrics);
  const looksHandleSummary =
    "state" in value || "options" in value || (metrics.length > 0 && metrics.every(isHandleSummaryMetric));
  return looksHandleSummary ? "k6-handle-summary" : "k6-summary";
}

/** `vegeta report -type=json`: `latencies` with Go-style "50th" keys, `status_codes`, `success`. */
function isVegetaJson(value: Record<string, unknown>): boolean {
  return isRecord(value.latencies) && "50th" in value.latencies && "status_codes" in value && "success" in value;
}

/** `autocannon --json`: `latency`, `requests` and `throughput` objects of HDR percentiles (`p97_5`). */
function isAutocannonJson(value: Record<string, unknown>): boolean {
  return isRecord(value.latency) && "p97_5" in value.latency && isRecord(value.requests) && isRecord(value.throughput);
}

/** artillery `--output report.json`: `{aggregate: {counters, …}, intermediate: [...]}`. */
function isArtilleryJson(value: Record<string, unknown>): boolean {
  return isRecord(value.aggregate) && isRecord(value.aggregate.counters) && Array.isArray(value.intermediate);
}

const JSON_MARKERS: readonly { format: FormatId; matches: (value: Record<string, unknown>) => boolean }[] = [
  { format: "benchtrack", matches: (value) => value.schema === BENCHTRACK_SCHEMA_ID },
  { format: "ghz", matches: isGhzReport },
  { format: "k6-new-summary", matches: isK6NewSummary },
  { format: "k6-summary", matches: (value) => k6LegacySummaryOf(value) === "k6-summary" },
  { format: "k6-handle-summary", matches: (value) => k6LegacySummaryOf(value) === "k6-handle-summary" },
  { format: "vegeta-json", matches: isVegetaJson },
  { format: "autocannon-json", matches: isAutocannonJson },
  { format: "artillery-json", matches: isArtilleryJson },
  // Microbenchmarks.
  { format: "hyperfine-json", matches: isHyperfineJson },

  { format: "pytest-benchmark", matches: isPytestBenchmarkJson },

  { format: "google-benchmark-json", matches: isGoogleBenchmarkJson },

  { format: "vitest-bench", matches: isVitestBenchJson },

  { format: "criterion-json", matches: isCriterionJson },

  { format: "benchmarkdotnet-json", matches: isBenchmarkDotNetJson },
];

/** Every format a decoded JSON document looks like (none, one, or, for an odd document, several). */
export function detectJsonFormats(value: unknown): FormatId[] {
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isGhzReport)) return ["ghz"];
    if (value.length > 0 && value.every(isLocustStatsEntry)) return ["locust-json"];
    if (isJmhJson(value)) return ["jmh-json"];
    return [];
  }
  if (!isRecord(value)) return [];
  return JSON_MARKERS.filter((marker) => marker.matches(value)).map((marker) => marker.format);
}

/** Whether a decoded JSON value is the upload wrapper `{format?, metadata?, result}`. */
export function isUploadWrapper(value: unknown): value is { format?: unknown; metadata?: unknown; result: unknown } {
  if (!isRecord(value) || !("result" in value)) return false;
  return Object.keys(value).every((key) => key === "format" || key === "metadata" || key === "result");
}

// ---- text ----

/** The longest first line that may start k6 NDJSON: the upload reader decides within this many bytes too. */
export const MAX_NDJSON_FIRST_LINE = 64 * 1024;

/** Whether the first line of a body starts k6 `--out json` NDJSON (the service then streams it). */
export function isNdjsonStart(firstLine: string): boolean {
  // A k6 line is a few hundred bytes; a longer "first line" is a one-line document, not worth decoding twice.
  if (firstLine.length > MAX_NDJSON_FIRST_LINE) return false;
  const trimmed = firstLine.trim();
  if (!trimmed.startsWith("{") || !trimmed.endsWith("}")) return false;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isRecord(value) && (value.type === "Metric" || value.type === "Point") && typeof value.metric === "string";
  } catch {
    return false;
  }
}

/** A text's first line (without its line break). */
function firstLineOf(start: string): string {
  const newline = start.indexOf("\n");
  return (newline === -1 ? start.slice(0, 4096) : start.slice(0, newline)).replace(/\r$/, "");
}

/** The columns of a CSV header line (plain names: the tools' headers hold no quotes). */
function headerColumns(line: string): string[] {
  return line.split(/[,\t;|]/).map((column) => column.trim().replace(/^"|"$/g, ""));
}

/**
 * Text markers, each looking at the start of the text (BOM and leading blank lines removed). Each is
 * the tool's own fixed wording, so two formats never match the same text in practice; if they ever
 * did, both would be listed and the upload refused with a request for `?format=`.
 */
const TEXT_MARKERS: readonly { format: FormatId; matches: (start: string) => boolean }[] = [
  { format: "locust-csv", matches: (start) => locustCsvKindOf(start) !== null },
  // ghz -O csv: `duration (ms),status,error`, one row per call.
  { format: "ghz-csv", matches: (start) => /^duration \(ms\),status,error\s*$/.test(firstLineOf(start)) },
  // vegeta report -type=text: `Requests      [total, rate, throughput]  1200, 100.08, 99.78`.
  { format: "vegeta-text", matches: (start) => /^Requests\s+\[total, rate, throughput\]/.test(start) },
  // vegeta report -type=hist[...]: `Bucket           #    %       Histogram`.
  { format: "vegeta-hist", matches: (start) => /^Bucket\s+#\s+%\s+Histogram\s*$/.test(firstLineOf(start)) },
  // hey's text report: `Summary:` then `  Total:\t12.0110 secs`.
  // (Horizontal space only: `\s*\r?\n\s+` backtracks quadratically over a long run of blank lines.)
  { format: "hey-text", matches: (start) => /^Summary:[ \t]*\r?\n[ \t]+Total:[ \t]/.test(start) },
  // hey -o csv: `response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset`.
  { format: "hey-csv", matches: (start) => /^response-time,DNS\+dialup,DNS,/.test(firstLineOf(start)) },
  // wrk: `Running 12s test @ http://127.0.0.1:18080/api/listings/42`, after whatever a Lua script printed first.
  { format: "wrk-text", matches: (start) => /^Running [^\s]+ test @ [^\s]+/m.test(start.slice(0, 64 * 1024)) },
  // artillery run's console: `Test run id: …` first, or (captured mid-way) a `Summary report @ …` block.
  {
    format: "artillery-console",
    matches: (start) => /^Test run id: \S+/.test(start) || /^Summary report @ /m.test(start.slice(0, 4 * 1024 * 1024)),
  },
  // JMeter JTL as CSV: a header naming timeStamp and elapsed (the default columns start with them).
  {
    format: "jmeter-csv",
    matches: (start) => {
      const columns = headerColumns(firstLineOf(start));
      return columns.includes("timeStamp") && columns.includes("elapsed");
    },
  },
  // JMeter JTL as XML: `<?xml …?>` then `<testResults version="1.2">`.
  { format: "jmeter-xml", matches: isJmeterXmlStart },
  // Microbenchmarks (each file's markers: go-bench.ts, hyperfine.ts, google-benchmark.ts, benchmarkjs.ts).
  { format: "go-bench-text", matches: isGoBenchText },

  { format: "hyperfine-csv", matches: isHyperfineCsv },

  { format: "hyperfine-markdown", matches: isHyperfineMarkdown },

  { format: "hyperfine-text", matches: isHyperfineText },

  { format: "pytest-benchmark-text", matches: isPytestBenchmarkText },

  { format: "vitest-bench-text", matches: isVitestBenchText },

  { format: "google-benchmark-console", matches: isGoogleBenchmarkConsole },

  { format: "benchmarkjs-text", matches: isBenchmarkjsText },

  // Valgrind: cachegrind's `desc:`/`cmd:`/`events:` header; callgrind's `# callgrind format`, `creator: callgrind-…`.
  { format: "cachegrind", matches: isCachegrindText },

  { format: "callgrind", matches: isCallgrindText },

  // locust --html: a page whose stats sit in `window.templateArgs = {…}`.
  {
    format: "locust-html",
    matches: (start) => /^<(!doctype html|html)/i.test(start) && /window\.templateArgs\s*=\s*\{/.test(start),
  },
];

/**
 * `<?xml …?>`, comments, then `<testResults`: skipped with indexOf, never one regex (a lazy comment
 * group under `*` backtracks exponentially: 32 empty comments took 64 s).
 */
function isJmeterXmlStart(start: string): boolean {
  let rest = start.slice(0, 64 * 1024);
  if (rest.startsWith("<?xml")) {
    const end = rest.indexOf("?>");
    if (end === -1) return false;
    rest = rest.slice(end + 2).trimStart();
  }
  while (rest.startsWith("<!--")) {
    const end = rest.indexOf("-->", 4);
    if (end === -1) return false;
    rest = rest.slice(end + 3).trimStart();
  }
  return /^<testResults[\s>]/.test(rest);
}

/** The text with a byte-order mark and leading whitespace removed: where markers look. */
function textStart(text: string): string {
  return text.replace(/^\uFEFF/, "").trimStart();
}

/** What an upload file is, judged from its content: NDJSON, a JSON document (decoded), or text. */
export type Inspection =
  { kind: "ndjson" } | { kind: "json"; document: unknown; formats: FormatId[] } | { kind: "text"; formats: FormatId[] };

/**
 * Inspects one file: k6 NDJSON by its first line, JSON by its first character (a JSON syntax error is
 * reported with line and column), any other text by the markers above.
 */
export function inspectFile(text: string, source: string | null): Inspection {
  const start = textStart(text);
  const firstLine = firstLineOf(start).slice(0, MAX_NDJSON_FIRST_LINE + 1);
  if (isNdjsonStart(firstLine)) return { kind: "ndjson" };
  // `go test -json` is JSON Lines too (test2json events), read as text by its parser.
  if (isGoTest2JsonLine(firstLine)) return { kind: "text", formats: ["go-bench-json"] };
  if (start.startsWith("{") || start.startsWith("[")) {
    const document = parseJsonText(text, source);
    return { kind: "json", document, formats: detectJsonFormats(document) };
  }
  return {
    kind: "text",
    formats: TEXT_MARKERS.filter((marker) => marker.matches(start)).map((marker) => marker.format),
  };
}

/** A short description of content that matched no format, for the error message. */
export function describeContent(text: string): string {
  if (hasControlCharacters(text.slice(0, 4096))) return "binary data";
  const start = textStart(text);
  if (start === "") return "empty";
  if (start.startsWith("{") || start.startsWith("[")) return "JSON of an unknown shape";
  const first = firstLineOf(start);
  if (headerColumns(first).length >= 3 && start.includes("\n"))
    return `CSV-like text with the header "${first.slice(0, 80)}"`;
  return `text starting "${start.slice(0, 40).replace(/\s+/g, " ")}"`;
}

/** NUL or C0 control characters other than tab, newline and carriage return: not a text format. */
function hasControlCharacters(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d && code !== 0x0c && code !== 0x0b) return true;
  }
  return false;
}
