import { runDocumentSchema } from "../../domain/parsers/benchtrack";
import { runInputSchema } from "../../domain/parsers/benchtrack";
import { FORMAT_NAMES } from "../../domain/parsers/formats";
import { runMetadataSchema } from "../../domain/parsers/metadata";
import {
  listRunsQuerySchema,
  rawFileListSchema,
  runListSchema,
  runVerdictSchema,
  storedRunSchema,
  uploadResponseSchema,
  uploadWrapperSchema,
} from "../../schemas/runs";
import { deletedRunSchema } from "../../schemas/audit";
import type { ApiResource } from "./building-blocks";
import { answer, operation, projectParameter, queryParameters, ref, request, runIdParameter, success } from "./building-blocks";
import type { JsonSchema } from "./json-schema";

/**
 * The metadata query parameters of an upload, from runMetadataSchema; `attributes` becomes `attr.<key>`
 * and `config` becomes `config.<key>`.
 */
function metadataParameters(): Record<string, JsonSchema> {
  const parameters: Record<string, JsonSchema> = {};
  for (const parameter of queryParameters(runMetadataSchema)) {
    const name = String(parameter.name);
    if (name === "attributes") {
      const attributes = parameter.schema as JsonSchema;
      parameters.attr = {
        name: "attr.<key>",
        in: "query",
        required: false,
        description:
          "One parameter per attribute, named attr. followed by the key, e.g. attr.db=postgres15&attr.region=eu. " +
          "The name is a pattern, not a literal.",
        schema: attributes.additionalProperties ?? { type: "string" },
        "x-name-pattern": "^attr\\..+$",
      };
    } else if (name === "config") {
      parameters.config = {
        name: "config.<key>",
        in: "query",
        required: false,
        description:
          `${String(parameter.description)} One parameter per key, e.g. config.vus=50 or config.rate=200. ` +
          "The name is a pattern, not a literal.",
        schema: { type: "string" },
        "x-name-pattern": "^config\\..+$",
      };
    } else {
      parameters[name] = parameter;
    }
  }
  return parameters;
}

const metadata = metadataParameters();

const failOnParameter = {
  name: "fail_on",
  in: "query",
  required: false,
  description:
    "What fails the verdict: regression, sla, thresholds (comma-separated) or none. Default: the project's setting " +
    "(regression,sla) plus thresholds: a threshold the tool evaluated and failed (k6) fails the run.",
  schema: { type: "string" },
};

const uploadOperation = operation({
  operationId: "uploadRun",
  tag: "runs",
  summary: "Upload a run",
  description:
    "The body is a tool's raw output (k6 --summary-export or handleSummary JSON, k6 --out json NDJSON, Locust --json, " +
    "Locust --csv files as multipart, one or several ghz -O json reports), the Benchtrack JSON format, or the wrapper " +
    "`{format, metadata, result}`. The format is detected from the content unless ?format= is given; the answer names it. " +
    "The Content-Type curl --data-binary sends by default (application/x-www-form-urlencoded) is ignored. " +
    "Metadata query parameters override the body. With the admin token, a missing project is created. " +
    "The answer carries the CI verdict against the run's baseline; with Accept: text/markdown it is a PR comment.",
  security: "token",
  parameters: [
    ref("parameters", "format"),
    ...Object.keys(metadata).map((name) => ref("parameters", `metadata.${name}`)),
    ref("parameters", "idempotencyKeyQuery"),
    ref("parameters", "idempotencyKey"),
    ref("parameters", "contentEncoding"),
    ref("parameters", "failOn"),
  ],
  requestBody: {
    required: true,
    content: {
      "application/json": {
        schema: {
          anyOf: [
            ref("schemas", "RunInput"),
            ref("schemas", "UploadWrapper"),
            { description: "A tool's JSON output: k6 summary, Locust --json, ghz report (or an array of them)." },
          ],
        },
      },
      "application/x-ndjson": {
        schema: { type: "string", description: "k6 --out json points, one JSON object per line. Streamed." },
      },
      "text/csv": { schema: { type: "string", description: "A Locust --csv file (*_stats.csv)." } },
      "multipart/form-data": {
        schema: {
          type: "object",
          description:
            "Several files, one part each (field names are free): Locust CSVs (*_stats.csv, optionally " +
            "*_stats_history.csv and *_failures.csv) or several ghz reports.",
          additionalProperties: { type: "string", contentMediaType: "application/octet-stream" },
        },
      },
    },
  },
  responses: {
    "200": success("Replayed: this Idempotency-Key already stored this run.", "UploadResponse", { markdown: true }),
    "201": success("Created.", "UploadResponse", { markdown: true }),
  },
  errors: ["BadRequest", "Unauthorized", "Forbidden", "NotFound", "Conflict", "PayloadTooLarge", "UnsupportedMediaType", "Unprocessable"],
});

/** Runs: one upload = one run, immutable; read back, listed, judged. */
export const runsResource: ApiResource = {
  schemas: {
    RunInput: request(runInputSchema),
    RunDocument: answer(runDocumentSchema),
    StoredRun: answer(storedRunSchema),
    DeletedRun: answer(deletedRunSchema),
    RunMetadata: request(runMetadataSchema),
    UploadWrapper: request(uploadWrapperSchema),
    UploadResponse: answer(uploadResponseSchema),
    RunList: answer(runListSchema),
    RawFileList: answer(rawFileListSchema),
    RunVerdict: answer(runVerdictSchema),
  },
  parameters: {
    failOn: failOnParameter,
    format: {
      name: "format",
      in: "query",
      required: false,
      description:
        "The upload's format; detected from the content when absent. A tool's name (k6, locust, ghz, vegeta, hey, wrk, autocannon, artillery, jmeter, benchtrack) allows all its formats; a format id names one. An unknown name is a 400 listing them.",
      schema: { type: "string", enum: [...FORMAT_NAMES] },
    },
    ...Object.fromEntries(Object.entries(metadata).map(([name, parameter]) => [`metadata.${name}`, parameter])),
    idempotencyKey: {
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description: "A retried upload with the same key returns the first run (200); the same key with another body is a 409.",
      schema: { type: "string", minLength: 1, maxLength: 255 },
    },
    idempotencyKeyQuery: {
      name: "idempotency_key",
      in: "query",
      required: false,
      description: "The Idempotency-Key, as a query parameter.",
      schema: { type: "string", minLength: 1, maxLength: 255 },
    },
    contentEncoding: {
      name: "Content-Encoding",
      in: "header",
      required: false,
      description:
        "gzip to send the body compressed (limits: BENCHTRACK_MAX_BODY_BYTES compressed, BENCHTRACK_MAX_DECOMPRESSED_BYTES after).",
      schema: { type: "string", enum: ["gzip", "x-gzip", "identity"] },
    },
  },
  paths: {
    "/api/v1/projects/{project}/runs": {
      parameters: [projectParameter],
      post: uploadOperation,
      get: operation({
        operationId: "listRuns",
        tag: "runs",
        summary: "List runs, newest first",
        security: "read",
        parameters: queryParameters(listRunsQuerySchema),
        responses: { "200": success("A page of runs.", "RunList") },
      }),
    },
    "/api/v1/projects/{project}/runs/{id}": {
      parameters: [projectParameter, runIdParameter],
      get: operation({
        operationId: "getRun",
        tag: "runs",
        summary: "One run in the Benchtrack format, normalized (ms, errorRate, aggregate)",
        security: "read",
        responses: { "200": success("The run.", "StoredRun") },
      }),
      delete: operation({
        operationId: "deleteRun",
        tag: "runs",
        summary: "Delete a run and what rests on it (its maintainers)",
        description:
          "In one transaction: its results, metrics, raw upload and annotations; changes first seen at it and incidents opened at it; " +
          "it is taken out of baseline pins (an emptied pin goes: the baseline falls back); share links that include it are revoked; " +
          "rollups and change-point detection are queued again. Later runs' stored gate outcomes are history and are not re-judged " +
          '(docs/operations.md, "Deleting and retention"). An audit entry records it.',
        security: "token",
        responses: { "200": success("Deleted: what went.", "DeletedRun") },
        errors: ["BadRequest", "Unauthorized", "Forbidden", "NotFound"],
      }),
    },
    "/api/v1/projects/{project}/runs/{id}/raw": {
      parameters: [projectParameter, runIdParameter],
      get: operation({
        operationId: "getRunRaw",
        tag: "runs",
        summary: "The original upload",
        description:
          "A single-file upload is returned byte for byte as sent (never compressed, whatever Accept-Encoding says), as an " +
          "attachment named after the file (or `<run>-<format>` with the format's extension: .json, .ndjson, .csv, .xml, .txt…) " +
          "and typed by that extension (JSON, NDJSON, CSV, XML, else plain text). A multi-file upload without ?file= lists its files as JSON.",
        security: "read",
        parameters: [
          {
            name: "file",
            in: "query",
            required: false,
            description: "Which file of a multi-file upload (0-based).",
            schema: { type: "integer", minimum: 0 },
          },
        ],
        responses: {
          "200": {
            description: "The file as sent, or the list of files.",
            content: {
              "application/json": {
                schema: { anyOf: [ref("schemas", "RawFileList"), { description: "An uploaded JSON file, as sent." }] },
              },
              "application/x-ndjson": { schema: { type: "string", description: "An uploaded NDJSON file (k6 --out json), as sent." } },
              "text/csv": { schema: { type: "string", description: "An uploaded CSV file, as sent." } },
              "application/xml": { schema: { type: "string", description: "An uploaded XML file (JMeter), as sent." } },
              "text/plain": { schema: { type: "string", description: "Any other uploaded file (a tool's text output), as sent." } },
            },
          },
        },
      }),
    },
    "/api/v1/projects/{project}/runs/{id}/verdict": {
      parameters: [projectParameter, runIdParameter],
      get: operation({
        operationId: "getRunVerdict",
        tag: "runs",
        summary: "The CI verdict of a stored run: pass/fail against its baseline and the SLA (Markdown with Accept: text/markdown)",
        security: "read",
        parameters: [ref("parameters", "failOn")],
        responses: { "200": success("The verdict.", "RunVerdict", { markdown: true }) },
      }),
    },
  },
};
