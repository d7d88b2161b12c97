/**
 * The REST API's OpenAPI 3.1 document, generated from the same Zod schemas the routes validate with
 * (`z.toJSONSchema`, JSON Schema draft 2020-12, which OpenAPI 3.1 uses as is). Request schemas are
 * rendered as the input they accept (defaults make fields optional); response schemas as the output.
 * Served at GET /api/v1/openapi.json; the Benchtrack v1 input format alone at /api/v1/schema/run.json.
 */
import { z } from "zod";
import { comparisonResponseSchema } from "./compare-schema";
import { baselinePinSchema } from "../services/baselines";
import { regressionsQuerySchema, updateRegressionSchema } from "../services/regressions";
import { slaPolicySchema } from "../domain/sla/policy";
import { runDocumentSchema } from "../domain/parsers/benchtrack-document";
import { BENCHTRACK_SCHEMA_ID, runInputSchema } from "../domain/parsers/benchtrack";
import { FORMAT_NAMES } from "../domain/parsers/detect";
import { runMetadataSchema } from "../domain/parsers/metadata";
import { API_ERROR_STATUS } from "./errors";
import type { ApiErrorCode } from "./errors";
import { compareQuerySchema, updateProjectSchema, createProjectSchema, createTokenSchema, listRunsQuerySchema, projectSlugSchema } from "./schemas";
import { annotationListSchema, annotationSchema, createAnnotationSchema } from "./annotation-schema";
import { putWebhookSchema, regressionWebhookPayloadSchema, webhookSettingsSchema } from "./webhook-schema";

export type JsonSchema = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers?: { url: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, JsonSchema>;
    responses: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
  };
}

/** A Zod schema as JSON Schema 2020-12; `io` says whether it describes what is sent or what comes back. */
export function toJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
  });
  return rest;
}

/** The Benchtrack JSON format v1 as a standalone JSON Schema document (GET /api/v1/schema/run.json). */
export function buildRunInputJsonSchema(id?: string): JsonSchema {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    ...(id !== undefined && { $id: id }),
    title: `Benchtrack JSON format (${BENCHTRACK_SCHEMA_ID})`,
    ...toJsonSchema(runInputSchema, "input"),
  };
}

// ---- Response shapes. The routes build these objects inline; the schemas here describe them. ----

const ERROR_CODES = Object.keys(API_ERROR_STATUS) as [ApiErrorCode, ...ApiErrorCode[]];

const errorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES).describe("A closed set of codes, each mapped to one HTTP status."),
      message: z.string().describe("What went wrong, for a human."),
      details: z
        .array(
          z.object({
            path: z
              .string()
              .describe(
                'Where: a JSON path ("endpoints[0].latency.p95"), "query.round", "header.idempotency-key", a CSV line…',
              ),
            message: z.string(),
          }),
        )
        .describe("Each problem found; may be empty."),
    }),
  })
  .describe("Every error answer of the REST API.");

const aggregateSummarySchema = z
  .object({
    requests: z.number().nullable(),
    failures: z.number().nullable(),
    errorRate: z.number().nullable().describe("0..1"),
    throughput: z.number().nullable().describe("Requests per second."),
    p50Ms: z.number().nullable(),
    p95Ms: z.number().nullable(),
    p99Ms: z.number().nullable(),
  })
  .nullable()
  .describe("The run's aggregate (all endpoints), or null.");

const runSummarySchema = z.object({
  id: z.string(),
  url: z.url().describe("The run's page in the dashboard."),
  label: z.string().nullable(),
  round: z.number().int().nullable(),
  tool: z.string(),
  format: z.string(),
  startedAt: z.iso.datetime(),
  durationSeconds: z.number().nullable(),
  git: z.object({
    branch: z.string().nullable(),
    commit: z.string().nullable(),
    pullRequest: z.number().int().nullable(),
  }),
  aggregate: aggregateSummarySchema,
});

const runListSchema = z.object({
  runs: z.array(runSummarySchema).describe("Newest first."),
  nextCursor: z.string().nullable().describe("Pass as ?cursor= for the next page; null on the last page."),
});

const projectSettingsSchema = z
  .object({
    slug: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    defaultBranch: z.string(),
    repoUrl: z.string().nullable(),
    minEffectPct: z.number(),
    alpha: z.number(),
    isDemo: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .describe("A project and its settings.");

const gradeSchema = z
  .object({
    status: z.enum(["graded", "no-data"]),
    letter: z.enum(["A", "B", "C", "D", "F"]).nullable(),
    score: z.number().nullable().describe("Compliance × 100."),
    compliance: z.number().nullable().describe("Weighted passed / weighted evaluated checks, 0..1."),
    passed: z.number(),
    evaluated: z.number(),
    noData: z.number(),
    endpointsCompliant: z.number(),
    endpointsEvaluated: z.number(),
    checks: z
      .array(
        z.object({
          target: slaPolicySchema.shape.targets.element,
          endpoint: z.string(),
          value: z.number().nullable(),
          threshold: z.number(),
          unit: z.string().nullable(),
          passed: z.boolean().nullable().describe("null: no data (excluded from compliance)."),
          headroom: z.object({ ratio: z.number().nullable(), label: z.string() }).nullable(),
        }),
      )
      .describe("Every check, the limiting one first."),
  })
  .nullable()
  .describe("SLA grade against the project's current policy; null when the project has no SLA.");

const storedRunSchema = runDocumentSchema
  .extend({
    id: z.string().describe("The run's id."),
    url: z.url().describe("The run's page in the dashboard."),
    project: z.string().describe("The project's slug."),
    uploadedAt: z.iso.datetime(),
    grade: gradeSchema,
  })
  .describe("A stored run: its id and page, then the run in the Benchtrack JSON format v1 (RunDocument).");

const uploadResponseSchema = z
  .object({
    id: z.string().describe("The run's id."),
    url: z.url().describe("The run's page in the dashboard."),
    project: z.string().describe("The project's slug."),
    format: z.string().describe("The format the upload was read as (detected or given)."),
    endpoints: z.array(z.string()).describe("Names of the endpoints found."),
    grade: gradeSchema,
    run: storedRunSchema,
  })
  .describe("A stored run. 201 when created; 200 when an Idempotency-Key replays an earlier upload.");

const uploadWrapperSchema = z
  .object({
    format: z
      .enum(FORMAT_NAMES as [string, ...string[]])
      .optional()
      .describe("Format of `result`; detected when absent."),
    metadata: runMetadataSchema.optional(),
    result: z.unknown().describe("The tool's output: a JSON value as is, or text (NDJSON, CSV) as a JSON string."),
  })
  .describe("A tool's output with the run's metadata beside it.");

const projectSummarySchema = z.object({
  slug: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  runCount: z.number().int(),
  createdAt: z.iso.datetime(),
});

const createdProjectSchema = z.object({
  slug: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  defaultBranch: z.string(),
});

const tokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe("The first characters of the secret, to recognise it."),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
});

const createdTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  token: z.string().describe("The secret. Shown in this answer only; only its hash is stored."),
  createdAt: z.iso.datetime(),
});

const rawFileListSchema = z
  .object({
    files: z.array(
      z.object({
        file: z.number().int().describe("Pass as ?file= to download it."),
        name: z.string().nullable(),
        contentType: z.string().nullable(),
        sizeBytes: z.number().int(),
        available: z.boolean().describe("False when the retention setting dropped it."),
        url: z.string(),
      }),
    ),
  })
  .describe("The files of a multi-file upload (Locust CSVs, several ghz reports).");

// ---- Building blocks ----

const ref = (kind: "schemas" | "parameters" | "responses", name: string) => ({ $ref: `#/components/${kind}/${name}` });
const jsonContent = (schema: JsonSchema) => ({ "application/json": { schema } });

/** The error answers, by OpenAPI response name: their status and when they happen (also shown on /docs/api). */
export const ERROR_RESPONSES = {
  BadRequest: {
    status: 400,
    description: "Malformed input; the details point at the JSON path, CSV line or parameter at fault.",
  },
  Unauthorized: { status: 401, description: "No token, or an unknown or revoked one." },
  Forbidden: {
    status: 403,
    description: "The token may not do this (a project token outside its project, or an admin-only call).",
  },
  NotFound: { status: 404, description: "No such project, run, file or token." },
  Conflict: {
    status: 409,
    description: "Conflict: the Idempotency-Key was used with a different body, or the project exists.",
  },
  PayloadTooLarge: {
    status: 413,
    description: "Body larger than BENCHTRACK_MAX_BODY_BYTES, or decompressed larger than the limits.",
  },
  UnsupportedMediaType: { status: 415, description: "Unknown ?format= name or unsupported Content-Encoding." },
  Unprocessable: {
    status: 422,
    description: "The format could not be detected, or the content is not the format given.",
  },
} as const;

type ErrorResponseName = keyof typeof ERROR_RESPONSES;

function errorResponses(...names: ErrorResponseName[]): Record<string, unknown> {
  return Object.fromEntries(names.map((name) => [String(ERROR_RESPONSES[name].status), ref("responses", name)]));
}

/** One query parameter per property of an object schema (its JSON Schema property, description and all). */
function queryParameters(schema: z.ZodType): JsonSchema[] {
  const jsonSchema = toJsonSchema(schema, "input");
  const properties = (jsonSchema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((jsonSchema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: "query",
      required: required.has(name),
      ...(typeof description === "string" && { description }),
      schema: rest,
    };
  });
}

/** The metadata query parameters of an upload, from runMetadataSchema; `attributes` becomes `attr.<key>`. */
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
    } else {
      parameters[name] = parameter;
    }
  }
  return parameters;
}

const SECURITY_BEARER = [{ bearerAuth: [] }];
/** Reading is open unless BENCHTRACK_READ_TOKEN is set. */
const SECURITY_READ = [{}, { bearerAuth: [] }];

const projectParameter = {
  name: "project",
  in: "path",
  required: true,
  description: "The project's slug.",
  schema: toJsonSchema(projectSlugSchema, "input"),
};
const runIdParameter = {
  name: "id",
  in: "path",
  required: true,
  description: "The run's id.",
  schema: { type: "string" },
};

export function buildOpenApiDocument(baseUrl?: string): OpenApiDocument {
  const metadata = metadataParameters();
  const metadataRefs = Object.keys(metadata).map((name) => ref("parameters", `metadata.${name}`));

  const uploadOperation = {
    operationId: "uploadRun",
    tags: ["runs"],
    summary: "Upload a run",
    description:
      "The body is a tool's raw output (k6 --summary-export or handleSummary JSON, k6 --out json NDJSON, Locust --json, " +
      "Locust --csv files as multipart, one or several ghz -O json reports), the Benchtrack JSON format, or the wrapper " +
      "`{format, metadata, result}`. The format is detected from the content unless ?format= is given; the answer names it. " +
      "The Content-Type curl --data-binary sends by default (application/x-www-form-urlencoded) is ignored. " +
      "Metadata query parameters override the body. With the admin token, a missing project is created.",
    security: SECURITY_BEARER,
    parameters: [
      ref("parameters", "format"),
      ...metadataRefs,
      ref("parameters", "idempotencyKeyQuery"),
      ref("parameters", "idempotencyKey"),
      ref("parameters", "contentEncoding"),
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
      "200": {
        description: "Replayed: this Idempotency-Key already stored this run.",
        content: jsonContent(ref("schemas", "UploadResponse")),
      },
      "201": { description: "Created.", content: jsonContent(ref("schemas", "UploadResponse")) },
      ...errorResponses(
        "BadRequest",
        "Unauthorized",
        "Forbidden",
        "NotFound",
        "Conflict",
        "PayloadTooLarge",
        "UnsupportedMediaType",
        "Unprocessable",
      ),
    },
  };

  return {
    openapi: "3.1.0",
    info: {
      title: "Benchtrack REST API",
      version: "1",
      description:
        "Upload load-test results from CI and read them back. Authentication: `Authorization: Bearer <token>` " +
        "with a project token (upload), the admin token (BENCHTRACK_ADMIN_TOKEN: everything) or, when " +
        "BENCHTRACK_READ_TOKEN is set, the read token for GET calls. Errors are always the ErrorEnvelope.",
    },
    ...(baseUrl !== undefined && { servers: [{ url: baseUrl }] }),
    tags: [
      { name: "projects", description: "Services under test." },
      { name: "runs", description: "One upload = one run; immutable." },
      { name: "tokens", description: "Project upload tokens (admin)." },
      { name: "meta", description: "Machine-readable descriptions of the API." },
    ],
    paths: {
      "/api/v1/projects": {
        get: {
          operationId: "listProjects",
          tags: ["projects"],
          summary: "List projects",
          security: SECURITY_READ,
          responses: {
            "200": { description: "The projects.", content: jsonContent(ref("schemas", "ProjectList")) },
            ...errorResponses("Unauthorized"),
          },
        },
        post: {
          operationId: "createProject",
          tags: ["projects"],
          summary: "Create a project (admin)",
          security: SECURITY_BEARER,
          requestBody: { required: true, content: jsonContent(ref("schemas", "CreateProject")) },
          responses: {
            "201": { description: "Created.", content: jsonContent(ref("schemas", "Project")) },
            ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "Conflict"),
          },
        },
      },
      "/api/v1/projects/{project}": {
        parameters: [projectParameter],
        get: {
          operationId: "getProject",
          tags: ["projects"],
          summary: "The project and its settings",
          security: SECURITY_READ,
          responses: {
            "200": { description: "The project.", content: jsonContent(ref("schemas", "ProjectSettings")) },
            ...errorResponses("Unauthorized", "NotFound"),
          },
        },
        patch: {
          operationId: "updateProject",
          tags: ["projects"],
          summary: "Change the project's settings (admin)",
          security: SECURITY_BEARER,
          requestBody: { required: true, content: jsonContent(ref("schemas", "UpdateProject")) },
          responses: {
            "200": { description: "The updated project.", content: jsonContent(ref("schemas", "ProjectSettings")) },
            ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "NotFound"),
          },
        },
      },
      "/api/v1/projects/{project}/runs": {
        parameters: [projectParameter],
        post: uploadOperation,
        get: {
          operationId: "listRuns",
          tags: ["runs"],
          summary: "List runs, newest first",
          security: SECURITY_READ,
          parameters: queryParameters(listRunsQuerySchema),
          responses: {
            "200": { description: "A page of runs.", content: jsonContent(ref("schemas", "RunList")) },
            ...errorResponses("BadRequest", "Unauthorized", "NotFound"),
          },
        },
      },
      "/api/v1/projects/{project}/runs/{id}": {
        parameters: [projectParameter, runIdParameter],
        get: {
          operationId: "getRun",
          tags: ["runs"],
          summary: "One run in the Benchtrack format, normalized (ms, errorRate, aggregate)",
          security: SECURITY_READ,
          responses: {
            "200": { description: "The run.", content: jsonContent(ref("schemas", "StoredRun")) },
            ...errorResponses("BadRequest", "Unauthorized", "NotFound"),
          },
        },
      },
      "/api/v1/projects/{project}/runs/{id}/raw": {
        parameters: [projectParameter, runIdParameter],
        get: {
          operationId: "getRunRaw",
          tags: ["runs"],
          summary: "The original upload",
          description:
            "A single-file upload is returned as sent (gzip Content-Encoding when the client accepts it). " +
            "A multi-file upload without ?file= lists its files.",
          security: SECURITY_READ,
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
              description: "The file, or the list of files.",
              content: {
                "application/octet-stream": {
                  schema: { type: "string", contentMediaType: "application/octet-stream" },
                },
                ...jsonContent({
                  anyOf: [ref("schemas", "RawFileList"), { description: "An uploaded JSON file, as sent." }],
                }),
              },
            },
            ...errorResponses("BadRequest", "Unauthorized", "NotFound"),
          },
        },
      },
      "/api/v1/projects/{project}/compare": {
        parameters: [projectParameter],
        get: {
          operationId: "compareRuns",
          tags: ["runs"],
          summary: "Compare two run selections (JSON, or a PR comment with Accept: text/markdown)",
          security: SECURITY_READ,
          parameters: queryParameters(compareQuerySchema),
          responses: {
            "200": {
              description: "The comparison.",
              content: {
                ...jsonContent(ref("schemas", "Comparison")),
                "text/markdown": { schema: { type: "string" } },
              },
            },
            ...errorResponses("BadRequest", "Unauthorized", "NotFound"),
          },
        },
      },
      "/api/v1/projects/{project}/sla": {
        parameters: [projectParameter],
        get: {
          operationId: "getSlaPolicy",
          tags: ["projects"],
          summary: "The project's SLA policy ({ targets: [] } when it has none)",
          security: SECURITY_READ,
          responses: {
            "200": { description: "The policy.", content: jsonContent(ref("schemas", "SlaPolicy")) },
            ...errorResponses("Unauthorized", "NotFound"),
          },
        },
        put: {
          operationId: "putSlaPolicy",
          tags: ["projects"],
          summary: "Replace the SLA policy (admin); an empty target list removes it. Runs are graded against the current policy.",
          security: SECURITY_BEARER,
          requestBody: { required: true, content: jsonContent(ref("schemas", "SlaPolicy")) },
          responses: {
            "200": { description: "The stored policy.", content: jsonContent(ref("schemas", "SlaPolicy")) },
            ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "NotFound"),
          },
        },
      },
      "/api/v1/projects/{project}/badge.svg": {
        parameters: [projectParameter],
        get: {
          operationId: "getGradeBadge",
          tags: ["projects"],
          summary: "SVG badge with the SLA grade of the latest run on the default branch",
          security: SECURITY_READ,
          parameters: [
            { name: "label", in: "query", required: false, description: "Only runs with this label.", schema: { type: "string" } },
          ],
          responses: {
            "200": { description: "The badge.", content: { "image/svg+xml": { schema: { type: "string" } } } },
            ...errorResponses("Unauthorized", "NotFound"),
          },
        },
      },
      "/api/v1/projects/{project}/runs/{id}/verdict": {
        parameters: [projectParameter, runIdParameter],
        get: {
          operationId: "getRunVerdict",
          tags: ["runs"],
          summary: "The CI verdict of a stored run: pass/fail against its baseline and the SLA (Markdown with Accept: text/markdown)",
          security: SECURITY_READ,
          parameters: [
            {
              name: "fail_on",
              in: "query",
              required: false,
              description: "What fails: regression, sla (comma-separated) or none. Default: the project's setting.",
              schema: { type: "string" },
            },
          ],
          responses: {
            "200": {
              description: "The verdict.",
              content: { ...jsonContent({ type: "object" }), "text/markdown": { schema: { type: "string" } } },
            },
            ...errorResponses("BadRequest", "Unauthorized", "NotFound"),
          },
        },
      },
      "/api/v1/projects/{project}/baseline": {
        parameters: [projectParameter],
        get: {
          operationId: "listBaselinePins",
          tags: ["projects"],
          summary: "Pinned baselines (without one, a run is compared with its label's recent runs on the default branch)",
          security: SECURITY_READ,
          responses: { "200": { description: "The pins.", content: jsonContent({ type: "object" }) }, ...errorResponses("Unauthorized", "NotFound") },
        },
        put: {
          operationId: "pinBaseline",
          tags: ["projects"],
          summary: "Pin runs or a label as the baseline of a label (admin)",
          security: SECURITY_BEARER,
          requestBody: { required: true, content: jsonContent(ref("schemas", "BaselinePin")) },
          responses: {
            "200": { description: "The pin.", content: jsonContent({ type: "object" }) },
            ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "NotFound"),
          },
        },
        delete: {
          operationId: "unpinBaseline",
          tags: ["projects"],
          summary: "Remove the pin of a label (?for_label=), or the pin for every label (admin)",
          security: SECURITY_BEARER,
          parameters: [{ name: "for_label", in: "query", required: false, schema: { type: "string" } }],
          responses: { "204": { description: "Removed." }, ...errorResponses("Unauthorized", "Forbidden", "NotFound") },
        },
      },
      "/api/v1/projects/{project}/regressions": {
        parameters: [projectParameter],
        get: {
          operationId: "listRegressions",
          tags: ["projects"],
          summary: "Detected regressions and improvements, newest first",
          security: SECURITY_READ,
          parameters: queryParameters(regressionsQuerySchema),
          responses: {
            "200": { description: "The regressions.", content: jsonContent({ type: "array", items: { type: "object" } }) },
            ...errorResponses("BadRequest", "Unauthorized", "NotFound"),
          },
        },
      },
      "/api/v1/projects/{project}/regressions/{id}": {
        parameters: [projectParameter, { name: "id", in: "path", required: true, schema: { type: "string" } }],
        patch: {
          operationId: "updateRegression",
          tags: ["projects"],
          summary: "Acknowledge, dismiss or reopen a regression (admin)",
          security: SECURITY_BEARER,
          requestBody: { required: true, content: jsonContent(ref("schemas", "UpdateRegression")) },
          responses: {
            "200": { description: "The regression.", content: jsonContent({ type: "object" }) },
            ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "NotFound"),
          },
        },
      },
      "/api/v1/projects/{project}/tokens": {
        parameters: [projectParameter],
        post: {
          operationId: "createToken",
          tags: ["tokens"],
          summary: "Create an upload token (admin); the secret is in this answer only",
          security: SECURITY_BEARER,
          requestBody: { required: false, content: jsonContent(ref("schemas", "CreateToken")) },
          responses: {
            "201": { description: "Created.", content: jsonContent(ref("schemas", "CreatedToken")) },
            ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "NotFound"),
          },
        },
        get: {
          operationId: "listTokens",
          tags: ["tokens"],
          summary: "List tokens, never their secrets (admin)",
          security: SECURITY_BEARER,
          responses: {
            "200": { description: "The tokens.", content: jsonContent(ref("schemas", "TokenList")) },
            ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "NotFound"),
          },
        },
      },
      "/api/v1/projects/{project}/tokens/{id}": {
        parameters: [
          projectParameter,
          { name: "id", in: "path", required: true, description: "The token's id.", schema: { type: "string" } },
        ],
        delete: {
          operationId: "revokeToken",
          tags: ["tokens"],
          summary: "Revoke a token (admin)",
          security: SECURITY_BEARER,
          responses: {
            "204": { description: "Revoked (or already revoked)." },
            ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "NotFound"),
          },
        },
      },
      "/api/v1/projects/{project}/webhook": {
        parameters: [projectParameter],
        get: {
          operationId: "getWebhook",
          tags: ["projects"],
          summary: "The webhook URL and the last 50 deliveries, newest first (admin)",
          description:
            "For each regression an upload opens, Benchtrack POSTs a RegressionWebhookPayload to the project's webhook URL " +
            "(5 s timeout; network errors, timeouts and 5xx answers are retried twice, after 0.5 s and 2 s; 3xx and 4xx are final). " +
            "Every delivery is logged here with its attempts.",
          security: SECURITY_BEARER,
          responses: {
            "200": { description: "The webhook settings.", content: jsonContent(ref("schemas", "WebhookSettings")) },
            ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "NotFound"),
          },
        },
        put: {
          operationId: "putWebhook",
          tags: ["projects"],
          summary: "Set the webhook URL (http or https), or turn webhooks off with null (admin)",
          security: SECURITY_BEARER,
          requestBody: { required: true, content: jsonContent(ref("schemas", "PutWebhook")) },
          responses: {
            "200": { description: "The webhook settings.", content: jsonContent(ref("schemas", "WebhookSettings")) },
            ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "NotFound"),
          },
        },
      },
      "/api/v1/projects/{project}/runs/{id}/annotations": {
        parameters: [projectParameter, runIdParameter],
        get: {
          operationId: "listRunAnnotations",
          tags: ["runs"],
          summary: "The run's annotations, oldest first",
          security: SECURITY_READ,
          responses: {
            "200": { description: "The annotations.", content: jsonContent(ref("schemas", "AnnotationList")) },
            ...errorResponses("BadRequest", "Unauthorized", "NotFound"),
          },
        },
        post: {
          operationId: "createRunAnnotation",
          tags: ["runs"],
          summary: 'Annotate a run ("deployed v2.3"), shown on every chart that includes it (admin)',
          security: SECURITY_BEARER,
          requestBody: { required: true, content: jsonContent(ref("schemas", "CreateAnnotation")) },
          responses: {
            "201": { description: "Created.", content: jsonContent(ref("schemas", "Annotation")) },
            ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "NotFound"),
          },
        },
      },
      "/api/v1/projects/{project}/annotations/{annotationId}": {
        parameters: [
          projectParameter,
          { name: "annotationId", in: "path", required: true, description: "The annotation's id.", schema: { type: "string" } },
        ],
        delete: {
          operationId: "deleteAnnotation",
          tags: ["runs"],
          summary: "Delete an annotation (admin)",
          security: SECURITY_BEARER,
          responses: {
            "204": { description: "Deleted." },
            ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "NotFound"),
          },
        },
      },
      "/api/v1/openapi.json": {
        get: {
          operationId: "getOpenApiDocument",
          tags: ["meta"],
          summary: "This document",
          security: [{}],
          responses: { "200": { description: "The OpenAPI 3.1 document.", content: jsonContent({ type: "object" }) } },
        },
      },
      "/api/v1/schema/run.json": {
        get: {
          operationId: "getRunInputSchema",
          tags: ["meta"],
          summary: "JSON Schema of the Benchtrack JSON format v1",
          security: [{}],
          responses: {
            "200": { description: "A JSON Schema (draft 2020-12).", content: jsonContent({ type: "object" }) },
          },
        },
      },
    },
    components: {
      schemas: {
        RunInput: toJsonSchema(runInputSchema, "input"),
        RunDocument: toJsonSchema(runDocumentSchema, "output"),
        StoredRun: toJsonSchema(storedRunSchema, "output"),
        RunMetadata: toJsonSchema(runMetadataSchema, "input"),
        UploadWrapper: toJsonSchema(uploadWrapperSchema, "input"),
        UploadResponse: toJsonSchema(uploadResponseSchema, "output"),
        RunList: toJsonSchema(runListSchema, "output"),
        RawFileList: toJsonSchema(rawFileListSchema, "output"),
        CreateProject: toJsonSchema(createProjectSchema, "input"),
        Project: toJsonSchema(createdProjectSchema, "output"),
        ProjectList: toJsonSchema(z.object({ projects: z.array(projectSummarySchema) }), "output"),
        CreateToken: toJsonSchema(createTokenSchema, "input"),
        CreatedToken: toJsonSchema(createdTokenSchema, "output"),
        TokenList: toJsonSchema(z.object({ tokens: z.array(tokenSchema) }), "output"),
        ErrorEnvelope: toJsonSchema(errorEnvelopeSchema, "output"),
        Comparison: toJsonSchema(comparisonResponseSchema, "output"),
        SlaPolicy: toJsonSchema(slaPolicySchema, "input"),
        BaselinePin: toJsonSchema(baselinePinSchema, "input"),
        UpdateRegression: toJsonSchema(updateRegressionSchema, "input"),
        UpdateProject: toJsonSchema(updateProjectSchema, "input"),
        ProjectSettings: toJsonSchema(projectSettingsSchema, "output"),
        PutWebhook: toJsonSchema(putWebhookSchema, "input"),
        WebhookSettings: toJsonSchema(webhookSettingsSchema, "output"),
        RegressionWebhookPayload: toJsonSchema(regressionWebhookPayloadSchema, "output"),
        CreateAnnotation: toJsonSchema(createAnnotationSchema, "input"),
        Annotation: toJsonSchema(annotationSchema, "output"),
        AnnotationList: toJsonSchema(annotationListSchema, "output"),
      },
      parameters: {
        format: {
          name: "format",
          in: "query",
          required: false,
          description:
            "The upload's format; detected from the content when absent. Aliases: k6 covers the three k6 formats, locust both Locust formats.",
          schema: { type: "string", enum: FORMAT_NAMES },
        },
        ...Object.fromEntries(Object.entries(metadata).map(([name, parameter]) => [`metadata.${name}`, parameter])),
        idempotencyKey: {
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description:
            "A retried upload with the same key returns the first run (200); the same key with another body is a 409.",
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
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([name, { description }]) => [
          name,
          { description, content: jsonContent(ref("schemas", "ErrorEnvelope")) },
        ]),
      ),
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description:
            "A project token (upload to that project), the admin token (BENCHTRACK_ADMIN_TOKEN) or the read token (BENCHTRACK_READ_TOKEN, GET only).",
        },
      },
    },
  };
}
