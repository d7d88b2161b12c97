import type { ReadDb } from "../../db";
import type { EndpointResult, FormatId, ParsedRun } from "../../domain/run";
import { AGGREGATE_NAME } from "../../domain/run";
import type { Prisma } from "../../generated/prisma/client";
import type { RunBudget } from "../../domain/gate/budget";
import { runBudgetSchema } from "../../schemas/budget";

/**
 * Rebuilds stored runs as the normalized ParsedRun that pages, comparisons and grading consume:
 * the same shape the parsers produce, so every consumer reads one type whichever way the run came in.
 */
const STORED_RUN_INCLUDE = {
  results: { include: { endpoint: true }, orderBy: { id: "asc" } },
  metrics: true,
} satisfies Prisma.RunInclude;

/** Timelines (thousands of points for a long Locust run) are read only where shown: the run's page and document. */
const WITHOUT_TIMELINES = {
  ...STORED_RUN_INCLUDE,
  results: { ...STORED_RUN_INCLUDE.results, omit: { timeline: true } },
} satisfies Prisma.RunInclude;

type StoredResult = Prisma.RunGetPayload<{ include: typeof STORED_RUN_INCLUDE }>["results"][number];
type OmittableColumn = "timeline" | "histogram" | "statusCodes" | "errors";
type StoredRunRow = Omit<Prisma.RunGetPayload<{ include: typeof STORED_RUN_INCLUDE }>, "results"> & {
  results: (Omit<StoredResult, OmittableColumn> & Partial<Pick<StoredResult, OmittableColumn>>)[];
};

export interface LoadedRun {
  run: ParsedRun;
  stored: {
    id: string;
    uploadedAt: Date;
    startedAt: Date;
    idempotencyKey: string | null;
    isDemo: boolean;
    /** Its pair in an A/B job (null: not an A/B run): a comparison of the job pairs its runs by it. */
    abPair?: number | null;
    /** The budget its upload's benchtrack.json set (null: Settings judge it): its grade and gate use it. */
    budget?: RunBudget | null;
  };
}

export interface LoadOptions {
  /** Read each result's timeline too (default: no, they stay null). */
  timelines?: boolean;
  /**
   * Only the numbers the gate reads: no histograms, status codes or errors (they stay null). The CI
   * gate reads up to 30 baseline runs per upload; their histograms are most of the bytes.
   */
  numbersOnly?: boolean;
}

/** The numbers of each result and nothing else (see LoadOptions.numbersOnly). */
const NUMBERS_ONLY = {
  ...STORED_RUN_INCLUDE,
  results: { ...STORED_RUN_INCLUDE.results, omit: { timeline: true, histogram: true, statusCodes: true, errors: true } },
} satisfies Prisma.RunInclude;

export async function loadParsedRun(db: ReadDb, projectId: string, runId: string, options: LoadOptions = {}): Promise<LoadedRun | null> {
  return (await loadParsedRuns(db, projectId, [runId], options)).get(runId) ?? null;
}

/** Several runs in one query; the map holds the ids that exist in the project. */
export async function loadParsedRuns(
  db: ReadDb,
  projectId: string,
  runIds: readonly string[],
  options: LoadOptions = {},
): Promise<Map<string, LoadedRun>> {
  if (runIds.length === 0) return new Map();
  const where = { id: { in: [...runIds] }, projectId };
  const rows: StoredRunRow[] = options.timelines
    ? await db.run.findMany({ where, include: STORED_RUN_INCLUDE })
    : options.numbersOnly
      ? await db.run.findMany({ where, include: NUMBERS_ONLY })
      : await db.run.findMany({ where, include: WITHOUT_TIMELINES });
  // Prisma reads the runs, then their results, in statements of their own: a run deleted in between
  // comes back with no results. It is gone, so it is left out as one that never was.
  const loaded = new Map<string, LoadedRun>();
  for (const row of rows) {
    const run = toLoadedRun(row);
    if (run) loaded.set(row.id, run);
  }
  return loaded;
}

function toLoadedRun(row: StoredRunRow): LoadedRun | null {
  const metricsOf = (endpointId: number | null) =>
    Object.fromEntries(
      row.metrics
        .filter((metric) => metric.endpointId === endpointId)
        .map((metric) => [metric.key, { value: metric.value, unit: metric.unit, better: metric.better, ...(metric.exact ? { exact: true } : {}) }]),
    );
  const toEndpointResult = (result: StoredRunRow["results"][number]): EndpointResult => ({
    name: result.endpoint?.name ?? AGGREGATE_NAME,
    fullName: result.endpoint?.fullName ?? null,
    protocol: result.endpoint?.protocol ?? null,
    method: result.endpoint?.method ?? null,
    requests: result.requests,
    failures: result.failures,
    throughput: result.throughput,
    latency: {
      minMs: result.minMs,
      meanMs: result.meanMs,
      maxMs: result.maxMs,
      stdDevMs: result.stdDevMs,
      percentiles: result.percentiles as Record<string, number>,
    },
    histogram: (result.histogram as EndpointResult["histogram"]) ?? null,
    statusCodes: (result.statusCodes as Record<string, number> | null) ?? null,
    errors: (result.errors as Record<string, number> | null) ?? null,
    metrics: metricsOf(result.endpointId),
    timeline: (result.timeline as EndpointResult["timeline"] | undefined) ?? null,
  });
  const aggregate = row.results.find((result) => result.endpointId === null);
  // Every stored run has one (ingest writes it with the run): none means the run was deleted while read.
  if (!aggregate) return null;
  const run: ParsedRun = {
    format: row.format as FormatId,
    tool: row.tool,
    toolVersion: row.toolVersion,
    label: row.label,
    round: row.round,
    startedAt: row.startedAt.toISOString(),
    durationSeconds: row.durationSeconds,
    environment: {
      git: { commit: row.gitCommit, branch: row.gitBranch, pullRequest: row.pullRequest, repoUrl: null },
      ci: { buildUrl: row.buildUrl },
      host: { name: row.hostName, cpus: row.hostCpus, memoryGb: row.hostMemoryGb },
      testbed: row.testbed,
      appVersion: row.appVersion,
      config: row.config as ParsedRun["environment"]["config"],
      attributes: row.attributes as Record<string, string>,
    },
    endpoints: row.results.filter((result) => result.endpointId !== null).map(toEndpointResult),
    // Custom metrics of the aggregate are stored as the run's (endpoint_id NULL): see ingest.
    aggregate: { ...toEndpointResult(aggregate), protocol: row.protocol, metrics: {} },
    metrics: metricsOf(null),
    thresholds: row.thresholds as unknown as ParsedRun["thresholds"],
    checks: row.checks as unknown as ParsedRun["checks"],
    notes: row.notes as string[],
  };
  return {
    run,
    stored: {
      id: row.id,
      uploadedAt: row.uploadedAt,
      startedAt: row.startedAt,
      idempotencyKey: row.idempotencyKey,
      isDemo: row.isDemo,
      abPair: row.abJob === null ? null : row.abPair,
      budget: storedBudget(row.budget),
    },
  };
}

/**
 * A run about to be stored, as loadParsedRun will read it back: what storing drops (the repository
 * URL) dropped, the aggregate's custom metrics as the run's, the start time as stored. The upload judges
 * and answers with it, so its answer is the one GET …/runs/{id} and …/verdict give later.
 */
export function asStoredRun(run: ParsedRun, stored: LoadedRun["stored"]): LoadedRun {
  const { aggregate, environment } = run;
  return {
    run: {
      ...run,
      startedAt: stored.startedAt.toISOString(),
      environment: { ...environment, git: { ...environment.git, repoUrl: null } },
      aggregate: { ...aggregate, name: AGGREGATE_NAME, fullName: null, method: null, metrics: {} },
      metrics: { ...aggregate.metrics, ...run.metrics },
    },
    stored,
  };
}

/** A run's kept budget as stored (runs.budget); null for none, or for one a later schema refuses (Settings judge it then). */
export function storedBudget(value: unknown): RunBudget | null {
  if (value === null || value === undefined) return null;
  const parsed = runBudgetSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
