import { z } from "zod";
import { INCIDENT_STATES } from "../domain/incidents/state";
import { ANNOTATION_KINDS } from "./annotations";
import { idSchema, int, json, optionalFloat, optionalText, optionalTime, storedFloatSchema, text, timeSchema } from "./transfer-fields";

/**
 * The export file's run-level lines (transfer.ts): each run with its results and metrics, its raw upload
 * files, and what refers to runs: annotations, baseline pins, incidents (with their events) and detected
 * changes.
 */

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
