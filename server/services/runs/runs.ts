import type { ReadDb } from "../../db";
import type { Prisma } from "../../generated/prisma/client";
import { encodeCursor } from "../../domain/run-cursor";
import type { RunCursor } from "../../domain/run-cursor";
import { OUTCOMES } from "../../domain/gate/outcome";
import type { Outcome } from "../../domain/gate/outcome";

/**
 * Run listings, newest first, with keyset (cursor) pagination on (startedAt, id): see
 * domain/run-cursor.ts.
 */
export const RUN_SUMMARY_SELECT = {
  id: true,
  label: true,
  round: true,
  tool: true,
  format: true,
  startedAt: true,
  durationSeconds: true,
  gitBranch: true,
  gitCommit: true,
  pullRequest: true,
  isDemo: true,
  outcome: true,
  outcomeReasons: true,
  /** The aggregate's protocol: "benchmark" for a run of benchmarks (domain/series-kind.ts). */
  protocol: true,
  testbed: true,
  results: {
    where: { endpointId: null },
    select: {
      requests: true,
      failures: true,
      errorRate: true,
      throughput: true,
      p50Ms: true,
      p95Ms: true,
      p99Ms: true,
    },
  },
} satisfies Prisma.RunSelect;

/** Filters beyond the REST API's label/branch/tool: the history page's date range and attributes. */
export interface RunFilters {
  label?: string;
  branch?: string;
  tool?: string;
  /** Runs started at or after this instant. */
  startedFrom?: Date;
  /** Runs started strictly before this instant. */
  startedBefore?: Date;
  /** Every key must have exactly this string value in `runs.attributes`. */
  attributes?: Record<string, string>;
}

/** The where clause for a project's runs under `filters`: each filter narrows, none is required. */
function runFiltersWhere(projectId: string, filters: RunFilters): Prisma.RunWhereInput {
  const attributeFilters = Object.entries(filters.attributes ?? {}).map(
    ([key, value]): Prisma.RunWhereInput => ({ attributes: { path: [key], equals: value } }),
  );
  return {
    projectId,
    ...(filters.label !== undefined && { label: filters.label }),
    ...(filters.branch !== undefined && { gitBranch: filters.branch }),
    ...(filters.tool !== undefined && { tool: filters.tool }),
    ...((filters.startedFrom !== undefined || filters.startedBefore !== undefined) && {
      startedAt: {
        ...(filters.startedFrom !== undefined && { gte: filters.startedFrom }),
        ...(filters.startedBefore !== undefined && { lt: filters.startedBefore }),
      },
    }),
    ...(attributeFilters.length > 0 && { AND: attributeFilters }),
  };
}

/** The kept outcome as stored (text), as the closed set it is; anything else (never written) as not kept. */
function toOutcome(value: string | null): Outcome | null {
  return (OUTCOMES as readonly string[]).includes(value ?? "") ? (value as Outcome) : null;
}

export async function listRuns(
  db: ReadDb,
  projectId: string,
  query: RunFilters & { limit: number; cursor?: RunCursor | null },
) {
  const where: Prisma.RunWhereInput = {
    ...runFiltersWhere(projectId, query),
    ...(query.cursor && {
      OR: [
        { startedAt: { lt: query.cursor.startedAt } },
        { startedAt: query.cursor.startedAt, id: { lt: query.cursor.id } },
      ],
    }),
  };
  const rows = await db.run.findMany({
    where,
    select: RUN_SUMMARY_SELECT,
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const endpointCounts = await countEndpoints(db, page.map((run) => run.id));
  return {
    runs: page.map(({ results, outcome, ...run }) => ({
      ...run,
      outcome: toOutcome(outcome),
      aggregate: results[0] ?? null,
      endpointCount: endpointCounts.get(run.id) ?? 0,
    })),
    nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null,
  };
}

/**
 * Each run's endpoints (or benchmarks): what a row of a run of benchmarks, whose aggregate holds no
 * numbers, says. Counted for the page's runs only, through results' run index: as a relation count of
 * the run select, Prisma counted every result of the table and joined the page's runs to that (a seq
 * scan: 440 ms for the overview at a million result rows).
 */
async function countEndpoints(db: ReadDb, runIds: readonly string[]): Promise<Map<string, number>> {
  if (runIds.length === 0) return new Map();
  const groups = await db.result.groupBy({ by: ["runId"], where: { runId: { in: [...runIds] }, endpointId: { not: null } }, _count: { _all: true } });
  return new Map(groups.map((group) => [group.runId, group._count._all]));
}

export async function findRawUploads(db: ReadDb, projectId: string, runId: string) {
  const run = await db.run.findFirst({
    where: { id: runId, projectId },
    select: {
      id: true,
      format: true,
      uploads: {
        select: { position: true, fileName: true, contentType: true, sizeBytes: true },
        orderBy: { position: "asc" },
      },
    },
  });
  if (!run) return null;
  const kept = await db.$queryRaw<{ position: number }[]>`
    SELECT position FROM raw_uploads WHERE run_id = ${run.id} AND gzip_data IS NOT NULL`;
  const available = new Set(kept.map(({ position }) => position));
  return { ...run, uploads: run.uploads.map((upload) => ({ ...upload, available: available.has(upload.position) })) };
}

/**
 * One raw file's stored gzip, or null once retention dropped it. Read as base64 text, not as bytea: the
 * embedded database's driver parses bytea's hex a JavaScript string per byte (see store-run.ts).
 */
export async function readRawGzip(db: ReadDb, runId: string, position: number): Promise<Buffer | null> {
  const [row] = await db.$queryRaw<{ data: string | null }[]>`
    SELECT encode(gzip_data, 'base64') AS data FROM raw_uploads WHERE run_id = ${runId} AND position = ${position}`;
  return row?.data == null ? null : Buffer.from(row.data, "base64");
}
