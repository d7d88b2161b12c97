/**
 * The format registry's lookups over FORMAT_LIST (`format-list.ts`: every format, what each keeps and
 * drops, its recipe): formats by id and in order, the tools, and the names `?format=` accepts. Detection
 * (`detect.ts`) and the parsers (`index.ts`) use the ids; the upload answer, error messages, the OpenAPI
 * document, docs/uploading.md and `/docs/api` use the rest, so the docs cannot drift from the code.
 */
import { InputError } from "../input-error";
import { FORMAT_IDS, type FormatId } from "../run";
import { FORMAT_LIST, type FormatInfo } from "./format-list";

export const FORMATS: Readonly<Record<FormatId, FormatInfo>> = Object.fromEntries(
  FORMAT_LIST.map((format) => [format.id, format]),
) as Record<FormatId, FormatInfo>;

/** Formats in documentation order (by tool). */
export function formatsInOrder(): readonly FormatInfo[] {
  return FORMAT_LIST;
}

/** The tools, in documentation order: `?format=<tool>` allows every format of that tool. */
export const TOOL_NAMES: readonly string[] = [...new Set(FORMAT_LIST.map((format) => format.tool))];

/** Older and longer names kept working in `?format=`. */
const LEGACY_ALIASES: Readonly<Record<string, readonly FormatId[]>> = {
  "k6-summary-export": ["k6-summary"],
  "summary-export": ["k6-summary"],
  "k6-handlesummary": ["k6-handle-summary"],
  handlesummary: ["k6-handle-summary"],
  "new-machine-readable-summary": ["k6-new-summary"],
  "k6-json": ["k6-ndjson"],
  "ghz-json": ["ghz"],
  "ghz-pretty": ["ghz"],
  "benchtrack/v1": ["benchtrack"],
  generic: ["benchtrack"],
  jtl: ["jmeter-csv", "jmeter-xml"],
  "cachegrind-out": ["cachegrind"],
  "callgrind-out": ["callgrind"],
  "iai-callgrind": ["callgrind"],
  // github-action-benchmark's `tool:` names for its custom JSON, and Bencher's name for its format.
  customsmallerisbetter: ["custom-smaller-is-better"],
  custombiggerisbetter: ["custom-bigger-is-better"],
  bmf: ["bencher-bmf"],
};

/** Every name `?format=` accepts: the tools, then each format id, then the older aliases. */
export const FORMAT_NAMES: readonly string[] = [
  ...TOOL_NAMES,
  ...FORMAT_IDS.filter((id) => !TOOL_NAMES.includes(id)),
  ...Object.keys(LEGACY_ALIASES),
];

/** The formats a `?format=` name allows; an unknown name is a 400 that lists the accepted ones. */
export function resolveFormatName(name: string, path = "query.format"): readonly FormatId[] {
  const key = name.trim().toLowerCase();
  if (TOOL_NAMES.includes(key)) return FORMAT_LIST.filter((format) => format.tool === key).map((format) => format.id);
  if ((FORMAT_IDS as readonly string[]).includes(key)) return [key as FormatId];
  const legacy = LEGACY_ALIASES[key];
  if (legacy) return legacy;
  const accepted = `a tool (${TOOL_NAMES.join(", ")}) or a format (${FORMAT_IDS.filter((id) => !TOOL_NAMES.includes(id)).join(", ")})`;
  throw new InputError(
    "malformed",
    `Unknown format "${name.slice(0, 60)}": give ${accepted}, or leave format out to detect it; see /docs/api`,
    [{ path, message: `expected ${accepted}` }],
  );
}

/** The format table of docs/uploading.md ("Formats"): formats.test.ts checks the page holds it as is. */
export function formatTableMarkdown(): string {
  const cell = (text: string) => text.replaceAll("|", "\\|");
  const rows = FORMAT_LIST.map((format) => {
    const note =
      format.checkedOn === "documented format"
        ? " (built from the tool's documentation: no real output could be made here)"
        : "";
    return `| ${format.tool} | ${cell(format.title)} (\`${format.id}\`)${note} | \`${cell(format.command)}\` | ${format.upload} | ${cell(format.keeps)} | ${cell(format.drops)} | ${cell(format.resolution)} |`;
  });
  return [
    "| tool | format (`?format=` id) | written by | send as | keeps | drops | latency resolution |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
}

/** "vegeta report -type=json or vegeta report -type=text": the formats a name allowed, for messages. */
export function describeFormats(formats: readonly FormatId[]): string {
  return formats.map((format) => FORMATS[format].title).join(" or ");
}


/** Content types of the extensions formats have; every other (.txt, .out, .html, .md…) downloads as plain text, never as a page a browser would render. */
const DOWNLOAD_TYPES: Readonly<Record<string, string>> = {
  ".json": "application/json",
  ".ndjson": "application/x-ndjson",
  ".csv": "text/csv; charset=utf-8",
  ".xml": "application/xml",
};

/**
 * What a download of an uploaded file is named and typed as: its own name when it came with one (a
 * multipart part; the format's extension added when it has none), else the run's id and format with the
 * format's extension (`<run>-k6-summary.json`); the type told by the extension. Only letters, digits,
 * dots, dashes and underscores are kept, so the name is safe in a Content-Disposition header.
 */
export function rawDownloadOf(format: string, runId: string, fileName: string | null): { name: string; contentType: string } {
  const extension = (FORMATS as Readonly<Record<string, FormatInfo | undefined>>)[format]?.extension ?? ".txt";
  const given = fileName?.split(/[\\/]/).pop() || null;
  const name = given === null ? `${runId}-${format}${extension}` : /\.\w+$/.test(given) ? given : `${given}${extension}`;
  const ownExtension = /\.\w+$/.exec(name)![0].toLowerCase();
  return { name: name.replace(/[^\w.-]/g, "_"), contentType: DOWNLOAD_TYPES[ownExtension] ?? "text/plain; charset=utf-8" };
}
