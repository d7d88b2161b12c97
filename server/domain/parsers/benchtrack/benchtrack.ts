/**
 * The Benchtrack JSON format v1 (docs/architecture.md, "The Benchtrack JSON format"): what any custom
 * tool can send, and how a stored run is rendered back. It is a public contract: `runInputSchema` is published as JSON Schema at
 * /api/v1/schema/run.json, so every public field carries `.describe()`, and changes must only add.
 * Only `endpoints[].name` is required per endpoint; every number is optional (null or absent = unknown).
 */
import { z } from "zod";
import {
  AGGREGATE_NAME,
  emptyEndpoint,
  emptyRun,
  type CustomMetric,
  type EndpointResult,
  type LatencySummary,
  type ParsedRun,
} from "../../run";
import { aggregateEndpoints } from "../aggregate";
import { TIME_UNIT_MS } from "../benchmark";
import { parseWire } from "../wire";
import { MAX_BENCHMARKS, benchmarkLimit } from "../validate";

export const BENCHTRACK_SCHEMA_ID = "benchtrack/v1";

const MS_PER_UNIT = TIME_UNIT_MS;
const PERCENTILE_KEY = /^p(\d+(?:\.\d+)?)$/;
const KNOWN_LATENCY_KEYS = new Set(["unit", "mean", "min", "max", "stdDev"]);

const latencyUnitSchema = z.enum(["s", "ms", "us", "ns"]).describe("Unit of every latency number in this object.");
const optionalMeasure = z.number().nonnegative().nullish();
const optionalCount = z.number().int().nonnegative().nullish();
const optionalText = z.string().nullish();

export const customMetricSchema = z
  .object({
    value: z.number().describe("The measured value."),
    unit: z.string().nullish().describe('Unit shown with the value, e.g. "%", "MB", "msg/s".'),
    better: z
      .enum(["lower", "higher"])
      .nullish()
      .describe("Which direction of change is an improvement. Null or absent: unknown (the metric is shown and compared, never judged)."),
    exact: z
      .boolean()
      .optional()
      .describe(
        "True for a count measured exactly (allocations, bytes allocated, instructions), the same in every repetition: any change between runs is then a change of the code, judged without noise (a worse change of at least the minimum effect fails the gate). Absent: measured with noise.",
      ),
  })
  .describe("A measurement other than latency (CPU %, memory, messages/s…).");

const latencyInputSchema = z
  .object({
    unit: latencyUnitSchema.default("ms"),
    mean: optionalMeasure.describe("Mean latency."),
    min: optionalMeasure.describe("Fastest request."),
    max: optionalMeasure.describe("Slowest request."),
    stdDev: optionalMeasure.describe("Standard deviation of latency."),
  })
  .catchall(z.number().nonnegative().nullable())
  .superRefine((latency, context) => {
    for (const key of Object.keys(latency)) {
      if (KNOWN_LATENCY_KEYS.has(key)) continue;
      const match = PERCENTILE_KEY.exec(key);
      const percentile = match?.[1] === undefined ? Number.NaN : Number(match[1]);
      if (!(percentile >= 0 && percentile <= 100)) {
        context.addIssue({ code: "custom", path: [key], message: 'expected a percentile key like "p95" or "p99.9" (0..100)' });
      }
    }
  })
  .describe('Latency statistics. Besides the named fields, keys "p<number>" are percentiles: "p50", "p95", "p99.9".');

const histogramInputSchema = z
  .object({
    unit: latencyUnitSchema.default("ms"),
    buckets: z
      .array(
        z.object({
          le: z.number().nonnegative().describe("Upper bound of the bucket (inclusive), in `unit`."),
          count: z.number().int().nonnegative().describe("Requests in (previous le, le]."),
        }),
      )
      .describe("Buckets in ascending order of `le`."),
  })
  .describe("Latency histogram.");

/** One window of a run's timeline; `at` is the window's end. */
export const timelinePointSchema = z
  .object({
    at: z.iso.datetime({ offset: true }).describe("End of the window (ISO 8601)."),
    requestsPerSecond: z.number().nonnegative().nullable().describe("Throughput during the window."),
    failuresPerSecond: z.number().nonnegative().nullable().describe("Failures per second during the window."),
    p50Ms: z.number().nonnegative().nullable().describe("Median latency of the window, ms."),
    p95Ms: z.number().nonnegative().nullable().describe("95th percentile latency of the window, ms."),
    users: z.number().nonnegative().nullable().describe("Concurrent users or VUs at that moment."),
  })
  .describe("Throughput, failures and latency of one window of the run: as the tool wrote them while it ran, or, for k6 NDJSON, counted from its samples one second a window.");

const resultFields = {
  fullName: optionalText.describe("The tool's full name when it differs from `name`."),
  protocol: optionalText.describe('"http", "grpc", …'),
  method: optionalText.describe("HTTP method, when known."),
  requests: optionalCount.describe("Requests made."),
  failures: optionalCount.describe("Requests that failed."),
  throughput: optionalMeasure.describe("Requests per second."),
  latency: latencyInputSchema.optional(),
  histogram: histogramInputSchema.nullish(),
  statusCodes: z.record(z.string(), z.number().int().nonnegative()).nullish().describe('Status → count ("200", "OK").'),
  errors: z.record(z.string(), z.number().int().nonnegative()).nullish().describe("Error message → count."),
  metrics: z.record(z.string(), customMetricSchema).optional().describe("Custom metrics of this endpoint."),
  timeline: z.array(timelinePointSchema).nullish().describe("The run's course over time, oldest window first."),
};

const endpointInputSchema = z
  .object({
    name: z.string().min(1).describe('Endpoint identity within the project, e.g. "GetListing" or "GET /api/listings/:id".'),
    ...resultFields,
  })
  .describe("What was measured: an HTTP route, a gRPC method, a named request.");

const summaryInputSchema = z
  .object({ name: z.string().optional().describe("Ignored; the aggregate is always named (all)."), ...resultFields })
  .describe("The run's aggregate (all endpoints together). Without it, Benchtrack sums counts and leaves percentiles empty.");

const environmentInputSchema = z
  .object({
    git: z
      .object({
        commit: optionalText.describe("Commit SHA."),
        branch: optionalText.describe("Branch name."),
        pullRequest: z.number().int().positive().nullish().describe("Pull request number."),
        repoUrl: optionalText.describe("Repository URL."),
      })
      .optional(),
    ci: z.object({ buildUrl: optionalText.describe("Link to the CI build.") }).optional(),
    host: z
      .object({
        name: optionalText.describe("Host name of the load generator or system under test."),
        cpus: z.number().int().nonnegative().nullish().describe("CPU count."),
        memoryGb: optionalMeasure.describe("Memory in GB."),
      })
      .optional(),
    testbed: optionalText.describe(
      "The hardware the numbers were measured on (\"linux/amd64 · AMD EPYC\"): part of every series' identity, so runs on different testbeds are never compared as one series.",
    ),
    appVersion: optionalText.describe("Version of the application under test."),
    config: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
      .optional()
      .describe("Load configuration: vus, concurrency, rate, duration, protocol…"),
    attributes: z.record(z.string(), z.string()).optional().describe("Free-form key/values for filtering."),
  })
  .describe("Where and how the run happened.");

export const runInputSchema = z
  .object({
    schema: z.literal(BENCHTRACK_SCHEMA_ID).describe('Always "benchtrack/v1".'),
    tool: z.string().min(1).optional().describe('The tool that produced the numbers; defaults to "custom".'),
    toolVersion: optionalText.describe("Version of that tool."),
    label: optionalText.describe('Free text grouping runs, e.g. "baseline".'),
    round: z.number().int().nonnegative().nullish().describe("Round number within repeated runs."),
    startedAt: z.iso.datetime({ offset: true }).nullish().describe("ISO 8601 start time."),
    durationSeconds: optionalMeasure.describe("Run duration in seconds."),
    environment: environmentInputSchema.optional(),
    endpoints: z.array(endpointInputSchema).optional().describe("One entry per endpoint."),
    summary: summaryInputSchema.optional().describe("The run's aggregate over all endpoints (optional)."),
    aggregate: summaryInputSchema
      .optional()
      .describe('Same as "summary" (the name stored runs are read back with); give one or the other.'),
    metrics: z.record(z.string(), customMetricSchema).optional().describe("Run-level custom metrics."),
    thresholds: z
      .array(z.object({ metric: z.string(), expression: z.string(), passed: z.boolean() }))
      .optional()
      .describe("Pass/fail criteria the tool evaluated itself."),
    checks: z
      .array(
        z.object({
          name: z.string(),
          group: z.string().nullish(),
          passes: z.number().int().nonnegative(),
          fails: z.number().int().nonnegative(),
        }),
      )
      .optional()
      .describe("Named assertions the tool counted."),
    notes: z.array(z.string()).optional().describe("Remarks for the reader."),
  })
  .refine((run) => (run.endpoints?.length ?? 0) > 0 || run.summary !== undefined || run.aggregate !== undefined, {
    message: "a run needs at least one endpoint or a summary",
    path: ["endpoints"],
  })
  .refine((run) => run.summary === undefined || run.aggregate === undefined, {
    message: 'give "summary" or "aggregate", not both',
    path: ["aggregate"],
  })
  .describe("A load-test run in the Benchtrack JSON format v1.");

export type RunInput = z.infer<typeof runInputSchema>;
type ResultInput = z.infer<typeof summaryInputSchema>;

/** Parses a Benchtrack v1 document (already JSON-decoded). */
export function parseBenchtrack(document: unknown): ParsedRun {
  // Counted before a million entries are validated one by one: no run holds more than MAX_BENCHMARKS.
  const listed = (document as { endpoints?: unknown } | null)?.endpoints;
  if (Array.isArray(listed)) benchmarkLimit(listed.length, `endpoints[${MAX_BENCHMARKS}]`);
  const input = parseWire(runInputSchema, document, "Benchtrack v1 document");
  const endpoints = (input.endpoints ?? []).map((endpoint) => toEndpointResult(endpoint.name, endpoint));
  const givenAggregate = input.summary ?? input.aggregate;
  const aggregate = givenAggregate ? toEndpointResult(AGGREGATE_NAME, givenAggregate) : aggregateEndpoints(endpoints);
  const env = input.environment;
  return {
    ...emptyRun("benchtrack", input.tool ?? "custom"),
    toolVersion: input.toolVersion ?? null,
    label: input.label ?? null,
    round: input.round ?? null,
    startedAt: input.startedAt ?? null,
    durationSeconds: input.durationSeconds ?? null,
    environment: {
      git: {
        commit: env?.git?.commit ?? null,
        branch: env?.git?.branch ?? null,
        pullRequest: env?.git?.pullRequest ?? null,
        repoUrl: env?.git?.repoUrl ?? null,
      },
      ci: { buildUrl: env?.ci?.buildUrl ?? null },
      host: { name: env?.host?.name ?? null, cpus: env?.host?.cpus ?? null, memoryGb: env?.host?.memoryGb ?? null },
      testbed: env?.testbed ?? null,
      appVersion: env?.appVersion ?? null,
      config: { ...env?.config },
      attributes: { ...env?.attributes },
    },
    endpoints,
    aggregate,
    metrics: toCustomMetrics(input.metrics),
    thresholds: input.thresholds ?? [],
    checks: (input.checks ?? []).map((check) => ({ ...check, group: check.group ?? null })),
    notes: input.notes ?? [],
  };
}

function toEndpointResult(name: string, input: ResultInput): EndpointResult {
  const result = emptyEndpoint(name);
  result.fullName = input.fullName ?? null;
  result.protocol = input.protocol ?? null;
  result.method = input.method ?? null;
  result.requests = input.requests ?? null;
  result.failures = input.failures ?? null;
  result.throughput = input.throughput ?? null;
  if (input.latency) result.latency = toLatencySummary(input.latency);
  if (input.histogram) {
    const factor = MS_PER_UNIT[input.histogram.unit];
    result.histogram = input.histogram.buckets
      .map((bucket) => ({ upperMs: bucket.le * factor, count: bucket.count }))
      .sort((a, b) => a.upperMs - b.upperMs);
  }
  result.statusCodes = input.statusCodes ? { ...input.statusCodes } : null;
  result.errors = input.errors ? { ...input.errors } : null;
  result.metrics = toCustomMetrics(input.metrics);
  result.timeline = input.timeline
    ? input.timeline.map(({ at, ...point }) => ({ atMs: Date.parse(at), ...point })).sort((a, b) => a.atMs - b.atMs)
    : null;
  return result;
}

function toLatencySummary(latency: z.infer<typeof latencyInputSchema>): LatencySummary {
  const factor = MS_PER_UNIT[latency.unit];
  const inMs = (value: number | null | undefined): number | null => (typeof value === "number" ? value * factor : null);
  const percentiles: Record<string, number> = {};
  for (const [key, value] of Object.entries(latency)) {
    const match = PERCENTILE_KEY.exec(key);
    if (match?.[1] !== undefined && typeof value === "number") percentiles[String(Number(match[1]))] = value * factor;
  }
  return { minMs: inMs(latency.min), meanMs: inMs(latency.mean), maxMs: inMs(latency.max), stdDevMs: inMs(latency.stdDev), percentiles };
}

function toCustomMetrics(metrics: Record<string, z.infer<typeof customMetricSchema>> | undefined): Record<string, CustomMetric> {
  const result: Record<string, CustomMetric> = {};
  for (const [key, metric] of Object.entries(metrics ?? {})) {
    result[key] = { value: metric.value, unit: metric.unit ?? null, better: metric.better ?? null, ...(metric.exact === true ? { exact: true } : {}) };
  }
  return result;
}
