/**
 * The ingest entry point: raw upload (one body or several files, an optional `?format=`) → one
 * validated `ParsedRun`. Very large k6 NDJSON bodies should be streamed with `parseK6Ndjson` instead
 * (the service checks `isNdjsonStart` on the first line); a small one sent here is parsed from memory.
 */
import { InputError } from "../input-error";
import { endpointKey } from "../run";
import type { FormatId, ParsedRun } from "../run";
import { parseBenchtrack } from "./benchtrack";
import {
  describeContent,
  detectJsonFormat,
  detectTextFormat,
  FORMAT_DESCRIPTIONS,
  isUploadWrapper,
  resolveFormatName,
} from "./detect";
import { parseGhz } from "./ghz";
import { K6NdjsonAccumulator } from "./k6-ndjson";
import { parseK6HandleSummary, parseK6NewSummary, parseK6SummaryExport } from "./k6-summary";
import { parseLocustCsv, type UploadedFile } from "./locust-csv";
import { parseLocustJson } from "./locust-json";
import { applyRunMetadata, runMetadataSchema, type RunMetadata } from "./metadata";
import { validateParsedRun } from "./validate";
import { parseJsonText, parseWire } from "./wire";

export { parseBenchtrack, runInputSchema, type RunInput } from "./benchtrack";
export { runDocumentSchema, toBenchtrackDocument, type RunDocument } from "./benchtrack-document";
export { FORMAT_DESCRIPTIONS, FORMAT_NAMES, isNdjsonStart, resolveFormatName } from "./detect";
export { parseK6Ndjson } from "./k6-ndjson";
export { applyRunMetadata, parseMetadataQuery, runMetadataSchema, type RunMetadata } from "./metadata";
export { validateParsedRun } from "./validate";
export type { UploadedFile } from "./locust-csv";

export interface UploadInput {
  files: readonly UploadedFile[];
  /** The `?format=` value, if any (an alias such as "k6" or "locust" is fine). */
  format?: string | null;
}

export interface ParsedUpload {
  run: ParsedRun;
  /** The format the content was read as: the answer to "what did you detect?". */
  format: FormatId;
}

const JSON_PARSERS: Partial<Record<FormatId, (document: unknown) => ParsedRun>> = {
  benchtrack: parseBenchtrack,
  "k6-summary": parseK6SummaryExport,
  "k6-handle-summary": parseK6HandleSummary,
  "k6-new-summary": parseK6NewSummary,
  "locust-json": parseLocustJson,
  ghz: parseGhz,
};

/**
 * Parses an upload. Metadata inside an upload wrapper `{format, metadata, result}` is applied here;
 * query-parameter metadata is the caller's to apply afterwards (it overrides the body).
 */
export function parseUpload(input: UploadInput): ParsedUpload {
  const allowed = input.format ? resolveFormatName(input.format) : null;
  const files = input.files.filter((file) => file.text.trim() !== "");
  if (files.length === 0) {
    throw new InputError("malformed", "The upload is empty", [{ path: "body", message: "no content" }]);
  }
  const parsed = files.length === 1 && files[0] ? parseOneFile(files[0], allowed) : parseFileSet(files, allowed);
  return { run: validateParsedRun(nameByMethod(parsed.run)), format: parsed.format };
}

/**
 * Locust names a request by its path unless told otherwise, so `GET /items` and `POST /items` are two
 * rows of one name. They are two endpoints: where one name (and protocol) comes with several methods,
 * each is named "METHOD name". Any other repeat is refused by validateParsedRun.
 */
export function nameByMethod(run: ParsedRun): ParsedRun {
  const methods = new Map<string, Set<string | null>>();
  for (const endpoint of run.endpoints) {
    const key = endpointKey(endpoint);
    methods.set(key, (methods.get(key) ?? new Set()).add(endpoint.method));
  }
  if ([...methods.values()].every((set) => set.size === 1)) return run;
  const endpoints = run.endpoints.map((endpoint) =>
    (methods.get(endpointKey(endpoint))?.size ?? 1) > 1 && endpoint.method ? { ...endpoint, name: `${endpoint.method} ${endpoint.name}` } : endpoint,
  );
  return { ...run, endpoints };
}

/** The format of an upload judged from its content alone (no validation), or null when nothing matches. */
export function detectFormat(files: readonly UploadedFile[]): FormatId | null {
  const nonEmpty = files.filter((file) => file.text.trim() !== "");
  const kinds = nonEmpty.map((file) => detectTextFormat(file.text));
  if (nonEmpty.length === 0) return null;
  if (kinds.every((kind) => kind === "locust-csv")) return "locust-csv";
  if (nonEmpty.length === 1 && kinds[0] === "k6-ndjson") return "k6-ndjson";
  if (!kinds.every((kind) => kind === "json")) return null;
  const formats = nonEmpty.map((file) => {
    try {
      return detectDocumentFormat(parseJsonText(file.text));
    } catch {
      return null;
    }
  });
  if (formats.length === 1) return formats[0] ?? null;
  return formats.every((format) => format === "ghz") ? "ghz" : null;
}

function detectDocumentFormat(document: unknown): FormatId | null {
  if (!isUploadWrapper(document)) return detectJsonFormat(document);
  if (typeof document.result !== "string") return detectJsonFormat(document.result);
  const kind = detectTextFormat(document.result);
  return kind === "json" ? null : kind;
}

function parseFileSet(files: readonly UploadedFile[], allowed: readonly FormatId[] | null): ParsedUpload {
  const kinds = files.map((file) => detectTextFormat(file.text) ?? (file.name?.endsWith(".csv") ? "locust-csv" : null));
  if (kinds.every((kind) => kind === "locust-csv")) {
    checkAllowed("locust-csv", allowed);
    return { run: parseLocustCsv(files), format: "locust-csv" };
  }
  if (kinds.every((kind) => kind === "json")) {
    const documents = files.map((file, index) => parseJsonText(file.text, file.name ?? `file ${index + 1}`));
    if (documents.every((document) => detectJsonFormat(document) === "ghz")) {
      checkAllowed("ghz", allowed);
      return { run: parseGhz(documents), format: "ghz" };
    }
  }
  throw new InputError("malformed", "Several files can only be combined when they are Locust CSVs or ghz reports", [
    { path: "files", message: `${files.length} files of kinds: ${kinds.map((kind) => kind ?? "unknown").join(", ")}` },
  ]);
}

function parseOneFile(file: UploadedFile, allowed: readonly FormatId[] | null): ParsedUpload {
  const source = file.name;
  const kind = detectTextFormat(file.text) ?? (file.name?.endsWith(".csv") ? "locust-csv" : null);
  if (kind === "k6-ndjson") {
    checkAllowed("k6-ndjson", allowed);
    const accumulator = new K6NdjsonAccumulator();
    for (const line of file.text.split(/\r?\n/)) accumulator.addLine(line);
    return { run: accumulator.finish(), format: "k6-ndjson" };
  }
  if (kind === "locust-csv") {
    checkAllowed("locust-csv", allowed);
    return { run: parseLocustCsv([file]), format: "locust-csv" };
  }
  if (kind === "json") return parseDocument(parseJsonText(file.text, source), allowed);

  // Nothing recognisable. With a declared format, let that format's parser say what is wrong.
  if (allowed?.includes("locust-csv") && describeContent(file.text) !== "binary data") {
    return { run: parseLocustCsv([file]), format: "locust-csv" };
  }
  if (allowed) throw wrongFormat(allowed, describeContent(file.text));
  throw new InputError("undetectable_format", `Could not tell the format of the upload (${describeContent(file.text)})`, [
    { path: source ?? "body", message: `expected one of: ${Object.values(FORMAT_DESCRIPTIONS).join("; ")}; or pass ?format=` },
  ]);
}

function parseDocument(document: unknown, allowed: readonly FormatId[] | null): ParsedUpload {
  if (isUploadWrapper(document)) return parseWrapper(document, allowed);
  const detected = detectJsonFormat(document);
  if (detected !== null) {
    checkAllowed(detected, allowed);
    return { run: parseJsonDocument(detected, document), format: detected };
  }
  // A declared format whose content does not match its markers: its schema explains what is missing.
  const declared = allowed?.find((format) => JSON_PARSERS[format] !== undefined);
  if (declared) return { run: parseJsonDocument(declared, document), format: declared };
  if (allowed) throw wrongFormat(allowed, "JSON of an unknown shape");
  throw new InputError("undetectable_format", "Could not tell the format of the JSON upload", [
    { path: "body", message: `expected one of: ${Object.values(FORMAT_DESCRIPTIONS).join("; ")}; or pass ?format=` },
  ]);
}

function parseWrapper(
  wrapper: { format?: unknown; metadata?: unknown; result: unknown },
  allowed: readonly FormatId[] | null,
): ParsedUpload {
  let effective = allowed;
  if (effective === null && wrapper.format !== undefined && wrapper.format !== null) {
    if (typeof wrapper.format !== "string") {
      throw new InputError("malformed", "The wrapper's format must be a string", [{ path: "format", message: "expected a string" }]);
    }
    effective = resolveFormatName(wrapper.format);
  }
  const metadata: RunMetadata =
    wrapper.metadata === undefined || wrapper.metadata === null
      ? {}
      : parseWire(runMetadataSchema, wrapper.metadata, "metadata object", "metadata.");
  const parsed = withPathPrefix("result", () =>
    typeof wrapper.result === "string"
      ? parseOneFile({ name: null, text: wrapper.result }, effective)
      : parseDocument(wrapper.result, effective),
  );
  return { run: applyRunMetadata(parsed.run, metadata), format: parsed.format };
}

function parseJsonDocument(format: FormatId, document: unknown): ParsedRun {
  const parser = JSON_PARSERS[format];
  if (!parser) throw new Error(`no JSON parser for ${format}`); // unreachable: callers pick from JSON_PARSERS
  return parser(document);
}

function checkAllowed(detected: FormatId, allowed: readonly FormatId[] | null): void {
  if (allowed === null || allowed.includes(detected)) return;
  throw wrongFormat(allowed, FORMAT_DESCRIPTIONS[detected]);
}

function wrongFormat(allowed: readonly FormatId[], looksLike: string): InputError {
  const expected = allowed.map((format) => FORMAT_DESCRIPTIONS[format]).join(" or ");
  const message = `The format given expects ${expected}, but the content looks like ${looksLike}`;
  return new InputError("wrong_format", message, [{ path: "format", message }]);
}

/** Errors inside a wrapper's `result` point into it: `metrics.http_reqs` → `result.metrics.http_reqs`. */
function withPathPrefix<T>(prefix: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const details = error.details.map((detail) => ({
      ...detail,
      path: detail.path.startsWith("line ") || detail.path === "format" ? `${prefix}: ${detail.path}` : `${prefix}.${detail.path}`,
    }));
    throw new InputError(error.code, error.message, details);
  }
}
