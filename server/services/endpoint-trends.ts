import { formatDeltaPct } from "../domain/format";
import { AGGREGATE_URL_NAME } from "../domain/run";
import {
  DEFAULT_MAX_POINTS,
  PRESELECT_BUCKETS_PER_POINT,
  rangeStart,
  selectFromCandidates,
  toMetricPoints,
  toTrendPoints,
} from "../domain/series/trend-series";
import type { MetricRow, MetricTrendPoint, TrendRange, TrendRow } from "../domain/series/trend-series";
import { describeRunOfPoint } from "../domain/series/run-point";
import type { Better } from "../domain/run";
import { LRUCache } from "lru-cache";
import { Prisma } from "../generated/prisma/client";
import { notFound } from "./errors";
import { listRunFilterOptions } from "./run-history";
import { getTrendOverlay, listOverlayPullRequests } from "./trend-overlay";
import type { OverlayTarget } from "../domain/series/trend-overlay";
import type { PrismaClient } from "../generated/prisma/client";

/**
 * The per-endpoint trend page's data: an endpoint's (or, for `_all`, the run aggregate's) history under
 * the page's filters, thinned on the server to what a chart can draw (see trend-series.ts for the
 * choice of runs), its custom metrics, the latest runs, and the values the filter selects offer.
 *
 * Queries follow the indexes: results (project_id, endpoint_id, started_at DESC), which INCLUDEs the
 * columns run selection reads (an index-only scan), and metrics (project_id, key, endpoint_id,
 * started_at DESC); joined to runs only for the label/branch/tool filters and for the tooltip fields of
 * the runs actually drawn. A history is read twice: first the few columns run selection looks at, of
 * every run when the history is short, else of the candidates the database preselects (min/max per
 * bucket, see trend-series.ts: on 33,000 runs, transferring every row costs ~100 ms, the candidates
 * ~5); then whole rows for the chosen runs only (≤ maxPoints).
 *
 * With an overlay (a branch's or a PR's runs, trend-overlay.ts), the base series is the page's branch or,
 * when the page names none, the project's default branch; its band is learnt from the history read above.
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
  /** A branch's or a pull request's runs to draw over the base branch's series. */
  overlay?: OverlayTarget | null;
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
    select: { id: true, slug: true, name: true, defaultBranch: true },
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
  const overlayTarget = query.overlay ?? null;
  // An overlay is drawn over one branch: the page's, else the default branch (never every branch, which
  // would count the overlay's own runs in the base).
  const branch = query.branch ?? (overlayTarget ? project.defaultBranch : null);
  const scope: HistoryScope = {
    projectId: project.id,
    endpointId,
    since,
    branch,
    label: query.label,
    tool,
  };

  const [markerSources, filters, endpoints, pullRequests] = await Promise.all([
    findMarkerSources(db, project.id, endpointId),
    // The project's branches and labels, by a loose index scan of runs (microseconds), rather than
    // the endpoint's own (a join over its whole history): a value without this endpoint simply
    // shows "no runs match".
    listRunFilterOptions(db, project.id),
    db.endpoint.findMany({
      where: { projectId: project.id },
      select: { name: true, protocol: true },
      orderBy: [{ name: "asc" }, { protocol: "asc" }],
    }),
    listOverlayPullRequests(db, project.id),
  ]);

  // 1st read: the history's candidates (all of it when short), only the columns run selection looks at,
  // with the marked runs (to place their markers); beside it, the custom metrics' series.
  const signature = await historySignature(db, scope);
  const { runIds: markedRunIds, times: markedTimes } = markerSources;
  const [history, metrics] = await Promise.all([
    cachedRead(signature, ["candidates", ...scopeKey(scope), maxPoints, markedRunIds, markedTimes], () =>
      readTrendCandidates(db, scope, maxPoints, markedRunIds, markedTimes),
    ),
    cachedRead(signature, ["metrics", ...scopeKey(scope), maxPoints], () => findMetricTrends(db, scope, maxPoints)),
  ]);
  const candidates = history.rows.filter((row) => row.isCandidate).map((row) => ({ row, order: row.order }));
  const selection = selectFromCandidates(candidates, history.total, maxPoints);
  const latestKept = candidates.filter(({ order }) => order > history.total - LATEST_RUNS).reverse();

  // 2nd read: whole rows, with the run's label/branch/commit, of the drawn and the latest runs only.
  const wantedIds = [...new Set([...selection.kept, ...latestKept].map(({ row }) => row.id))];
  const full = new Map(
    (await db.result.findMany({ where: { id: { in: wantedIds } }, select: { id: true, ...TREND_ROW_SELECT } })).map(
      (record) => [record.id, toTrendRow(record)],
    ),
  );
  const withFullRows = (kept: readonly { row: CandidateRow; order: number }[]) =>
    toTrendPoints(
      kept.flatMap(({ row, order }) => {
        const fullRow = full.get(row.id);
        return fullRow ? [{ row: fullRow, order }] : [];
      }),
    );
  const points = withFullRows(selection.kept);
  const latest = withFullRows(latestKept);

  const markers = placeMarkers(markerSources.markers, history.rows);

  // The band is learnt from the base runs read (every run of a short history; of a long one, its
  // preselected candidates, whose latest LATEST_RUNS are always all there).
  const overlay = overlayTarget
    ? await getTrendOverlay(
        db,
        { projectId: project.id, endpointId, since, label: query.label, tool },
        overlayTarget,
        branch ?? project.defaultBranch,
        history.rows
          .filter((row) => row.isCandidate)
          .map((row) => ({ order: row.order, time: row.startedAt.getTime(), p95Ms: row.p95Ms })),
        new Set(points.map((point) => point.order)),
      )
    : null;

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
    /** The filter options, and the pull requests the overlay select offers (newest first). */
    filters: { ...filters, pullRequests },
    defaultBranch: project.defaultBranch,
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
    /** The overlaid branch or PR, its band and caption; null without `overlay`. */
    overlay,
  };
}

/**
 * The endpoint of this name and protocol; without a protocol, the only endpoint of that name or, when
 * several protocols share the name, the one with the most recent result.
 */
export async function findEndpoint(db: PrismaClient, projectId: string, name: string, protocol: string | null) {
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
  /** The run it marks; null for a marker at a time between runs (placed at the first run after it). */
  runId: string | null;
  time: number;
  order: number;
  kind: "regression" | "improvement" | "pinned" | "annotation" | "deploy" | "change";
  text: string;
}

/** A marker before it is placed: on a run, or at a time. */
type MarkerSource = Omit<TrendMarker, "time" | "order" | "runId"> & ({ runId: string; at?: undefined } | { runId: null; at: Date });

/**
 * What the charts mark: detected change points of this endpoint (the aggregate's for "_all"), runs
 * pinned as a baseline, notes, and the project's deploy and change markers (on a run or at a time).
 * Read before the history, whose read places them (placeMarkers): only markers inside the drawn
 * history count.
 */
async function findMarkerSources(db: PrismaClient, projectId: string, endpointId: number | null) {
  const [changes, pins, annotations] = await Promise.all([
    db.regression.findMany({
      where: { projectId, endpointId, status: { not: "dismissed" } },
      select: { firstRunId: true, metric: true, kind: true, deltaPct: true },
    }),
    db.baselinePin.findMany({ where: { projectId }, select: { runIds: true, forLabel: true } }),
    db.annotation.findMany({ where: { projectId }, select: { runId: true, at: true, kind: true, text: true } }),
  ]);
  const markers: MarkerSource[] = [
    ...changes.map((change) => ({
      runId: change.firstRunId,
      kind: change.kind,
      text: `${change.metric} ${formatDeltaPct(change.deltaPct)}`,
    })),
    ...pins.flatMap((pin) =>
      pin.runIds.map((runId) => ({
        runId,
        kind: "pinned" as const,
        text: `baseline${pin.forLabel ? ` (${pin.forLabel})` : ""}`,
      })),
    ),
    ...annotations.map((annotation): MarkerSource => {
      const kind = annotation.kind === "note" ? "annotation" : annotation.kind;
      return annotation.runId === null
        ? { runId: null, at: annotation.at, kind, text: annotation.text }
        : { runId: annotation.runId, kind, text: annotation.text };
    }),
  ];
  const onRuns = markers.flatMap((marker) => (marker.runId === null ? [] : [marker.runId]));
  const atTimes = markers.flatMap((marker) => (marker.runId === null ? [marker.at.toISOString()] : []));
  return { markers, runIds: [...new Set(onRuns)].sort(), times: [...new Set(atTimes)].sort() };
}

/** Places each marker at its run, or a marker at a time at the first run at or after it (rows are in order). */
function placeMarkers(markers: readonly MarkerSource[], rows: readonly CandidateRow[]): TrendMarker[] {
  const rowOf = new Map(rows.map((row) => [row.runId, row]));
  return markers
    .flatMap((marker): TrendMarker[] => {
      if (marker.runId === null) {
        const after = rows.find((row) => row.startedAt.getTime() >= marker.at.getTime());
        if (!after) return [];
        return [{ runId: null, kind: marker.kind, text: marker.text, time: marker.at.getTime(), order: after.order }];
      }
      const row = rowOf.get(marker.runId);
      return row ? [{ runId: marker.runId, kind: marker.kind, text: marker.text, time: row.startedAt.getTime(), order: row.order }] : [];
    })
    .sort((a, b) => a.order - b.order || a.time - b.time);
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

/** A run of the history as the first read gives it: what run selection looks at, and where the run stands. */
interface CandidateRow {
  id: number;
  runId: string;
  startedAt: Date;
  p95Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  errorRate: number | null;
  throughput: number | null;
  /** 1-based position in the filtered history. */
  order: number;
  /** False for a marked run read only to place its marker. */
  isCandidate: boolean;
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
     ORDER BY r.started_at DESC, r.run_id DESC LIMIT 1`;
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
 * The filtered history's candidates for run selection, oldest first, and its length: every run when it
 * has at most 2 × PRESELECT_BUCKETS_PER_POINT × maxPoints, else the first and the last runs, the latest
 * LATEST_RUNS, each position bucket's lowest and highest p95, and each pinned line's extremes (ties
 * included: the domain keeps the first). The marked runs come too, flagged as not candidates, and the
 * first run at or after each marked time (where a marker between runs is drawn). One
 * statement over the covering index; positions are numbered by (started_at, run_id), as everywhere.
 */
async function readTrendCandidates(
  db: PrismaClient,
  scope: HistoryScope,
  maxPoints: number,
  markedRunIds: readonly string[],
  markedTimes: readonly string[],
): Promise<{ rows: CandidateRow[]; total: number }> {
  const buckets = PRESELECT_BUCKETS_PER_POINT * maxPoints;
  const readWhole = 2 * buckets;
  const rows = await db.$queryRaw<(CandidateRow & { total: number })[]>`
    WITH h AS MATERIALIZED (
      SELECT numbered.*, (n - 1) * ${buckets} / total AS bucket FROM (
        SELECT r.id, r.run_id, r.started_at, r.p95_ms, r.p99_ms, r.max_ms, r.error_rate, r.throughput,
               (row_number() OVER (ORDER BY r.started_at, r.run_id))::int AS n, (count(*) OVER ())::int AS total
        ${historySource("results", scope)}
      ) numbered
    ),
    buckets AS (
      SELECT bucket, min(p95_ms) AS low, max(p95_ms) AS high FROM h WHERE total > ${readWhole} GROUP BY bucket
    ),
    extremes AS (
      SELECT max(p99_ms) AS p99, max(max_ms) AS max, max(error_rate) AS errors,
             max(throughput) AS fastest, min(throughput) AS slowest
      FROM h
    ),
    -- The first run of each extreme (an error rate of 0 everywhere has one, not thousands).
    picks AS MATERIALIZED (
      SELECT unnest(ARRAY[min(h.n) FILTER (WHERE h.p95_ms = b.low), min(h.n) FILTER (WHERE h.p95_ms = b.high)]) AS n
      FROM h JOIN buckets b USING (bucket) GROUP BY h.bucket
      UNION
      SELECT unnest(ARRAY[
        min(n) FILTER (WHERE p99_ms = e.p99), min(n) FILTER (WHERE max_ms = e.max),
        min(n) FILTER (WHERE error_rate = e.errors), min(n) FILTER (WHERE throughput = e.fastest),
        min(n) FILTER (WHERE throughput = e.slowest)])
      FROM h CROSS JOIN extremes e
    ),
    flagged AS (
      SELECT h.*, (h.total <= ${readWhole} OR h.n = 1 OR h.n > h.total - ${LATEST_RUNS} OR p.n IS NOT NULL) AS is_candidate
      FROM h LEFT JOIN (SELECT DISTINCT n FROM picks) p ON p.n = h.n
    )
    SELECT id, run_id AS "runId", started_at AS "startedAt", p95_ms AS "p95Ms", p99_ms AS "p99Ms", max_ms AS "maxMs",
           error_rate AS "errorRate", throughput, n AS "order", total, is_candidate AS "isCandidate"
    FROM flagged
    WHERE is_candidate OR run_id = ANY(${markedRunIds as string[]})
       OR n IN (SELECT (SELECT min(h.n) FROM h WHERE h.started_at >= t::timestamptz) FROM unnest(${markedTimes as string[]}::text[]) t)
    ORDER BY n`;
  return { rows, total: rows[0]?.total ?? 0 };
}

/**
 * What is read of the whole history ("all", the default range: the candidates, the metric series) is
 * kept in this process for the next view, against the endpoint's results signature: their count and
 * highest id. Results are never updated and their ids never reused, so an upload or a deletion changes
 * it and the next view reads again (on every replica: the signature is read from the database); a
 * run's label, branch, tool and commit never change, and a run's metrics come and go with its results.
 * A range counting back from now is read each time.
 */
const historyCache = new LRUCache<string, { signature: string; value: object }>({ max: 512 });

/** The signature the cache checks, or null (not cached) for a range counting back from now. */
async function historySignature(db: PrismaClient, scope: HistoryScope): Promise<string | null> {
  if (scope.since !== null) return null;
  const [stamp] = await db.$queryRaw<{ count: number; last: number | null }[]>`
    SELECT count(*)::int AS count, max(r.id) AS last FROM results r
     WHERE r.project_id = ${scope.projectId} AND ${endpointCondition(scope.endpointId)}`;
  return `${stamp?.count ?? 0}:${stamp?.last ?? ""}`;
}

async function cachedRead<T extends object>(
  signature: string | null,
  key: unknown[],
  read: () => Promise<T>,
): Promise<T> {
  if (signature === null) return read();
  const cacheKey = JSON.stringify(key);
  const cached = historyCache.get(cacheKey);
  if (cached?.signature === signature) return cached.value as T;
  const value = await read();
  historyCache.set(cacheKey, { signature, value });
  return value;
}

const scopeKey = (scope: HistoryScope) => [scope.projectId, scope.endpointId, scope.branch, scope.label, scope.tool];

/**
 * One series per custom metric key of the endpoint (or, on the aggregate page, of the run), numbered
 * by the run's position in the endpoint's history and, when long, preselected like it (min/max per
 * bucket of the key's own points); each thinned by the domain.
 */
async function findMetricTrends(db: PrismaClient, scope: HistoryScope, maxPoints: number): Promise<MetricTrend[]> {
  const where = historyWhere(scope);
  const keys = await db.metric.groupBy({ by: ["key"], where, orderBy: { key: "asc" } });
  if (keys.length === 0) return [];
  const buckets = PRESELECT_BUCKETS_PER_POINT * maxPoints;
  const readWhole = 2 * buckets;
  const [rows, newest] = await Promise.all([
    db.$queryRaw<(MetricRow & { key: string; total: number })[]>`
      WITH h AS MATERIALIZED (
        SELECT r.run_id, (row_number() OVER (ORDER BY r.started_at, r.run_id))::int AS n
        ${historySource("results", scope)}
      ),
      m AS MATERIALIZED (
        SELECT numbered.*, (i - 1) * ${buckets} / total AS bucket FROM (
          SELECT r.key, r.run_id, r.started_at, r.value, h.n,
                 (row_number() OVER (PARTITION BY r.key ORDER BY h.n))::int AS i,
                 (count(*) OVER (PARTITION BY r.key))::int AS total
          FROM metrics r JOIN h ON h.run_id = r.run_id
          WHERE r.project_id = ${scope.projectId} AND ${endpointCondition(scope.endpointId)}
            AND r.value NOT IN ('NaN'::float8, 'Infinity'::float8, '-Infinity'::float8)
        ) numbered
      ),
      buckets AS (
        SELECT key, bucket, min(value) AS low, max(value) AS high FROM m WHERE total > ${readWhole} GROUP BY key, bucket
      ),
      picks AS (
        SELECT m.key, unnest(ARRAY[min(m.i) FILTER (WHERE m.value = b.low), min(m.i) FILTER (WHERE m.value = b.high)]) AS i
        FROM m JOIN buckets b USING (key, bucket) GROUP BY m.key, m.bucket
      )
      SELECT m.key, m.run_id AS "runId", m.started_at AS "startedAt", m.value, m.n AS "order", m.total
      FROM m
      WHERE m.total <= ${readWhole} OR m.i = 1 OR m.i = m.total OR (m.key, m.i) IN (SELECT key, i FROM picks)
      ORDER BY m.key, m.n`,
    // Unit and direction of each key as its newest run states them.
    Promise.all(
      keys.map(({ key }) =>
        db.metric.findFirst({
          where: { ...where, key },
          select: { key: true, unit: true, better: true },
          orderBy: [{ startedAt: "desc" }, { runId: "desc" }],
        }),
      ),
    ),
  ]);
  const rowsOf = new Map<string, typeof rows>();
  for (const row of rows) {
    const keyRows = rowsOf.get(row.key);
    if (keyRows) keyRows.push(row);
    else rowsOf.set(row.key, [row]);
  }
  const series = newest.flatMap((stated) => {
    const keyRows = stated ? rowsOf.get(stated.key) : undefined;
    if (!stated || !keyRows) return [];
    return [
      {
        key: stated.key,
        unit: stated.unit,
        better: stated.better,
        ...toMetricPoints(keyRows, maxPoints, keyRows[0]!.total),
      },
    ];
  });

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
      points: metric.points.map((point): MetricTrendPoint => {
        const run = runs.get(point.runId);
        return {
          ...point,
          ...describeRunOfPoint({
            label: run?.label ?? null,
            round: run?.round ?? null,
            branch: run?.gitBranch ?? null,
            commit: run?.gitCommit ?? null,
          }),
        };
      }),
    }));
}
