/**
 * The ingest entry point: raw upload (one body or several files, an optional `?format=`) → one
 * validated `ParsedRun`. Very large k6 NDJSON bodies should be streamed with `parseK6Ndjson` instead
 * (the service checks `isNdjsonStart` on the first line); a small one sent here is parsed from memory.
 *
 * How a format is chosen (docs: /docs/api, "Formats"): each file is inspected (detect.ts lists every
 * format whose markers match); `?format=` narrows that list; exactly one format left is used, several
 * are refused as ambiguous, none is refused listing what is accepted. Several files are one run only
 * when they form one of the FILE_SETS below. What each format is and how it is read is its tool's
 * descriptor (tools.ts lists them).
 */
import { InputError } from "../input-error";
import { endpointKey } from "../run";
import type { FormatId, ParsedRun } from "../run";
import { describeContent, formatsNamedBy, inspectFile, isUploadWrapper, type Inspection } from "./detect";
import { describeFormats, FORMATS, formatsInOrder, resolveFormatName } from "./formats";
import { applyRunMetadata, runMetadataSchema, type RunMetadata } from "./metadata";
import { thinTimelines } from "./timeline";
import { forEachLine } from "./text-lines";
import { FORMAT_DESCRIPTORS, TOOLS } from "./tools";
import { sourceOf, type DetectedFile, type UploadedFile } from "./uploaded-file";
import { validateParsedRun } from "./validate";
import { parseWire } from "./wire";

export { parseBenchtrack, runInputSchema, type RunInput } from "./benchtrack";
export { runDocumentSchema, toBenchtrackDocument, type RunDocument } from "./benchtrack";
export { isNdjsonStart } from "./detect";
export type { FormatInfo } from "./format-list";
export { FORMAT_NAMES, FORMATS, formatsInOrder, rawDownloadOf, resolveFormatName, TOOL_NAMES } from "./formats";
export { parseK6Ndjson } from "./k6";
export { applyRunMetadata, parseMetadataQuery, runMetadataSchema, type RunMetadata } from "./metadata";
export { validateParsedRun } from "./validate";
export type { UploadedFile } from "./uploaded-file";

export interface UploadInput {
  files: readonly UploadedFile[];
  /** The `?format=` value, if any (a tool such as "k6", a format id, or an older alias). */
  format?: string | null;
}

export interface ParsedUpload {
  run: ParsedRun;
  /** The format the content was read as: the answer to "what did you detect?". */
  format: FormatId;
}

/**
 * Several files that make one run, as each tool declares them (its descriptor's `fileSets`): a Locust CSV
 * set, one ghz report (JSON or CSV) per method, the reports of one vegeta attack (a JSON or text report
 * with its histogram), an artillery report.json with the console output that holds its ensure checks,
 * Criterion.rs's benchmark/estimates/sample.json files (matched into benchmarks by the folder in their
 * names), BenchmarkDotNet's full JSON reports (one per benchmark class) of one run, Valgrind's cachegrind
 * or callgrind files (one per benchmark, or one per callgrind dump) of one run. No format is in two sets,
 * so at most one set takes a list of files.
 */
const FILE_SETS = TOOLS.flatMap((tool) => tool.fileSets?.sets ?? []);

/** The file sets in words, for the refusal of files that make none: "Locust --csv files, …, or …". */
const FILE_SETS_IN_WORDS = joinAsList(TOOLS.flatMap((tool) => (tool.fileSets ? [tool.fileSets.description] : [])));

function joinAsList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")}, or ${items.at(-1)}`;
}

/**
 * Parses an upload. Metadata inside an upload wrapper `{format, metadata, result}` is applied here;
 * query-parameter metadata is the caller's to apply afterwards (it overrides the body).
 */
export function parseUpload(input: UploadInput): ParsedUpload {
  const { run, format } = readUpload(input);
  return { run: validateParsedRun(run), format };
}

/** An upload read as its format, not yet validated: parseUpload and parseUploadedRun validate it once, as they return it. */
function readUpload(input: UploadInput): ParsedUpload {
  const allowed = input.format ? resolveFormatName(input.format) : null;
  const files = input.files.filter((file) => file.text.trim() !== "");
  if (files.length === 0) {
    throw new InputError("malformed", "The upload is empty", [{ path: "body", message: "no content" }]);
  }
  const run = withRangeErrorsAsInput(() =>
    files.length === 1 && files[0] ? parseOneFile(files[0], allowed) : parseFileSet(files, allowed),
  );
  // Read as its format around the damage: refused all the same (binary garbage stays "undetectable").
  refuseNulBytes(files);
  return { run: nameByMethod(thinTimelines(run)), format: run.format };
}

/**
 * A parsed run as it is stored: the query's metadata applied (it overrides the body's), the aggregate's
 * custom metrics moved to the run (one place for them, as stored), and the result validated.
 */
export function completeRun(run: ParsedRun, metadata: RunMetadata): ParsedRun {
  return validateParsedRun(normalizeRunMetrics(applyRunMetadata(run, metadata)));
}

/** Custom metrics of the aggregate are the run's: one place for them, as stored (endpoint_id NULL). */
function normalizeRunMetrics(run: ParsedRun): ParsedRun {
  if (Object.keys(run.aggregate.metrics).length === 0) return run;
  return {
    ...run,
    metrics: { ...run.aggregate.metrics, ...run.metrics },
    aggregate: { ...run.aggregate, metrics: {} },
  };
}

/**
 * An upload of files, parsed and completed with the query's metadata, validated once (what it stores):
 * what the parse workers run (services/platform/cpu-pool.ts).
 */
export function parseUploadedRun(input: UploadInput & { metadata: RunMetadata }): ParsedUpload {
  const { run, format } = readUpload(input);
  return { run: completeRun(run, input.metadata), format };
}

/**
 * A NUL byte is in no text report any tool writes: a line that holds one is corrupted (a disk or a pipe
 * mixed binary into the file), and reading around it would drop what it held without a word (benchmark.js
 * text with two such lines lost two of its six benchmarks). The upload is refused, naming the lines.
 */
function refuseNulBytes(files: readonly UploadedFile[]): void {
  for (const [index, file] of files.entries()) {
    if (!file.text.includes("\u0000")) continue;
    const details: { path: string; message: string }[] = [];
    forEachLine(file.text, (line, lineNumber) => {
      if (details.length < 20 && line.includes("\u0000")) {
        details.push({
          path: `${sourceOf(file, index)}: line ${lineNumber}`,
          message: "holds a NUL byte: the file is corrupted",
        });
      }
    });
    throw new InputError(
      "wrong_format",
      `${details[0]!.path} holds a NUL byte (binary data in a text report): the file is corrupted; upload it again from the tool's output`,
      details,
    );
  }
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
    (methods.get(endpointKey(endpoint))?.size ?? 1) > 1 && endpoint.method
      ? { ...endpoint, name: `${endpoint.method} ${endpoint.name}` }
      : endpoint,
  );
  return { ...run, endpoints };
}

/** The format one file is read as, from what its content matched and what `?format=` allows. */
function chooseFormat(
  inspection: Exclude<Inspection, { kind: "ndjson" }>,
  file: UploadedFile,
  source: string,
  allowed: readonly FormatId[] | null,
): FormatId {
  // A file whose name says its format (as Locust names its CSVs) is of it, even when its header is broken (its parser says how).
  const named = inspection.formats.length === 0 ? formatsNamedBy(file.name) : [];
  const formats: readonly FormatId[] = named.length > 0 ? named : inspection.formats;
  const candidates = allowed ? formats.filter((format) => allowed.includes(format)) : formats;
  const [only, ...others] = candidates;
  if (only !== undefined && others.length === 0) return only;
  if (only !== undefined) {
    const message = `The content of ${source} matches several formats: ${describeFormats(candidates)}; pass ?format= to say which`;
    throw new InputError("undetectable_format", message, [
      { path: source, message: `matches ${candidates.join(", ")}` },
    ]);
  }
  if (allowed && formats.length > 0) throw wrongFormat(allowed, describeFormats(formats));
  // A declared format whose markers are missing: its parser says what is wrong with the content.
  const declared = allowed?.filter((format) => FORMAT_DESCRIPTORS[format].parser.kind === inspection.kind) ?? [];
  // Formats no content tells apart (github-action-benchmark's two directions): `?format=<tool>` must not pick one.
  if (declared.length > 1 && declared.every((format) => FORMAT_DESCRIPTORS[format].markers === undefined)) {
    throw new InputError("undetectable_format", `The content of ${source} cannot say which of ${describeFormats(declared)} it is; pass ?format= with one of ${declared.join(", ")}`, [
      { path: "query.format", message: `one of ${declared.join(", ")}` },
    ]);
  }
  if (declared[0] !== undefined) return declared[0];
  if (allowed) throw wrongFormat(allowed, describeContent(file.text));
  throw undetectable(source, describeContent(file.text));
}

function parseOneFile(file: UploadedFile, allowed: readonly FormatId[] | null): ParsedRun {
  const source = sourceOf(file);
  const inspection = inspectFile(file.text, file.name);
  if (inspection.kind === "ndjson") {
    checkAllowed(inspection.format, allowed);
    const parser = FORMAT_DESCRIPTORS[inspection.format].parser;
    if (parser.kind !== "ndjson") throw wrongFormat([inspection.format], describeContent(file.text));
    return parser.parse(file.text);
  }
  if (inspection.kind === "json" && isUploadWrapper(inspection.document))
    return parseWrapper(inspection.document, allowed);
  const format = chooseFormat(inspection, file, source, allowed);
  return parseAs(
    format,
    { ...file, format, document: inspection.kind === "json" ? inspection.document : undefined },
    source,
  );
}

function parseAs(format: FormatId, file: DetectedFile, source: string): ParsedRun {
  const parser = FORMAT_DESCRIPTORS[format].parser;
  if (parser.kind === "ndjson") throw wrongFormat([format], describeContent(file.text));
  if (parser.kind === "json") {
    if (file.document === undefined) throw wrongFormat([format], describeContent(file.text));
    return parser.parse(file.document);
  }
  return parser.parse(file.text, source);
}

function parseFileSet(files: readonly UploadedFile[], allowed: readonly FormatId[] | null): ParsedRun {
  const detected: DetectedFile[] = files.map((file, index) => {
    const source = sourceOf(file, index);
    const inspection = inspectFile(file.text, source);
    if (inspection.kind === "ndjson") {
      throw new InputError("malformed", "k6 NDJSON is uploaded alone, not as one of several files", [
        { path: source, message: "send the NDJSON file as the request body" },
      ]);
    }
    if (inspection.kind === "json" && isUploadWrapper(inspection.document)) {
      throw new InputError("malformed", "An upload wrapper is sent alone, not as one of several files", [
        { path: source, message: "send the wrapper as the request body" },
      ]);
    }
    const format = chooseFormat(inspection, file, source, allowed);
    return { ...file, format, document: inspection.kind === "json" ? inspection.document : undefined };
  });
  const set = FILE_SETS.find((candidate) => detected.every((file) => candidate.formats.includes(file.format)));
  if (set) return set.parse(detected);
  const kinds = detected.map((file, index) => `${sourceOf(file, index)}: ${FORMATS[file.format].title}`);
  throw new InputError("malformed", "These files do not make one run together", [
    {
      path: "files",
      message: `${kinds.join("; ")}. Several files make one run when they are ${FILE_SETS_IN_WORDS}`,
    },
  ]);
}

function parseWrapper(
  wrapper: { format?: unknown; metadata?: unknown; result: unknown },
  allowed: readonly FormatId[] | null,
): ParsedRun {
  let effective = allowed;
  if (effective === null && wrapper.format !== undefined && wrapper.format !== null) {
    if (typeof wrapper.format !== "string") {
      throw new InputError("malformed", "The wrapper's format must be a string", [
        { path: "format", message: "expected a string" },
      ]);
    }
    effective = resolveFormatName(wrapper.format, "format");
  }
  const metadata: RunMetadata =
    wrapper.metadata === undefined || wrapper.metadata === null
      ? {}
      : parseWire(runMetadataSchema, wrapper.metadata, "metadata object", "metadata.");
  const run = withPathPrefix("result", () =>
    typeof wrapper.result === "string"
      ? parseOneFile({ name: null, text: wrapper.result }, effective)
      : parseDocument(wrapper.result, effective),
  );
  return applyRunMetadata(run, metadata);
}

/** The wrapper's `result` given as JSON (not as a string): its format from its shape alone. */
function parseDocument(document: unknown, allowed: readonly FormatId[] | null): ParsedRun {
  if (isUploadWrapper(document)) {
    throw new InputError("malformed", "A wrapper's result cannot be another wrapper", [
      { path: "result", message: "nested wrapper" },
    ]);
  }
  const text = JSON.stringify(document);
  const inspection: Inspection = inspectFile(text, null);
  if (inspection.kind === "ndjson") throw wrongFormat(allowed ?? [], "k6 NDJSON");
  const format = chooseFormat(inspection, { name: null, text }, "result", allowed);
  return parseAs(format, { name: null, text, format, document }, "result");
}

function checkAllowed(detected: FormatId, allowed: readonly FormatId[] | null): void {
  if (allowed === null || allowed.includes(detected)) return;
  throw wrongFormat(allowed, FORMATS[detected].title);
}

function wrongFormat(allowed: readonly FormatId[], looksLike: string): InputError {
  const message = `The format given expects ${describeFormats(allowed)}, but the content looks like ${looksLike}`;
  return new InputError("wrong_format", message, [{ path: "format", message }]);
}

function undetectable(source: string, looksLike: string): InputError {
  const accepted = formatsInOrder().map((format) => format.title);
  return new InputError(
    "undetectable_format",
    `Could not tell the format of ${source === "body" ? "the upload" : source} (${looksLike}). Benchtrack reads: ${accepted.join("; ")}. Recipes for each tool: /docs/api#formats`,
    [
      {
        path: source,
        message: `not a format Benchtrack reads; pass ?format= if it is one of them (see /docs/api#formats)`,
      },
    ],
  );
}

/**
 * A safety net under the parsers: a value so far out of range that a JavaScript built-in gives up on it
 * (an invalid date, a number past what a histogram tracks, a call stack overflowed by a huge list) is the
 * file's fault, so a 400 naming it rather than a 500. Parsers check their values first; this catches
 * what a check missed.
 */
function withRangeErrorsAsInput<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    const message = `A value in the upload is out of any range Benchtrack can read (${error.message})`;
    throw new InputError("malformed", message, [{ path: "body", message: error.message }]);
  }
}

/** Errors inside a wrapper's `result` point into it: `metrics.http_reqs` → `result.metrics.http_reqs`. */
function withPathPrefix<T>(prefix: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const details = error.details.map((detail) => ({
      ...detail,
      path:
        detail.path === prefix || detail.path.startsWith(`${prefix}.`) || detail.path.startsWith(`${prefix}:`)
          ? detail.path
          : detail.path.startsWith("line ") || detail.path === "format" || detail.path === "body"
            ? `${prefix}: ${detail.path}`
            : `${prefix}.${detail.path}`,
    }));
    throw new InputError(error.code, error.message, details);
  }
}
