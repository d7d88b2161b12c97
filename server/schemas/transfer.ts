import { z } from "zod";
import { int, timeSchema } from "./transfer-fields";
import { endpointLineSchema, projectLineSchema, shareLinkLineSchema, tokenLineSchema, userLineSchema } from "./transfer-project-lines";
import { annotationLineSchema, changeLineSchema, incidentLineSchema, pinLineSchema, rawLineSchema, runLineSchema } from "./transfer-run-lines";

/**
 * The export file (docs/operations.md, "Export and import"): NDJSON, one object a line, each line's kind
 * in `kind` and validated by the ONE schema of that kind (TRANSFER_LINE_SCHEMAS below: the header and end
 * lines here, the others in transfer-project-lines.ts and transfer-run-lines.ts). A project export is
 *   header, project, endpoint…, run (with its results and metrics) and raw…, annotation…, pin…,
 *   incident (with its events)…, change…, end
 * and a server backup (`npm run backup`) is a header of scope "server", the server's users (user…), then
 * each project's lines (its tokens' hashes and share links too), then one end line. Rows are written as stored: exact numbers
 * (non-finite ones as the strings "NaN", "Infinity", "-Infinity"), the original ids, times in ISO 8601
 * UTC, raw uploads as the stored gzip in base64. Importing never re-parses a raw upload.
 */

/** The format this server writes, and the newest it reads. */
export const TRANSFER_FORMAT_VERSION = 1;
export const TRANSFER_FORMAT = "benchtrack-export";

export const headerLineSchema = z
  .object({
    kind: z.literal("header"),
    format: z.literal(TRANSFER_FORMAT),
    version: z
      .number()
      .int()
      .positive()
      .max(TRANSFER_FORMAT_VERSION, `this server reads format version ${TRANSFER_FORMAT_VERSION} and older; the file was written by a newer Benchtrack`),
    scope: z.enum(["project", "server"]).describe('"project": one project\'s export; "server": a backup (npm run backup)'),
    exportedAt: timeSchema,
    serverVersion: z.string().max(100),
    /** The exported project's slug (scope "project"). */
    project: z.string().max(100).nullable(),
  })
  .strict();

/** The last line: what was written, so a file cut short (a dropped connection, a full disk) is refused, not half imported. */
export const endLineSchema = z
  .object({
    kind: z.literal("end"),
    projects: int.nonnegative(),
    runs: int.nonnegative(),
    lines: int.nonnegative().describe("every line of the file before this one, the header included"),
  })
  .strict();

/** One schema per line kind: the importer picks it by `kind` and validates the line with it alone. */
export const TRANSFER_LINE_SCHEMAS = {
  header: headerLineSchema,
  user: userLineSchema,
  project: projectLineSchema,
  token: tokenLineSchema,
  shareLink: shareLinkLineSchema,
  endpoint: endpointLineSchema,
  run: runLineSchema,
  raw: rawLineSchema,
  annotation: annotationLineSchema,
  pin: pinLineSchema,
  incident: incidentLineSchema,
  change: changeLineSchema,
  end: endLineSchema,
} as const;

export type TransferLineKind = keyof typeof TRANSFER_LINE_SCHEMAS;
export type TransferLine = { [Kind in TransferLineKind]: z.input<(typeof TRANSFER_LINE_SCHEMAS)[Kind]> }[TransferLineKind];
export type ParsedTransferLine<Kind extends TransferLineKind> = z.output<(typeof TRANSFER_LINE_SCHEMAS)[Kind]>;

/** What POST /projects/:p/import answers: what the file held, and what of it was new. */
export const importAnswerSchema = z
  .object({
    project: z.string().describe("The project imported into (its slug)."),
    lines: z.number().int().describe("Lines read, the header and end line included."),
    runs: z.object({ inFile: z.number().int(), created: z.number().int(), alreadyPresent: z.number().int() }).strict(),
    created: z
      .record(z.string(), z.number().int())
      .describe("Rows created per kind (endpoint, raw, annotation, pin, incident, change, member): 0 everywhere for a file imported before."),
  })
  .strict()
  .describe("The import's outcome: every line was validated and written in one transaction.");
export type ImportAnswer = z.infer<typeof importAnswerSchema>;

/** Any line of the file, for the OpenAPI document (the importer picks each line's schema by its kind). */
export const transferLineSchema = z
  .discriminatedUnion("kind", [
    headerLineSchema,
    userLineSchema,
    projectLineSchema,
    tokenLineSchema,
    shareLinkLineSchema,
    endpointLineSchema,
    runLineSchema,
    rawLineSchema,
    annotationLineSchema,
    pinLineSchema,
    incidentLineSchema,
    changeLineSchema,
    endLineSchema,
  ])
  .describe("One line of an export file (NDJSON: one JSON object a line, chosen by `kind`).");
