/**
 * A stored run rendered back in the Benchtrack JSON format v1 (GET …/runs/{id}, raw download),
 * normalised: latency in ms, `errorRate` (0..1) per endpoint, the aggregate always present as
 * `aggregate`, plus the source `format`, thresholds, checks and notes. It re-uploads as the same run.
 */
import { z } from "zod";
import { errorRateOf, FORMAT_IDS, type EndpointResult, type ParsedRun } from "../../run";
import { BENCHTRACK_SCHEMA_ID, customMetricSchema, timelinePointSchema } from "./benchtrack";

const latencyDocumentSchema = z
  .object({
    unit: z.literal("ms"),
    mean: z.number().nullable(),
    min: z.number().nullable(),
    max: z.number().nullable(),
    stdDev: z.number().nullable(),
  })
  .catchall(z.number().nullable())
  .describe('Latency in ms; keys "p<number>" are percentiles. Absent percentiles were not measured.');

const resultDocumentSchema = z.object({
  name: z.string(),
  fullName: z.string().nullable(),
  protocol: z.string().nullable(),
  method: z.string().nullable(),
  requests: z.number().nullable(),
  failures: z.number().nullable(),
  errorRate: z.number().min(0).max(1).nullable().describe("failures / requests, 0..1; null when unknown."),
  throughput: z.number().nullable().describe("Requests per second."),
  latency: latencyDocumentSchema,
  histogram: z
    .object({ unit: z.literal("ms"), buckets: z.array(z.object({ le: z.number(), count: z.number() })) })
    .nullable(),
  statusCodes: z.record(z.string(), z.number()).nullable(),
  errors: z.record(z.string(), z.number()).nullable(),
  metrics: z.record(z.string(), customMetricSchema),
  timeline: z.array(timelinePointSchema).nullable(),
});

/** A stored run in the v1 format, normalised: ms everywhere, `errorRate` added, `aggregate` always present. */
export const runDocumentSchema = z
  .object({
    schema: z.literal(BENCHTRACK_SCHEMA_ID),
    format: z.enum(FORMAT_IDS).describe("The format the run was uploaded in."),
    tool: z.string(),
    toolVersion: z.string().nullable(),
    label: z.string().nullable(),
    round: z.number().nullable(),
    startedAt: z.string().nullable(),
    durationSeconds: z.number().nullable(),
    environment: z.object({
      git: z.object({
        commit: z.string().nullable(),
        branch: z.string().nullable(),
        pullRequest: z.number().nullable(),
        repoUrl: z.string().nullable(),
      }),
      ci: z.object({ buildUrl: z.string().nullable() }),
      host: z.object({ name: z.string().nullable(), cpus: z.number().nullable(), memoryGb: z.number().nullable() }),
      testbed: z.string().nullable().describe("The hardware the run was measured on: part of its series (docs/benchmarks.md)."),
      appVersion: z.string().nullable(),
      config: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
      attributes: z.record(z.string(), z.string()),
    }),
    endpoints: z.array(resultDocumentSchema),
    aggregate: resultDocumentSchema.describe("The aggregate over all endpoints."),
    metrics: z.record(z.string(), customMetricSchema),
    thresholds: z.array(z.object({ metric: z.string(), expression: z.string(), passed: z.boolean() })),
    checks: z.array(z.object({ name: z.string(), group: z.string().nullable(), passes: z.number(), fails: z.number() })),
    notes: z.array(z.string()),
  })
  .describe("A stored run rendered in the Benchtrack JSON format v1 (re-uploadable as is).");

export type RunDocument = z.infer<typeof runDocumentSchema>;

export function toBenchtrackDocument(run: ParsedRun): RunDocument {
  return {
    schema: BENCHTRACK_SCHEMA_ID,
    format: run.format,
    tool: run.tool,
    toolVersion: run.toolVersion,
    label: run.label,
    round: run.round,
    startedAt: run.startedAt,
    durationSeconds: run.durationSeconds,
    environment: {
      git: { ...run.environment.git },
      ci: { ...run.environment.ci },
      host: { ...run.environment.host },
      testbed: run.environment.testbed,
      appVersion: run.environment.appVersion,
      config: { ...run.environment.config },
      attributes: { ...run.environment.attributes },
    },
    endpoints: run.endpoints.map(toResultDocument),
    aggregate: toResultDocument(run.aggregate),
    metrics: { ...run.metrics },
    thresholds: run.thresholds.map((threshold) => ({ ...threshold })),
    checks: run.checks.map((check) => ({ ...check })),
    notes: [...run.notes],
  };
}

function toResultDocument(result: EndpointResult): z.infer<typeof resultDocumentSchema> {
  const percentiles: Record<string, number> = {};
  const byPercentile = Object.entries(result.latency.percentiles).sort(([a], [b]) => Number(a) - Number(b));
  for (const [percentile, value] of byPercentile) percentiles[`p${percentile}`] = value;
  const latency: z.infer<typeof latencyDocumentSchema> = Object.assign(
    {
      unit: "ms" as const,
      mean: result.latency.meanMs,
      min: result.latency.minMs,
      max: result.latency.maxMs,
      stdDev: result.latency.stdDevMs,
    },
    percentiles,
  );
  return {
    name: result.name,
    fullName: result.fullName,
    protocol: result.protocol,
    method: result.method,
    requests: result.requests,
    failures: result.failures,
    errorRate: errorRateOf(result),
    throughput: result.throughput,
    latency,
    histogram: result.histogram
      ? { unit: "ms", buckets: result.histogram.map((bucket) => ({ le: bucket.upperMs, count: bucket.count })) }
      : null,
    statusCodes: result.statusCodes ? { ...result.statusCodes } : null,
    errors: result.errors ? { ...result.errors } : null,
    metrics: { ...result.metrics },
    timeline: result.timeline ? result.timeline.map(({ atMs, ...point }) => ({ at: new Date(atMs).toISOString(), ...point })) : null,
  };
}
