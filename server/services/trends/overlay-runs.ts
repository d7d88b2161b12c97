import type { ReadDb } from "../../db";
import { METRICS, metricRange } from "../../domain/metrics";
import { toRunPoint } from "../../domain/series/run-point";
import type { TrendRunInfo } from "../../domain/series/run-point";
import {
  bandAtTimes,
  bandIndexesNeeded,
  describeOverlayPosition,
  describeOverlayTarget,
  OVERLAY_METRIC,
  placeOverlayOnRunAxis,
  positionInBand,
  rollingNoiseBand,
  serializeOverlay,
} from "../../domain/series/trend-overlay";
import type { NoiseBand, OverlayPoint, OverlayTarget } from "../../domain/series/trend-overlay";
import type { RegimeStart } from "../../domain/stats/noise-band";
import { Prisma } from "../../generated/prisma/client";
import { endpointCondition } from "./endpoint-page";

/**
 * The trend page's overlay: a branch's or a pull request's runs of the same series (endpoint, tool, and
 * label when the page names one, within the page's range) drawn over the base branch's series, with the
 * base branch's rolling noise band (server/domain/series/trend-overlay.ts; docs/statistics.md, "Series").
 *
 * The overlay's runs are read in one statement over `runs (project_id, git_branch, started_at DESC)` or
 * `runs (project_id, pull_request, started_at DESC)`, each joined to its result for the endpoint by
 * `results (run_id)`; newest first, at most MAX_OVERLAY_RUNS. They are few and read each time (not
 * cached like the base history, whose candidates trend-history-cache.ts keeps).
 */
const MAX_OVERLAY_RUNS = 200;
/** How many pull requests the overlay select offers, newest numbers first. */
const MAX_OVERLAY_PULL_REQUESTS = 50;

export interface OverlayScope {
  projectId: string;
  /** Null: the run aggregate. */
  endpointId: number | null;
  since: Date | null;
  label: string | null;
  /** Null: every tool (the page asked for tool=all). */
  tool: string | null;
  /** As the page's history (endpoint-page.ts HistoryScope): absent, every testbed. */
  testbed?: { name: string | null };
}

/** A base run as the overlay needs it: which run, its place on both axes and its p95. */
export interface OverlayBaseRun {
  runId: string;
  order: number;
  time: number;
  p95Ms: number | null;
}

type OverlayRow = TrendRunInfo & { pullRequest: number | null; p95Ms: number | null };

/** The overlay's runs of the series, oldest first (the newest MAX_OVERLAY_RUNS). */
async function readOverlayRuns(db: ReadDb, scope: OverlayScope, target: OverlayTarget): Promise<OverlayRow[]> {
  const rows = await db.$queryRaw<OverlayRow[]>`
    SELECT ru.id AS "runId", ru.started_at AS "startedAt", ru.label, ru.round, ru.git_branch AS branch,
           ru.git_commit AS commit, ru.pull_request AS "pullRequest", r.p95_ms AS "p95Ms"
      FROM runs ru
      JOIN results r ON r.run_id = ru.id
       AND ${endpointCondition(scope.endpointId)}
     WHERE ru.project_id = ${scope.projectId}
       AND ${target.kind === "branch" ? Prisma.sql`ru.git_branch = ${target.branch}` : Prisma.sql`ru.pull_request = ${target.pullRequest}`}
       ${scope.since ? Prisma.sql`AND ru.started_at >= ${scope.since}` : Prisma.empty}
       ${scope.label !== null ? Prisma.sql`AND ru.label = ${scope.label}` : Prisma.empty}
       ${scope.tool !== null ? Prisma.sql`AND ru.tool = ${scope.tool}` : Prisma.empty}
       ${scope.testbed !== undefined ? Prisma.sql`AND ru.testbed IS NOT DISTINCT FROM ${scope.testbed.name}` : Prisma.empty}
     ORDER BY ru.started_at DESC, ru.id DESC
     LIMIT ${MAX_OVERLAY_RUNS}`;
  return rows.reverse();
}

/**
 * The base branch's p95 band at each base run (oldest first), learnt only where the chart draws it or a
 * run at one of `times` is judged by it (a change-point search each), after the last of `regimeStarts`.
 */
export function learnBaseBands(
  history: readonly OverlayBaseRun[],
  drawnOrders: ReadonlySet<number>,
  regimeStarts: readonly RegimeStart[],
  times: readonly number[] = [],
) {
  const bands = rollingNoiseBand(
    history.map((run) => ({ runId: run.runId, time: run.time, value: run.p95Ms })),
    { regimeStarts, range: metricRange(METRICS[OVERLAY_METRIC]), at: bandIndexesNeeded(history, drawnOrders, times) },
  );
  return history.map((run, i) => ({ order: run.order, time: run.time, band: bands[i] ?? null }));
}

/** The band at each drawn base run that has one, oldest first: what the chart shades. */
export function drawnBand(
  based: readonly { order: number; time: number; band: NoiseBand | null }[],
  drawnOrders: ReadonlySet<number>,
): (NoiseBand & { order: number; time: number })[] {
  return based.flatMap(({ order, time, band }) => (band !== null && drawnOrders.has(order) ? [{ order, time, ...band }] : []));
}

/** The pull request numbers of the project's runs, newest numbers first, for the overlay select. */
export async function listOverlayPullRequests(db: ReadDb, projectId: string): Promise<number[]> {
  const rows = await db.$queryRaw<{ pullRequest: number }[]>`
    SELECT DISTINCT pull_request AS "pullRequest" FROM runs
     WHERE project_id = ${projectId} AND pull_request IS NOT NULL
     ORDER BY pull_request DESC LIMIT ${MAX_OVERLAY_PULL_REQUESTS}`;
  return rows.map((row) => row.pullRequest);
}

/**
 * The overlay for a trend page: its runs placed on both axes, the base branch's band at each drawn base
 * run, and the caption. `history` is every base run read (oldest first: the whole history when short,
 * else its candidates), which the band is learnt from, after the last of `regimeStarts` (the endpoint's
 * recorded p95 changes and the change markers); `drawnOrders` the base runs the chart draws.
 */
export async function getTrendOverlay(
  db: ReadDb,
  scope: OverlayScope,
  target: OverlayTarget,
  baseBranch: string,
  history: readonly OverlayBaseRun[],
  drawnOrders: ReadonlySet<number>,
  regimeStarts: readonly RegimeStart[],
) {
  const rows = await readOverlayRuns(db, scope, target);
  const times = rows.map((row) => row.startedAt.getTime());
  const based = learnBaseBands(history, drawnOrders, regimeStarts, times);
  const orders = placeOverlayOnRunAxis(based, times);
  const overlayBands = bandAtTimes(based, times);
  const points: OverlayPoint[] = rows.map((row, i) => ({
    ...toRunPoint(row, orders[i]!),
    pullRequest: row.pullRequest,
    p95Ms: row.p95Ms !== null && Number.isFinite(row.p95Ms) ? row.p95Ms : null,
    position: positionInBand(row.p95Ms, overlayBands[i] ?? null),
  }));
  const band = drawnBand(based, drawnOrders);
  const name = describeOverlayTarget(target);
  return {
    /** As in the URL: `branch:<name>` or `pr:<n>`. */
    key: serializeOverlay(target),
    target,
    /** "the branch feature/x" or "PR #12". */
    name,
    baseBranch,
    points,
    /** The base branch's p95 band at each drawn base run that has one, oldest first. */
    band,
    caption: describeOverlayPosition(
      points.map((point) => point.position),
      { overlay: name, base: baseBranch },
    ),
  };
}
