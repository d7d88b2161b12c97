/**
 * Which format an upload is in, from its content alone. Detection only looks at each format's own
 * markers (top-level JSON keys, the first NDJSON line, a CSV header, a text report's first line); the
 * format's parser then validates everything. Every format whose markers match is listed, so a content
 * that looks like two formats is never settled by a silent guess (index.ts refuses it and asks for
 * `?format=`). Text reports are recognised by their own markers, never as "some CSV".
 *
 * Each format's markers are declared by its tool (the descriptor in its folder's index.ts); the order they
 * are tried in, which decides first matches and how an ambiguity is worded, is DETECTION_ORDER (tools.ts).
 */
import type { FormatId } from "../run";
import { firstLineOf, headerColumns, isRecord, MAX_NDJSON_FIRST_LINE } from "./markers";
import type { FormatMarkers } from "./tool-descriptor";
import { DETECTION_ORDER, FORMAT_DESCRIPTORS } from "./tools";
import { parseJsonText } from "./wire";

export { isNdjsonStart } from "./k6";
export { MAX_NDJSON_FIRST_LINE } from "./markers";

/** One kind of marker, in DETECTION_ORDER (tools.ts), each with its format. */
function markersOf<Kind extends keyof FormatMarkers>(
  kind: Kind,
): readonly { format: FormatId; matches: NonNullable<FormatMarkers[Kind]> }[] {
  const listed = DETECTION_ORDER[kind];
  const unlisted = Object.values(FORMAT_DESCRIPTORS).filter(
    (format) => format.markers?.[kind] !== undefined && !listed.includes(format.info.id),
  );
  if (unlisted.length > 0) {
    throw new Error(
      `tools.ts: DETECTION_ORDER.${kind} leaves out ${unlisted.map((format) => format.info.id).join(", ")}`,
    );
  }
  return listed.map((format) => {
    const matches = FORMAT_DESCRIPTORS[format].markers?.[kind];
    if (matches === undefined)
      throw new Error(`tools.ts: DETECTION_ORDER.${kind} lists ${format}, which has no such marker`);
    return { format, matches };
  });
}

/** Line streams told by their first line (k6 NDJSON, go test -json): the first match decides. */
const FIRST_LINE_MARKERS = markersOf("firstLine");
/** JSON arrays: the first match decides (a ghz array, a Locust stats list, a JMH result). */
const JSON_ARRAY_MARKERS = markersOf("jsonArray");
/** JSON objects: each format's top-level keys; every match is listed. */
const JSON_MARKERS = markersOf("json");
/**
 * Text markers, each looking at the start of the text (BOM and leading blank lines removed). Each is
 * the tool's own fixed wording, so two formats never match the same text in practice; if they ever
 * did, both would be listed and the upload refused with a request for `?format=`.
 */
const TEXT_MARKERS = markersOf("text");
/** File names, asked only when no content marker matched (a Locust CSV with a broken header). */
const FILE_NAME_MARKERS = markersOf("fileName");

/** Every format a decoded JSON document looks like (none, one, or, for an odd document, several). */
export function detectJsonFormats(value: unknown): FormatId[] {
  if (Array.isArray(value)) {
    const marker = JSON_ARRAY_MARKERS.find((candidate) => candidate.matches(value));
    return marker ? [marker.format] : [];
  }
  if (!isRecord(value)) return [];
  return JSON_MARKERS.filter((marker) => marker.matches(value)).map((marker) => marker.format);
}

/** Whether a decoded JSON value is the upload wrapper `{format?, metadata?, result}`. */
export function isUploadWrapper(value: unknown): value is { format?: unknown; metadata?: unknown; result: unknown } {
  if (!isRecord(value) || !("result" in value)) return false;
  return Object.keys(value).every((key) => key === "format" || key === "metadata" || key === "result");
}

/** The formats a file's name says it is, for a file whose content matched none (index.ts decides). */
export function formatsNamedBy(name: string | null): FormatId[] {
  return FILE_NAME_MARKERS.filter((marker) => marker.matches(name)).map((marker) => marker.format);
}

/** The text with a byte-order mark and leading whitespace removed: where markers look. */
function textStart(text: string): string {
  return text.replace(/^\uFEFF/, "").trimStart();
}

/** What an upload file is, judged from its content: NDJSON, a JSON document (decoded), or text. */
export type Inspection =
  | { kind: "ndjson"; format: FormatId }
  | { kind: "json"; document: unknown; formats: FormatId[] }
  | { kind: "text"; formats: FormatId[] };

/**
 * Inspects one file: a line stream (k6 NDJSON, go test -json) by its first line, JSON by its first
 * character (a JSON syntax error is reported with line and column), any other text by the markers above.
 */
export function inspectFile(text: string, source: string | null): Inspection {
  const start = textStart(text);
  const firstLine = firstLineOf(start).slice(0, MAX_NDJSON_FIRST_LINE + 1);
  const stream = FIRST_LINE_MARKERS.find((marker) => marker.matches(firstLine));
  // k6 NDJSON is read line by line; `go test -json` (test2json events) as text by its parser.
  if (stream) {
    return FORMAT_DESCRIPTORS[stream.format].parser.kind === "ndjson"
      ? { kind: "ndjson", format: stream.format }
      : { kind: "text", formats: [stream.format] };
  }
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
