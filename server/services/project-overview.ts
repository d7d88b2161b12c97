import type { PrismaClient } from "../generated/prisma/client";
import { listRuns } from "./runs";
import { AGGREGATE_DISPLAY_NAME, endpointDisplayName } from "../domain/run";
import { RECENT_RUNS, SERIES_LENGTH, summarizeSeries } from "../domain/series/overview";
import type { SeriesResult } from "../domain/series/overview";
import { seriesName } from "../domain/series/series";
import { checkProjectFreshness } from "./project-freshness";

/**
 * The project overview (`/projects/{p}`): per endpoint (and for the run aggregate) the latest
 * numbers, a p95 sparkline of the latest run's series (same tool, label and branch) among the last
 * SERIES_LENGTH runs that include it, and a trend arrow that only a significant change earns; plus
 * the most recent runs.
 *
 * Query strategy: the last SERIES_LENGTH results of EVERY endpoint come from one statement, a
 * LATERAL join of the project's endpoints onto `results`, each a bounded range scan of the
 * (project_id, endpoint_id, started_at DESC) index, so it reads endpoints × 30 index entries however
 * long the history is. A ROW_NUMBER() OVER (PARTITION BY endpoint_id …) window would read and rank
 * every result of the project first: on PostgreSQL 15 with 5,000 runs × 20 endpoints, ~1 ms against
 * ~180 ms. The aggregate's series walks the runs index instead (last 30 runs, then their aggregate
 * row by run_id): PostgreSQL does not use the results index's order under `endpoint_id IS NULL`.
 */

interface SeriesRow extends Omit<SeriesResult, "series"> {
  endpointId: number | null;
  name: string | null;
  protocol: string | null;
  tool: string;
  label: string | null;
  gitBranch: string | null;
  testbed: string | null;
}


/** The last SERIES_LENGTH results of every endpoint of the project and of its aggregate, newest first per endpoint. */
async function findRecentSeries(db: PrismaClient, projectId: string): Promise<SeriesRow[]> {
  return db.$queryRaw<SeriesRow[]>`
    SELECT e.id AS "endpointId", e.name, e.protocol,
           r.run_id AS "runId", r.started_at AS "startedAt", r.requests, r.error_rate AS "errorRate",
           r.throughput, r.p50_ms AS "p50Ms", r.p95_ms AS "p95Ms", r.p99_ms AS "p99Ms", r.mean_ms AS "meanMs",
           r.tool, r.label, r.git_branch AS "gitBranch", r.testbed
      FROM endpoints e
      CROSS JOIN LATERAL (
        SELECT res.run_id, res.started_at, res.requests, res.error_rate, res.throughput, res.p50_ms, res.p95_ms, res.p99_ms, res.mean_ms,
               ru.tool, ru.label, ru.git_branch, ru.testbed
          FROM results res
          JOIN runs ru ON ru.id = res.run_id
         WHERE res.project_id = e.project_id AND res.endpoint_id = e.id
         ORDER BY res.started_at DESC, res.id DESC
         LIMIT ${SERIES_LENGTH}
      ) r
     WHERE e.project_id = ${projectId}
    UNION ALL
    SELECT NULL, NULL, NULL,
           a.run_id, a.started_at, a.requests, a.error_rate, a.throughput, a.p50_ms, a.p95_ms, a.p99_ms, a.mean_ms,
           latest.tool, latest.label, latest.git_branch, latest.testbed
      FROM (
        SELECT id, tool, label, git_branch, testbed FROM runs
         WHERE project_id = ${projectId}
         ORDER BY started_at DESC, id DESC
         LIMIT ${SERIES_LENGTH}
      ) latest
      JOIN results a ON a.run_id = latest.id AND a.endpoint_id IS NULL`;
}

/**
 * Everything the overview page shows, in five queries (project, series, recent runs, the freshness
 * check's run times, open regressions). Null when
 * the project does not exist.
 */
export async function getProjectOverview(db: PrismaClient, projectSlug: string) {
  const project = await db.project.findUnique({
    where: { slug: projectSlug },
    select: { id: true, slug: true, name: true, repoUrl: true, defaultBranch: true },
  });
  if (!project) return null;

  const generatedAt = new Date();
  const [rows, recent, freshness, openRegressions] = await Promise.all([
    findRecentSeries(db, project.id),
    listRuns(db, project.id, { limit: RECENT_RUNS }),
    checkProjectFreshness(db, project.id, generatedAt),
    db.regression.count({ where: { projectId: project.id, status: "open", kind: "regression" } }),
  ]);

  // Rows arrive grouped by endpoint, newest first within each (the ORDER BY of each LATERAL scan);
  // sort again anyway, since UNION ALL promises no order.
  const byEndpoint = new Map<number | null, { name: string; protocol: string | null; results: SeriesResult[] }>();
  for (const { endpointId, name, protocol, tool, label, gitBranch, testbed, ...result } of rows) {
    const entry = byEndpoint.get(endpointId) ?? { name: endpointDisplayName(name), protocol, results: [] };
    entry.results.push({ ...result, series: seriesName({ tool, label, branch: gitBranch, testbed }), startedAt: new Date(result.startedAt) });
    byEndpoint.set(endpointId, entry);
  }
  for (const entry of byEndpoint.values()) entry.results.sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime());

  const latestRunId = recent.runs[0]?.id ?? null;
  const aggregateEntry = byEndpoint.get(null);
  const aggregate = aggregateEntry
    ? summarizeSeries({ id: null, name: AGGREGATE_DISPLAY_NAME, protocol: null }, aggregateEntry.results, latestRunId)
    : null;
  const endpoints = [...byEndpoint.entries()]
    .flatMap(([id, entry]) => {
      if (id === null) return [];
      const summary = summarizeSeries({ id, name: entry.name, protocol: entry.protocol }, entry.results, latestRunId);
      return summary ? [summary] : [];
    })
    // Endpoints of the latest run first, then those no longer measured; by name within each.
    .sort((a, b) => Number(b.isInLatestRun) - Number(a.isInLatestRun) || a.name.localeCompare(b.name, "en"));

  return {
    /** When this was read: the "now" of the page's "3 h ago". */
    generatedAt,
    project: { slug: project.slug, name: project.name, repoUrl: project.repoUrl, defaultBranch: project.defaultBranch },
    endpoints,
    aggregate,
    recentRuns: recent.runs,
    hasMoreRuns: recent.nextCursor !== null,
    /** Whether the project's upload schedule has stopped (the "missing data" banner). */
    freshness,
    /** Open regressions on the default branch (the inbox banner). */
    openRegressions,
  };
}
