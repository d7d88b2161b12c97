/**
 * What a tool's folder declares about its formats, in one place: the descriptor its index.ts exports
 * (`K6_TOOL`, `LOCUST_TOOL`…). Each format says how the docs describe it, how its content is read, the
 * markers detection looks for and its latency resolution rule; the tool says which of its files make one
 * run together. The registries (format-list.ts, formats.ts, detect.ts, index.ts, resolution.ts) are all
 * derived from the one list of these descriptors, `tools.ts`.
 *
 * This file imports no tool (nor anything that does), so every tool's folder can import it without a cycle.
 */
import type { FormatId, ParsedRun } from "../run";
import type { DetectedFile } from "./uploaded-file";

/**
 * A format as the docs, the upload answer and error messages describe it: its name in messages, the tool
 * command that writes it, how to upload it, what its parser keeps and drops, its latency resolution in
 * words, and a ready upload recipe. `FORMAT_LIST` (format-list.ts) holds them all, in documentation order.
 */
export interface FormatInfo {
  id: FormatId;
  /** The tool, as `runs.tool` stores it and `?format=<tool>` names all its formats. */
  tool: string;
  /** The file name's extension a download of such an upload gets (".json", ".csv"…), as the tool names its files. */
  extension: `.${string}`;
  /** Short name used in messages: "vegeta report -type=json". */
  title: string;
  /** The tool command that writes the file (what CI already runs). */
  command: string;
  /** How to send it: one body (`curl --data-binary @file`), or several files as multipart (`curl -F`). */
  upload: "body" | "multipart" | "body or multipart";
  /** What the parser keeps. */
  keeps: string;
  /** What the file holds that the parser drops, or cannot know. */
  drops: string;
  /**
   * The latency resolution, for people: the smallest change a stored latency statistic can show
   * ("full precision" where the tool writes it unrounded). The rule itself is the format's `latency`.
   */
  resolution: string;
  /** Where the parser was checked: on the tool's real output, or only on files built from its documentation. */
  checkedOn: "real output" | "documented format";
  /** A ready-to-paste upload: `$AUTH` stands for the Authorization header option, `$RUNS` for the runs URL. */
  recipe: string;
  /** The file measures one target and does not name it (hey, vegeta): `?endpoint=` may name it. */
  unnamedTarget?: true;
}

/**
 * How a format's content is read once it is chosen: a decoded JSON document, the text (with the name
 * error paths call the file: "body", a file name), or a line stream told by its first line (k6 NDJSON,
 * which the service may also stream: `parseK6Ndjson`).
 */
export type FormatParser =
  | { kind: "json"; parse: (document: unknown) => ParsedRun }
  | { kind: "text"; parse: (text: string, source: string) => ParsedRun }
  | { kind: "ndjson"; parse: (text: string) => ParsedRun };

/**
 * What detection (detect.ts) looks for: the format's own markers, never a guess. Each is optional; the
 * order formats are tried in is `DETECTION_ORDER` in tools.ts (a format with a marker must be listed there).
 */
export interface FormatMarkers {
  /** The first line of a line stream (JSON Lines), looked at before any JSON is decoded; the first match wins. */
  firstLine?: (line: string) => boolean;
  /** A decoded JSON object; every match is listed. */
  json?: (value: Record<string, unknown>) => boolean;
  /** A decoded JSON array; the first match wins. */
  jsonArray?: (value: readonly unknown[]) => boolean;
  /** The start of a text (byte-order mark and leading blank lines removed); every match is listed. */
  text?: (start: string) => boolean;
  /** A file's name, asked only when no content marker matched (a named file with a broken header). */
  fileName?: (name: string | null) => boolean;
}

/** Which latency statistic a metric name is (resolution.ts). */
export type LatencyStat = "percentile" | "mean" | "min" | "max";

/** A format's rule: the step (ms) of a statistic of about `valueMs`; 0 when stored at full precision. */
export type ResolutionRule = (stat: LatencyStat, valueMs: number) => number;

export const FULL_PRECISION: ResolutionRule = () => 0;

/** A format's latency resolution (resolution.ts explains both sources and the two flags). */
export interface LatencyResolution {
  rule: ResolutionRule;
  /** OUR parser interpolates stored percentiles between the ranks of stepped samples. */
  interpolatedPercentiles?: true;
  /** The stored time is the reciprocal of a printed rate (1000 / ops/s). */
  reciprocalRate?: true;
}

/** One format of a tool: its FormatInfo (less the tool, which is the descriptor's), parser, markers, resolution. */
export interface FormatDescriptor {
  info: Omit<FormatInfo, "tool">;
  parser: FormatParser;
  markers?: FormatMarkers;
  latency: LatencyResolution;
}

/** Several files that make one run: each file's format is one of `formats`. */
export interface FileSet {
  formats: readonly FormatId[];
  parse: (files: readonly DetectedFile[]) => ParsedRun;
}

export interface ToolDescriptor {
  /** The tool, as `runs.tool` stores it and `?format=<tool>` names all its formats. */
  tool: string;
  /** Its formats, in documentation order. */
  formats: readonly FormatDescriptor[];
  /** Which of its files make one run together, and how the refusal of other sets words them. */
  fileSets?: { description: string; sets: readonly FileSet[] };
}
