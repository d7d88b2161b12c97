import { z } from "zod";
import { GRANT_KINDS, PROJECT_ROLES, PROJECT_VISIBILITIES, TOKEN_SCOPES } from "../domain/access/roles";
import { INCIDENT_STATES } from "../domain/incidents/state";
import { ANNOTATION_KINDS } from "./annotations";

/**
 * The export file (docs/operations.md, "Export and import"): NDJSON, one object a line, each line's kind
 * in `kind` and validated by the ONE schema of that kind below. A project export is
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

const idSchema = z.string().min(1).max(200);
const timeSchema = z.iso.datetime({ offset: true }).describe("ISO 8601");
const optionalTime = timeSchema.nullable();
const text = z.string().max(100_000);
const optionalText = text.nullable();
const int = z.number().int().min(-2_147_483_648).max(2_147_483_647);
/** A Json column's value as the file carries it: any JSON value (a line is JSON.parse's output), but present. */
export type TransferJson = string | number | boolean | null | TransferJson[] | { [key: string]: TransferJson };
const json = z.custom<TransferJson>((value) => value !== undefined, "required").describe("any JSON value, as stored");

/** A float8 as stored: a JSON number, or "NaN", "Infinity", "-Infinity" (JSON has no spelling of them). */
export const storedFloatSchema = z.union([z.number(), z.enum(["NaN", "Infinity", "-Infinity"])]);
export type StoredFloat = z.infer<typeof storedFloatSchema>;
const optionalFloat = storedFloatSchema.nullable();

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

const slaPolicyLine = z.object({ targets: json, updatedAt: timeSchema }).strict();

/** A grant of a role in the project (docs/access.md): to one person's email or to an identity-provider group. */
const memberRow = z
  .object({
    kind: z.enum(GRANT_KINDS),
    subject: text.min(1).describe("the email (lower-cased) or the group's name"),
    role: z.enum(PROJECT_ROLES),
    grantedBy: text.describe("who granted it, in words"),
    createdAt: timeSchema,
    updatedAt: timeSchema,
  })
  .strict();

export const projectLineSchema = z
  .object({
    kind: z.literal("project"),
    id: idSchema,
    slug: z.string().min(1).max(100),
    name: text,
    description: optionalText,
    defaultBranch: text,
    repoUrl: optionalText,
    isDemo: z.boolean(),
    minEffectPct: z.number(),
    alpha: z.number(),
    gateMetric: text,
    failOn: z.array(text),
    webhookUrl: optionalText,
    webhookFormat: z.enum(["json", "slack", "teams"]),
    webhookDigest: z.enum(["off", "daily"]),
    /** A server backup only: a project export never carries the webhook's signing secret. */
    webhookSecret: optionalText.optional(),
    rawRetentionDays: int.nullable(),
    /** Run retention (absent from files written before it existed: none). */
    retentionDays: int.nullable().default(null),
    retentionKeepRuns: int.nullable().default(null),
    createdAt: timeSchema,
    updatedAt: timeSchema,
    slaPolicy: slaPolicyLine.nullable(),
    /** Access (absent from files written before it existed: the server's default, no grants). */
    visibility: z
      .enum(PROJECT_VISIBILITIES)
      .nullable()
      .default(null)
      .describe("who may read it (docs/access.md); null: the server's default"),
    members: z.array(memberRow).default([]).describe("the project's grants, one per kind and subject"),
  })
  .strict();

/** What tokens made before scopes existed were given (migration 20261130024038): all three. */
export const LEGACY_TOKEN_SCOPES = [...TOKEN_SCOPES];

/** A server backup only: an upload token as its hash (never a secret), so CI keeps working after a move. */
export const tokenLineSchema = z
  .object({
    kind: z.literal("token"),
    id: idSchema,
    name: text,
    prefix: text,
    tokenHash: z.string().regex(/^[0-9a-f]{64}$/, "a SHA-256 hash in hex"),
    createdAt: timeSchema,
    lastUsedAt: optionalTime,
    revokedAt: optionalTime,
    /** Absent from files written before scopes existed: all three, as the migration gave those tokens. */
    scopes: z
      .array(z.enum(TOKEN_SCOPES))
      .default(LEGACY_TOKEN_SCOPES)
      .describe('what it may do: "upload", "read", "triage"'),
    expiresAt: optionalTime.optional().describe("after this it is refused; null or absent: never"),
    createdBy: optionalText.optional().describe("who made it, in words"),
  })
  .strict();

/**
 * A server backup only, after the header and before the projects: a person who signed in, with the id
 * their sessions are sealed with (so they stay signed in after a move) and an admin's decisions about
 * them (server admin, disabled).
 */
export const userLineSchema = z
  .object({
    kind: z.literal("user"),
    id: idSchema,
    issuer: text.describe("the identity provider's issuer"),
    subject: text.describe("the provider's subject claim"),
    email: optionalText,
    name: optionalText,
    groups: z.array(text).describe("the group claim of the last sign-in"),
    serverAdmin: z.boolean(),
    disabledAt: optionalTime.describe("removed by an admin: signing in is refused"),
    createdAt: timeSchema,
    lastSignInAt: optionalTime,
  })
  .strict();

/** A server backup only: a share link (its id is what its URL carries). */
export const shareLinkLineSchema = z
  .object({
    kind: z.literal("shareLink"),
    id: idSchema,
    scope: json,
    createdBy: text,
    createdAt: timeSchema,
    expiresAt: timeSchema,
    revokedAt: optionalTime,
  })
  .strict();

export const endpointLineSchema = z
  .object({
    kind: z.literal("endpoint"),
    /** The id in the exporting database: results, metrics and changes of this file name it. */
    id: int,
    name: text,
    fullName: optionalText,
    protocol: optionalText,
    method: optionalText,
    createdAt: timeSchema,
  })
  .strict();

const resultRow = z
  .object({
    endpointId: int.nullable(),
    requests: int.nullable(),
    failures: int.nullable(),
    errorRate: optionalFloat,
    throughput: optionalFloat,
    minMs: optionalFloat,
    meanMs: optionalFloat,
    p50Ms: optionalFloat,
    p90Ms: optionalFloat,
    p95Ms: optionalFloat,
    p99Ms: optionalFloat,
    maxMs: optionalFloat,
    stdDevMs: optionalFloat,
    percentiles: json,
    histogram: json.nullable(),
    timeline: json.nullable(),
    statusCodes: json.nullable(),
    errors: json.nullable(),
  })
  .strict();

const metricRow = z
  .object({
    endpointId: int.nullable(),
    key: text,
    value: storedFloatSchema,
    unit: optionalText,
    exact: z.boolean(),
    better: z.enum(["lower", "higher"]).nullable(),
  })
  .strict();

export const runLineSchema = z
  .object({
    kind: z.literal("run"),
    id: idSchema,
    tool: text,
    toolVersion: optionalText,
    format: text,
    protocol: optionalText,
    parserVersion: int,
    label: optionalText,
    round: int.nullable(),
    startedAt: timeSchema,
    durationSeconds: optionalFloat,
    uploadedAt: timeSchema,
    gitCommit: optionalText,
    gitBranch: optionalText,
    pullRequest: int.nullable(),
    gitBaseCommit: optionalText,
    gitBaseBranch: optionalText,
    gitBaseTime: optionalTime,
    buildUrl: optionalText,
    hostName: optionalText,
    hostCpus: int.nullable(),
    hostMemoryGb: optionalFloat,
    testbed: optionalText,
    appVersion: optionalText,
    config: json,
    attributes: json,
    thresholds: json,
    checks: json,
    notes: json,
    idempotencyKey: optionalText,
    bodySha256: optionalText,
    isDemo: z.boolean(),
    outcome: optionalText,
    outcomeReasons: z.array(text),
    regressed: z.boolean().nullable(),
    gateChanges: json,
    abJob: optionalText,
    abSide: optionalText,
    abPair: int.nullable(),
    budget: json.nullable(),
    results: z.array(resultRow).min(1, "a run has at least its aggregate result"),
    metrics: z.array(metricRow),
  })
  .strict();

/** A run's raw upload file: the stored gzip in base64, or null once retention dropped it. */
export const rawLineSchema = z
  .object({
    kind: z.literal("raw"),
    runId: idSchema,
    position: int.nonnegative(),
    fileName: optionalText,
    contentType: optionalText,
    sizeBytes: int.nonnegative(),
    createdAt: timeSchema,
    gzipBase64: z.base64().nullable(),
  })
  .strict();

export const annotationLineSchema = z
  .object({
    kind: z.literal("annotation"),
    id: idSchema,
    runId: idSchema.nullable(),
    at: timeSchema,
    annotationKind: z.enum(ANNOTATION_KINDS),
    text,
    createdAt: timeSchema,
  })
  .strict();

export const pinLineSchema = z
  .object({
    kind: z.literal("pin"),
    id: idSchema,
    forLabel: optionalText,
    runIds: z.array(idSchema),
    baselineLabel: optionalText,
    createdAt: timeSchema,
  })
  .strict();

const incidentState = z.enum(INCIDENT_STATES);

export const incidentLineSchema = z
  .object({
    kind: z.literal("incident"),
    id: idSchema,
    number: int.positive(),
    firstRunId: idSchema,
    state: incidentState,
    note: optionalText,
    links: z.array(text),
    detectorVersion: int,
    stateChangedAt: optionalTime,
    stateChangedBy: optionalText,
    closedAt: optionalTime,
    createdAt: timeSchema,
    events: z.array(
      z
        .object({
          id: idSchema,
          at: timeSchema,
          by: text,
          fromState: incidentState.nullable(),
          toState: incidentState.nullable(),
          note: optionalText,
        })
        .strict(),
    ),
  })
  .strict();

/** A detected change (a regression or an improvement: the `regressions` table). */
export const changeLineSchema = z
  .object({
    kind: z.literal("change"),
    id: idSchema,
    endpointId: int.nullable(),
    metric: text,
    changeKind: z.enum(["regression", "improvement"]),
    firstRunId: idSchema,
    beforeValue: storedFloatSchema,
    afterValue: storedFloatSchema,
    deltaPct: storedFloatSchema,
    pValue: optionalFloat,
    detectorVersion: int,
    status: z.enum(["open", "acknowledged", "dismissed"]),
    statusChangedAt: optionalTime,
    statusChangedBy: optionalText,
    incidentId: idSchema.nullable(),
    returnRunId: idSchema.nullable(),
    createdAt: timeSchema,
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
