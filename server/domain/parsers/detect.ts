/**
 * Which format an upload is in, from its content alone, and which formats a `?format=` name allows.
 * Detection only looks at shape markers (top-level keys, the first NDJSON line, a CSV header); the
 * format's parser then validates everything, so a confident wrong guess cannot slip through silently.
 */
import { InputError } from "../input-error";
import type { FormatId } from "../run";
import { BENCHTRACK_SCHEMA_ID } from "./benchtrack";
import { isK6NewSummary } from "./k6-summary";
import { locustCsvKindOf } from "./locust-csv";

/** Human names used in messages ("…looks like a k6 --summary-export JSON"). */
export const FORMAT_DESCRIPTIONS: Record<FormatId, string> = {
  benchtrack: "Benchtrack JSON (benchtrack/v1)",
  "k6-summary": "k6 --summary-export JSON",
  "k6-handle-summary": "k6 handleSummary JSON",
  "k6-new-summary": "k6 --new-machine-readable-summary JSON",
  "k6-ndjson": "k6 --out json NDJSON",
  "locust-json": "Locust --json output",
  "locust-csv": "Locust --csv files",
  ghz: "ghz -O json report",
};

/** Names accepted by `?format=` (lower-cased), each standing for one or more formats. */
const FORMAT_ALIASES: Record<string, readonly FormatId[]> = {
  k6: ["k6-summary", "k6-handle-summary", "k6-new-summary", "k6-ndjson"],
  "k6-summary": ["k6-summary"],
  "k6-summary-export": ["k6-summary"],
  "summary-export": ["k6-summary"],
  "k6-handle-summary": ["k6-handle-summary"],
  "k6-handlesummary": ["k6-handle-summary"],
  handlesummary: ["k6-handle-summary"],
  "k6-new-summary": ["k6-new-summary"],
  "new-machine-readable-summary": ["k6-new-summary"],
  "k6-ndjson": ["k6-ndjson"],
  "k6-json": ["k6-ndjson"],
  locust: ["locust-json", "locust-csv"],
  "locust-json": ["locust-json"],
  "locust-csv": ["locust-csv"],
  ghz: ["ghz"],
  benchtrack: ["benchtrack"],
  "benchtrack/v1": ["benchtrack"],
  generic: ["benchtrack"],
};

export const FORMAT_NAMES = Object.keys(FORMAT_ALIASES);

/** The formats a `?format=` name allows; unknown names are "unsupported_format" (415). */
export function resolveFormatName(name: string): readonly FormatId[] {
  const formats = FORMAT_ALIASES[name.trim().toLowerCase()];
  if (!formats) {
    throw new InputError("unsupported_format", `Unknown format "${name.slice(0, 60)}"; supported: ${FORMAT_NAMES.join(", ")}`, [
      { path: "format", message: `expected one of ${FORMAT_NAMES.join(", ")}` },
    ]);
  }
  return formats;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A k6 handleSummary metric is `{type, values}`; a legacy export metric is a flat object of numbers. */
function isHandleSummaryMetric(value: unknown): boolean {
  return isRecord(value) && typeof value.type === "string" && isRecord(value.values);
}

function isGhzReport(value: unknown): boolean {
  return isRecord(value) && isRecord(value.options) && ("latencyDistribution" in value || "statusCodeDistribution" in value);
}

function isLocustStatsEntry(value: unknown): boolean {
  return isRecord(value) && "num_requests" in value && "response_times" in value;
}

/** Whether a decoded JSON value is the upload wrapper `{format?, metadata?, result}`. */
export function isUploadWrapper(value: unknown): value is { format?: unknown; metadata?: unknown; result: unknown } {
  if (!isRecord(value) || !("result" in value)) return false;
  return Object.keys(value).every((key) => key === "format" || key === "metadata" || key === "result");
}

/** The format of a decoded JSON document, or null when it looks like none of them. */
export function detectJsonFormat(value: unknown): FormatId | null {
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isGhzReport)) return "ghz";
    if (value.length > 0 && value.every(isLocustStatsEntry)) return "locust-json";
    return null;
  }
  if (!isRecord(value)) return null;
  if (value.schema === BENCHTRACK_SCHEMA_ID) return "benchtrack";
  if (isGhzReport(value)) return "ghz";
  if (isK6NewSummary(value)) return "k6-new-summary";
  if (isRecord(value.metrics) && "root_group" in value) {
    const metrics = Object.values(value.metrics);
    const looksHandleSummary =
      "state" in value || "options" in value || (metrics.length > 0 && metrics.every(isHandleSummaryMetric));
    return looksHandleSummary ? "k6-handle-summary" : "k6-summary";
  }
  return null;
}

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

/** The format of raw text, before any JSON decoding: NDJSON and CSV are recognised here. */
export function detectTextFormat(text: string): "k6-ndjson" | "locust-csv" | "json" | null {
  const start = text.replace(/^\uFEFF/, "").trimStart();
  const newline = start.indexOf("\n");
  const firstLine = start.slice(0, newline === -1 ? Math.min(start.length, MAX_NDJSON_FIRST_LINE + 1) : newline).replace(/\r$/, "");
  if (isNdjsonStart(firstLine)) return "k6-ndjson";
  if (start.startsWith("{") || start.startsWith("[")) return "json";
  if (locustCsvKindOf(start) !== null) return "locust-csv";
  return null;
}

/** A short description of content that matched no format, for the error message. */
export function describeContent(text: string): string {
  if (hasControlCharacters(text.slice(0, 4096))) return "binary data";
  const start = text.trimStart();
  if (start === "") return "empty";
  if (start.startsWith("{") || start.startsWith("[")) return "JSON of an unknown shape";
  if (start.includes(",") && start.includes("\n")) return "CSV without a known header";
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
