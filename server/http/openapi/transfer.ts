import { importAnswerSchema, transferLineSchema } from "../../schemas/transfer";
import type { ApiResource } from "./building-blocks";
import { answer, operation, projectParameter, ref, request, success } from "./building-blocks";

/** A project's export and import (its maintainers): the NDJSON file of docs/operations.md, "Export and import". */
export const transferResource: ApiResource = {
  schemas: {
    ExportLine: answer(transferLineSchema),
    ImportLine: request(transferLineSchema),
    ImportAnswer: answer(importAnswerSchema),
  },
  paths: {
    "/api/v1/projects/{project}/export": {
      parameters: [projectParameter],
      get: operation({
        operationId: "exportProject",
        tag: "projects",
        summary: "The project whole as NDJSON (its maintainers): one snapshot, streamed",
        description:
          "Lines: header (format version, time, server version, slug), project (settings, SLA policy; the webhook URL, never its secret), " +
          "endpoint…, run… (every column as stored, with its results and metrics) each followed by its raw upload files (the stored gzip in base64, null once " +
          "retention dropped it), annotation…, pin…, incident… (with events), change…, and an end line with the counts. Read in one read-only " +
          "REPEATABLE READ transaction, in batches. Project tokens may not export: their tokens and share links are not in the file.",
        security: "token",
        responses: {
          "200": {
            description: "The export, one ExportLine a line.",
            content: { "application/x-ndjson": { schema: ref("schemas", "ExportLine") } },
          },
        },
      }),
    },
    "/api/v1/projects/{project}/import": {
      parameters: [projectParameter],
      post: operation({
        operationId: "importProject",
        tag: "projects",
        summary: "Read an export back into this project (its maintainers): all or nothing, idempotent",
        description:
          "The body is an export (Content-Encoding: gzip accepted), read line by line: each line is validated by its kind's schema (400 naming " +
          "`line N: path`), the whole file within BENCHTRACK_MAX_IMPORT_BYTES and each line within BENCHTRACK_MAX_IMPORT_LINE_CHARS (413). Rows are stored " +
          "as exported, with their ids, never re-parsed; a run already in the project (same id and body hash) is left as it is, so importing a file " +
          "twice creates nothing new. One transaction: a refused file writes nothing. The project's settings take the file's; its webhook stays its own. " +
          "A run of another project of this server is a 409.",
        security: "token",
        requestBody: { required: true, content: { "application/x-ndjson": { schema: ref("schemas", "ImportLine") } } },
        responses: { "200": success("Imported.", "ImportAnswer") },
        errors: ["Unauthorized", "Forbidden", "NotFound", "Conflict", "PayloadTooLarge", "UnsupportedMediaType"],
      }),
    },
  },
};
