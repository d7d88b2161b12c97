import type { ReadDb } from "../../db";
/**
 * The per-endpoint trend page's data: an endpoint's (or, for `_all`, the run aggregate's) history under
 * the page's filters, thinned on the server to what a chart can draw (see trend-series.ts for the
 * choice of runs), its custom metrics, the latest runs, its markers, and the values the filter selects
 * offer. This module puts the page together; the page's scope comes from endpoint-page.ts, the reads
 * from trend-history-sql.ts (kept by trend-history-cache.ts), trend-metrics.ts and marked-runs.ts.
 *
 * A history is read twice: first the few columns run selection looks at, of every run when the history
 * is short, else of the candidates the database preselects (min/max per bucket, see trend-series.ts: on
 * 33,000 runs, transferring every row costs ~100 ms, the candidates ~5); then whole rows for the chosen
 * runs only (≤ maxPoints).
 *
 * With an overlay (a branch's or a PR's runs, trend-overlay.ts), the base series is the page's branch or,
 * when the page names none, the project's default branch; its band is learnt from the history read above.
 */
import { placeMarkers } from "../../domain/series/trend-markers";
import type { OverlayTarget } from "../../domain/series/trend-overlay";
import { DEFAULT_MAX_POINTS, LATEST_RUNS, selectFromCandidates, toTrendPoints } from "../../domain/series/trend-series";
import { listEndpoints, listTestbeds, resolveEndpointPage, resolveTrendScope, TESTBED_OPTIONS } from "./endpoint-page";
import type { EndpointPageQuery, TrendScopeQuery } from "./endpoint-page";
import { listRunFilterOptions } from "../gate";
import { cachedCandidates, cachedHistory, cachedTrendRows, keptAtVersion, keptWith } from "./trend-history-cache";
import { readTrendCandidates, readTrendRows } from "./trend-history-sql";
import type { CandidateRow } from "./trend-history-sql";
import { findMarkerSources } from "./marked-runs";
import { findMetricTrends } from "./trend-metrics";
import { drawnBand, getTrendOverlay, learnBaseBands, listOverlayPullRequests } from "./overlay-runs";
import { readGateThreshold } from "./gate-guides";
import { isDefaultBranchOnly, overlayBaseBranch, resolveTrendBranches } from "../../domain/series/trend-branches";
import { BENCHMARK_PROTOCOL } from "../../domain/run";
import { countScopeRuns, isZoomedOut, listRollupTestbeds, readBucketTrend } from "./bucket-trend";
import type { TrendPoint } from "../../domain/series/trend-series";
import type { MetricTrend } from "./trend-metrics";

export interface EndpointTrendsQuery extends EndpointPageQuery, Omit<TrendScopeQuery, "hasOverlay" | "branches"> {
  /**
   * The URL's `branch` values: branch names, `none` (runs naming no branch), `all` (every run as one
   * series); none: the project's default branch (server/domain/series/trend-branches.ts).
   */
  branches?: readonly string[];
  /** The most runs a chart draws (default DEFAULT_MAX_POINTS, 300). */
  maxPoints?: number;
  /** A branch's or a pull request's runs to draw over the base branch's series. */
  overlay?: OverlayTarget | null;
  /** The most runs drawn run by run before the page zooms out to rollups (default RUN_LEVEL_MAX_RUNS; tests pin fewer). */
  runLevelMaxRuns?: number;
}

export async function getEndpointTrends(db: ReadDb, query: EndpointTrendsQuery) {
  const maxPoints = query.maxPoints ?? DEFAULT_MAX_POINTS;
  const page = await resolveEndpointPage(db, query);
  const { project, endpointId } = page;
  const overlayTarget = query.overlay ?? null;
  // The project's branches and labels, by a loose index scan of runs (microseconds), rather than the
  // endpoint's own (a join over its whole history): a value without this endpoint simply shows "no runs
  // match". Kept at its history version, as the endpoints and pull requests below. Read first: whether
  // any run names a branch decides the default branches drawn.
  const filters = await keptAtVersion(project.id, project.historyVersion, ["filters"], () => listRunFilterOptions(db, project.id));
  const branches = resolveTrendBranches(query.branches ?? [], project.defaultBranch, filters.branches);
  const scope = await resolveTrendScope(db, page, { ...query, branches, hasOverlay: overlayTarget !== null });

  const [markerSources, endpoints, pullRequests, rangeRuns] = await Promise.all([
    findMarkerSources(db, project.id, endpointId),
    keptAtVersion(project.id, project.historyVersion, ["endpoints"], () => listEndpoints(db, project.id)),
    keptAtVersion(project.id, project.historyVersion, ["pullRequests"], () => listOverlayPullRequests(db, project.id)),
    // How many runs the range holds (weekly rollups, pending weeks counted raw): zoomed out or not.
    countScopeRuns(db, scope),
  ]);
  const header = {
    project: { slug: project.slug, name: project.name },
    endpoint: page.endpoint,
    /** Every endpoint of the project, by name then protocol (a name may have several). */
    endpoints,
    /** The filter options, and the pull requests the overlay select offers (newest first). */
    filters: { ...filters, pullRequests },
    defaultBranch: project.defaultBranch,
    /** The branches drawn and why (trend-branches.ts): one line per branch when several. */
    branches,
    query: { branches: query.branches ?? [], label: query.label, range: query.range, tool: query.tool ?? null, testbed: query.testbed ?? null },
    /** The tool whose runs are drawn (null: every tool, as asked with tool=all). */
    tool: scope.tool,
    /** The testbed whose runs are drawn ({name: null}: the runs that name none; null: every testbed, as asked with testbed=all). */
    testbed: scope.testbed ?? null,
    maxPoints,
  };

  // Zoomed out (docs/rollups.md): a range of more runs than the run-level view reads cheaply is drawn as
  // buckets from the rollups; an overlay is drawn run by run.
  if (overlayTarget === null && isZoomedOut(rangeRuns, query.runLevelMaxRuns)) {
    // The bucket chart draws one series: of several branches, the first (the page says so). Rollups are
    // kept per branch (docs/rollups.md), so one branch's buckets are read as they are stored.
    const drawnBranch = scope.branches !== null && scope.branches.length > 1 ? scope.branches.slice(0, 1) : scope.branches;
    const bucketScope = { ...scope, branches: drawnBranch };
    const [read, testbeds] = await Promise.all([
      readBucketTrend(db, bucketScope, maxPoints, markerSources.markers, markerSources.runIds),
      listRollupTestbeds(db, scope),
    ]);
    const buckets = {
      ...read,
      /** The one branch the buckets are of (null: every branch, or the runs naming none when branches is [null]). */
      branch: drawnBranch?.length === 1 ? (drawnBranch[0] ?? null) : null,
      /** Several branches were asked: only the first is drawn zoomed out. */
      isFirstBranchOnly: drawnBranch !== scope.branches,
    };
    const noPoints: TrendPoint[] = [];
    const noMetrics: MetricTrend[] = [];
    return {
      ...header,
      testbeds,
      totalRuns: buckets.totalRuns,
      isDownsampled: true,
      points: noPoints,
      latest: buckets.latest,
      metrics: noMetrics,
      markers: buckets.markers,
      overlay: null,
      gate: null,
      buckets,
    };
  }

  // The whole history (range "all") comes from the history cache, up to date with the project's
  // history version read with the project (trend-history-cache.ts); a range counting back from now is read.
  const cached = scope.since === null ? await cachedHistory(db, scope, project.historyVersion) : null;

  // 1st read: the history's candidates (all of it when short), only the columns run selection looks at,
  // with the marked runs (to place their markers); beside it, the custom metrics' series and the
  // endpoint's testbeds (one GROUP BY over its history).
  const marked = { runIds: markerSources.runIds, times: markerSources.times };
  const [history, metrics, testbeds] = cached
    ? [
        cachedCandidates(cached, maxPoints, marked),
        await keptWith(cached, ["metrics", maxPoints], () => findMetricTrends(db, scope, maxPoints), project.historyVersion),
        cached.testbeds.slice(0, TESTBED_OPTIONS),
      ]
    : await Promise.all([
        readTrendCandidates(db, scope, maxPoints, marked),
        findMetricTrends(db, scope, maxPoints),
        listTestbeds(db, project.id, endpointId, scope.tool),
      ]);
  const candidates = history.rows.filter((row) => row.isCandidate).map((row) => ({ row, order: row.order }));
  const selection = selectFromCandidates(candidates, history.total, maxPoints);
  const latestKept = candidates.filter(({ order }) => order > history.total - LATEST_RUNS).reverse();

  // The default branch alone is the series the gate judges: its threshold, over the baseline a next run
  // after the latest would be judged against, is read beside the 2nd read (it needs only the latest run's id).
  const latestRunId = latestKept[0]?.row.runId;
  const isGated = overlayTarget === null && isDefaultBranchOnly(branches, project.defaultBranch) && latestRunId !== undefined;

  // 2nd read: whole rows, with the run's label/branch/commit, of the drawn and the latest runs only.
  const drawn = [...new Map([...selection.kept, ...latestKept].map(({ row }) => [row.id, { id: row.id, runId: row.runId }])).values()];
  const [full, threshold] = await Promise.all([
    cached ? cachedTrendRows(db, drawn) : readTrendRows(db, drawn.map(({ id }) => id)),
    isGated ? readGateThreshold(db, project, endpointId, page.endpoint.protocol === BENCHMARK_PROTOCOL, latestRunId) : null,
  ]);
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
  const drawnOrders = new Set(points.map((point) => point.order));
  const baseRuns = candidates.map(({ row, order }) => ({ runId: row.runId, order, time: row.startedAt.getTime(), p95Ms: row.p95Ms }));

  // The band is learnt from the base runs read (every run of a short history; of a long one, its
  // preselected candidates, whose latest LATEST_RUNS and marked runs, changes included, are always there).
  const overlay = overlayTarget
    ? await getTrendOverlay(
        db,
        { projectId: project.id, endpointId, since: scope.since, label: query.label, tool: scope.tool, ...(scope.testbed ? { testbed: scope.testbed } : {}) },
        overlayTarget,
        overlayBaseBranch(branches, project.defaultBranch),
        baseRuns,
        drawnOrders,
        markerSources.bandRegimeStarts,
      )
    : null;

  // The gated series is drawn with its p95 noise band, learnt as the overlay's.
  const gate = threshold
    ? { band: drawnBand(learnBaseBands(baseRuns, drawnOrders, markerSources.bandRegimeStarts), drawnOrders), threshold }
    : null;

  return {
    ...header,
    /** The testbeds of this endpoint's runs of that tool, most runs first: more than one means several series. */
    testbeds,
    /** M: runs under the filters; N = points.length of them are drawn. */
    totalRuns: selection.total,
    isDownsampled: selection.isDownsampled,
    /** The drawn runs, oldest first; every line shares them. */
    points,
    /** The latest runs, newest first (≤ LATEST_RUNS), for the table. */
    latest,
    metrics,
    /** Change points, pinned baseline runs and annotations of runs in the history, oldest first. */
    markers,
    /** The overlaid branch or PR, its band and caption; null without `overlay`. */
    overlay,
    /** The default branch's p95 noise band and the gate's threshold; null unless the page draws the default branch alone, run by run. */
    gate,
    /** The zoomed-out view's buckets (null: the runs are drawn one by one). */
    buckets: null,
  };
}

export type EndpointTrends = Awaited<ReturnType<typeof getEndpointTrends>>;
