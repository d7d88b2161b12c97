import { formatDeltaPct } from "../domain/format";
import { AGGREGATE_URL_NAME } from "../domain/run";
import {
  DEFAULT_MAX_POINTS,
  rangeStart,
  selectTrendRuns,
  shortCommit,
  toMetricPoints,
  toTrendPoints,
} from "../domain/series/trend-series";
import type { MetricPoint, TrendRange, TrendRow } from "../domain/series/trend-series";
import type { Better } from "../domain/run";
import { Prisma } from "../generated/prisma/client";
import { notFound } from "./errors";
import { listRunFilterOptions } from "./run-history";
import type { PrismaClient } from "../generated/prisma/client";

/**
 * The per-endpoint trend page's data: an endpoint's (or, for `_all`, the run aggregate's) history under
 * the page's filters, thinned on the server to what a chart can draw (see trend-series.ts for the
 * choice of runs), its custom metrics, the latest runs, and the values the filter selects offer.
 *
 * Queries follow the indexes: results (project_id, endpoint_id, started_at DESC) and metrics
 * (project_id, key, endpoint_id, started_at DESC), joined to runs only for the label/branch filters and
 * for the tooltip fields of the runs actually drawn. A long history is read twice: first the few
 * columns run selection looks at, for every run (one SQL statement: on 20,000 runs it is ~3× faster
 * than the same read through the query builder, which materialises an object per row); then whole
 * rows for the chosen runs only (≤ maxPoints).
 */
export const LATEST_RUNS = 20;

export interface EndpointTrendsQuery {
  projectSlug: string;
  /** The endpoint's name (decoded), or AGGREGATE_URL_NAME for the run aggregate. */
  endpoint: string;
  /**
   * The endpoint's protocol (its identity is name and protocol). Null or absent: the only endpoint of that
   * name, or, when several protocols share it, the one measured most recently (the page offers the others).
   */
  protocol?: string | null;
  branch: string | null;
  label: string | null;
  /**
   * One tool's runs (runs of different tools are different series); "all" for every tool; null for
   * the default, the tool of the endpoint's latest run.
   */
  tool?: string | null;
  range: TrendRange;
  /** The most runs a chart draws (default DEFAULT_MAX_POINTS, 300). */
  maxPoints?: number;
  /** The clock the range counts back from; tests pin it. */
  now?: Date;
}

export interface MetricTrendPoint extends MetricPoint {
  label: string | null;
  round: number | null;
  branch: string | null;
  commitShort: string | null;
}

export interface MetricTrend {
  key: string;
  unit: string | null;
  /** null: the tool did not say which way is better. */
  better: Better | null;
  /** Runs with this metric under the filters (M), and the points drawn (≤ maxPoints). */
  total: number;
  isDownsampled: boolean;
  points: MetricTrendPoint[];
}

const RUN_INFO_SELECT = { label: true, round: true, gitBranch: true, gitCommit: true } satisfies Prisma.RunSelect;

const TREND_ROW_SELECT = {
  runId: true,
  startedAt: true,
  p50Ms: true,
  p90Ms: true,
  p95Ms: true,
  p99Ms: true,
  meanMs: true,
  maxMs: true,
  throughput: true,
  errorRate: true,
  run: { select: RUN_INFO_SELECT },
} satisfies Prisma.ResultSelect;

type TrendRowRecord = Prisma.ResultGetPayload<{ select: typeof TREND_ROW_SELECT }>;

export async function getEndpointTrends(db: PrismaClient, query: EndpointTrendsQuery) {
  const maxPoints = query.maxPoints ?? DEFAULT_MAX_POINTS;
  const project = await db.project.findUnique({
    where: { slug: query.projectSlug },
    select: { id: true, slug: true, name: true },
  });
  if (!project) throw notFound(`Project "${query.projectSlug}"`);

  const isAggregate = query.endpoint === AGGREGATE_URL_NAME;
  const endpoint = isAggregate ? null : await findEndpoint(db, project.id, query.endpoint, query.protocol ?? null);
  if (!isAggregate && !endpoint) {
    throw notFound(`Endpoint "${query.endpoint}"${query.protocol ? ` (${query.protocol})` : ""}`);
  }
  const endpointId = endpoint?.id ?? null;

  const since = rangeStart(query.range, query.now ?? new Date());
  const requestedTool = query.tool ?? null;
  const tool = requestedTool === ALL_TOOLS ? null : (requestedTool ?? (await latestTool(db, project.id, endpointId)));
  const scope: HistoryScope = { projectId: project.id, endpointId, since, branch: query.branch, label: query.label, tool };

  const [history, filters, endpoints] = await Promise.all([
    // 1st read: every run of the history, only the columns run selection looks at.
    readSelectionColumns(db, scope),
    // The project's branches and labels, by a loose index scan of runs (microseconds), rather than
    // the endpoint's own (a join over its whole history): a value without this endpoint simply
    // shows "no runs match".
    listRunFilterOptions(db, project.id),
    db.endpoint.findMany({
      where: { projectId: project.id },
      select: { name: true, protocol: true },
      orderBy: [{ name: "asc" }, { protocol: "asc" }],
    }),
  ]);

  const selection = selectTrendRuns(history, maxPoints);
  const orderOf = new Map(history.map((row, index) => [row.runId, index + 1]));
  const latestKept = history
    .slice(-LATEST_RUNS)
    .map((row, index, rows) => ({ row, order: history.length - rows.length + index + 1 }))
    .reverse();

  // 2nd read: whole rows, with the run's label/branch/commit, of the drawn and the latest runs only.
  const wantedIds = [...new Set([...selection.kept, ...latestKept].map(({ row }) => row.id))];
  const full = new Map(
    (await db.result.findMany({ where: { id: { in: wantedIds } }, select: { id: true, ...TREND_ROW_SELECT } })).map(
      (record) => [record.id, toTrendRow(record)],
    ),
  );
  const withFullRows = (kept: readonly { row: SelectionRow; order: number }[]) =>
    toTrendPoints(
      kept.flatMap(({ row, order }) => {
        const fullRow = full.get(row.id);
        return fullRow ? [{ row: fullRow, order }] : [];
      }),
    );
  const points = withFullRows(selection.kept);
  const latest = withFullRows(latestKept);

  const [metrics, markers] = await Promise.all([
    findMetricTrends(db, scope, orderOf, maxPoints),
    findMarkers(db, project.id, endpointId, history, orderOf),
  ]);

  return {
    project: { slug: project.slug, name: project.name },
    endpoint: {
      /** The URL name: the endpoint's name, or "_all". */
      name: endpoint?.name ?? AGGREGATE_URL_NAME,
      isAggregate,
      fullName: endpoint?.fullName ?? null,
      protocol: endpoint?.protocol ?? null,
    },
    /** Every endpoint of the project, by name then protocol (a name may have several). */
    endpoints,
    filters,
    query: { branch: query.branch, label: query.label, range: query.range, tool: requestedTool },
    /** The tool whose runs are drawn (null: every tool, as asked with tool=all). */
    tool,
    /** M: runs under the filters; N = points.length of them are drawn. */
    totalRuns: selection.total,
    isDownsampled: selection.isDownsampled,
    maxPoints,
    /** The drawn runs, oldest first; every line shares them. */
    points,
    /** The latest runs, newest first (≤ 20), for the table. */
    latest,
    metrics,
    /** Change points, pinned baseline runs and annotations of runs in the history, oldest first. */
    markers,
  };
}

/**
 * The endpoint of this name and protocol; without a protocol, the only endpoint of that name or, when
 * several protocols share the name, the one with the most recent result.
 */
async function findEndpoint(db: PrismaClient, projectId: string, name: string, protocol: string | null) {
  const select = { id: true, name: true, fullName: true, protocol: true } as const;
  if (protocol !== null) return db.endpoint.findFirst({ where: { projectId, name, protocol }, select });
  const candidates = await db.endpoint.findMany({ where: { projectId, name }, select });
  if (candidates.length <= 1) return candidates[0] ?? null;
  const latest = await db.result.findFirst({
    where: { projectId, endpointId: { in: candidates.map((candidate) => candidate.id) } },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    select: { endpointId: true },
  });
  return candidates.find((candidate) => candidate.id === latest?.endpointId) ?? candidates[0]!;
}

export interface TrendMarker {
  runId: string;
  time: number;
  order: number;
  kind: "regression" | "improvement" | "pinned" | "annotation";
  text: string;
}

/**
 * What the charts mark: detected change points of this endpoint (the aggregate's for "_all"), runs
 * pinned as a baseline, and annotations ("deployed v2.3"). Only runs inside the drawn history count.
 */
async function findMarkers(
  db: PrismaClient,
  projectId: string,
  endpointId: number | null,
  history: readonly SelectionRow[],
  orderOf: ReadonlyMap<string, number>,
): Promise<TrendMarker[]> {
  const timeOf = new Map(history.map((row) => [row.runId, row.startedAt.getTime()]));
  const [changes, pins, annotations] = await Promise.all([
    db.regression.findMany({
      where: { projectId, endpointId, status: { not: "dismissed" } },
      select: { firstRunId: true, metric: true, kind: true, deltaPct: true },
    }),
    db.baselinePin.findMany({ where: { projectId }, select: { runIds: true, forLabel: true } }),
    db.annotation.findMany({ where: { projectId }, select: { runId: true, text: true } }),
  ]);
  const candidates: Omit<TrendMarker, "time" | "order">[] = [
    ...changes.map((change) => ({
      runId: change.firstRunId,
      kind: change.kind,
      text: `${change.metric} ${formatDeltaPct(change.deltaPct)}`,
    })),
    ...pins.flatMap((pin) =>
      pin.runIds.map((runId) => ({ runId, kind: "pinned" as const, text: `baseline${pin.forLabel ? ` (${pin.forLabel})` : ""}` })),
    ),
    ...annotations.map((annotation) => ({ runId: annotation.runId, kind: "annotation" as const, text: annotation.text })),
  ];
  return candidates
    .flatMap((marker) => {
      const time = timeOf.get(marker.runId);
      const order = orderOf.get(marker.runId);
      return time === undefined || order === undefined ? [] : [{ ...marker, time, order }];
    })
    .sort((a, b) => a.order - b.order);
}

export type EndpointTrends = Awaited<ReturnType<typeof getEndpointTrends>>;

function toTrendRow(record: TrendRowRecord): TrendRow {
  return {
    runId: record.runId,
    startedAt: record.startedAt,
    label: record.run.label,
    round: record.run.round,
    branch: record.run.gitBranch,
    commit: record.run.gitCommit,
    p50Ms: record.p50Ms,
    p90Ms: record.p90Ms,
    p95Ms: record.p95Ms,
    p99Ms: record.p99Ms,
    meanMs: record.meanMs,
    maxMs: record.maxMs,
    throughput: record.throughput,
    errorRate: record.errorRate,
  };
}

interface SelectionRow {
  id: number;
  runId: string;
  startedAt: Date;
  p95Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  errorRate: number | null;
  throughput: number | null;
}

/** Which rows of results or metrics (alias `r`) make the history: project, endpoint, range, run filters. */
interface HistoryScope {
  projectId: string;
  /** Null: the run aggregate (results), or run-level metrics. */
  endpointId: number | null;
  since: Date | null;
  branch: string | null;
  label: string | null;
  tool: string | null;
}

/** `tool=all`: every tool's runs on one chart, as asked. */
export const ALL_TOOLS = "all";

/** The tool of the endpoint's (or the aggregate's) latest run: the default series of its trend page. */
async function latestTool(db: PrismaClient, projectId: string, endpointId: number | null): Promise<string | null> {
  const rows = await db.$queryRaw<{ tool: string }[]>`
    SELECT ru.tool FROM results r JOIN runs ru ON ru.id = r.run_id
     WHERE r.project_id = ${projectId} AND ${endpointCondition(endpointId)}
     ORDER BY r.started_at DESC, r.id DESC LIMIT 1`;
  return rows[0]?.tool ?? null;
}

/** The same scope for the query builder, on metrics. */
function historyWhere(scope: HistoryScope): Prisma.MetricWhereInput {
  const run = {
    ...(scope.branch !== null && { gitBranch: scope.branch }),
    ...(scope.label !== null && { label: scope.label }),
    ...(scope.tool !== null && { tool: scope.tool }),
  } satisfies Prisma.RunWhereInput;
  return {
    projectId: scope.projectId,
    endpointId: scope.endpointId,
    ...(scope.since && { startedAt: { gte: scope.since } }),
    ...(Object.keys(run).length > 0 && { run }),
  };
}

/** `r.endpoint_id = $n`, or `IS NULL` for the run aggregate. */
function endpointCondition(endpointId: number | null): Prisma.Sql {
  return endpointId === null ? Prisma.sql`r.endpoint_id IS NULL` : Prisma.sql`r.endpoint_id = ${endpointId}`;
}

/** FROM … WHERE of a history on table `r`, joined to runs (`ru`) only when a branch, label or tool is asked. */
function historySource(
  table: "results" | "metrics",
  scope: HistoryScope,
  extra: Prisma.Sql = Prisma.empty,
): Prisma.Sql {
  const hasRunFilter = scope.branch !== null || scope.label !== null || scope.tool !== null;
  return Prisma.sql`
    FROM ${Prisma.raw(table)} r
    ${hasRunFilter ? Prisma.sql`JOIN runs ru ON ru.id = r.run_id` : Prisma.empty}
    WHERE r.project_id = ${scope.projectId}
      ${extra}
      AND ${endpointCondition(scope.endpointId)}
      ${scope.since ? Prisma.sql`AND r.started_at >= ${scope.since}` : Prisma.empty}
      ${scope.branch !== null ? Prisma.sql`AND ru.git_branch = ${scope.branch}` : Prisma.empty}
      ${scope.label !== null ? Prisma.sql`AND ru.label = ${scope.label}` : Prisma.empty}
      ${scope.tool !== null ? Prisma.sql`AND ru.tool = ${scope.tool}` : Prisma.empty}`;
}

/**
 * The whole filtered history, oldest first, as the few columns run selection needs: a range scan of
 * results (project_id, endpoint_id, started_at).
 */
async function readSelectionColumns(db: PrismaClient, scope: HistoryScope): Promise<SelectionRow[]> {
  return db.$queryRaw<SelectionRow[]>`
    SELECT r.id, r.run_id AS "runId", r.started_at AS "startedAt", r.p95_ms AS "p95Ms", r.p99_ms AS "p99Ms",
           r.max_ms AS "maxMs", r.error_rate AS "errorRate", r.throughput
    ${historySource("results", scope)}
    ORDER BY r.started_at ASC, r.run_id ASC`;
}

/**
 * One series per custom metric key of the endpoint (or, on the aggregate page, of the run), each read
 * on the (project_id, key, endpoint_id, started_at) index, thinned like the latency history.
 */
async function findMetricTrends(
  db: PrismaClient,
  scope: HistoryScope,
  orderOf: ReadonlyMap<string, number>,
  maxPoints: number,
): Promise<MetricTrend[]> {
  const where = historyWhere(scope);
  const keys = await db.metric.groupBy({ by: ["key"], where, orderBy: { key: "asc" } });
  const series = await Promise.all(
    keys.map(async ({ key }) => {
      const [rows, newest] = await Promise.all([
        // Each key's history on the (project_id, key, endpoint_id, started_at) index.
        db.$queryRaw<{ runId: string; startedAt: Date; value: number }[]>`
          SELECT r.run_id AS "runId", r.started_at AS "startedAt", r.value
          ${historySource("metrics", scope, Prisma.sql`AND r.key = ${key}`)}
          ORDER BY r.started_at ASC, r.run_id ASC`,
        // Unit and direction as the newest run states them.
        db.metric.findFirst({
          where: { ...where, key },
          select: { unit: true, better: true },
          orderBy: [{ startedAt: "desc" }, { runId: "desc" }],
        }),
      ]);
      return {
        key,
        unit: newest?.unit ?? null,
        better: newest?.better ?? null,
        ...toMetricPoints(rows, orderOf, maxPoints),
      };
    }),
  );

  const runIds = [...new Set(series.flatMap((metric) => metric.points.map((point) => point.runId)))];
  const runs = new Map(
    runIds.length === 0
      ? []
      : (await db.run.findMany({ where: { id: { in: runIds } }, select: { id: true, ...RUN_INFO_SELECT } })).map(
          (run) => [run.id, run],
        ),
  );
  return series
    .filter((metric) => metric.total > 0)
    .map((metric) => ({
      ...metric,
      points: metric.points.map((point) => {
        const run = runs.get(point.runId);
        return {
          ...point,
          label: run?.label ?? null,
          round: run?.round ?? null,
          branch: run?.gitBranch ?? null,
          commitShort: shortCommit(run?.gitCommit ?? null),
        };
      }),
    }));
}
