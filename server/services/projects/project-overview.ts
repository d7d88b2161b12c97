import type { ReadDb } from "../../db";
import { listRuns } from "../runs";
import { ACTIVE_STATES } from "../../domain/incidents/state";
import type { IncidentState } from "../../domain/incidents/state";
import { AGGREGATE_DISPLAY_NAME, endpointDisplayName } from "../../domain/run";
import { RECENT_RUNS, SERIES_LENGTH, summarizeSeries } from "../../domain/series/overview";
import type { SeriesChanges, SeriesResult } from "../../domain/series/overview";
import type { RecordedChange } from "../../domain/series/recorded-changes";
import { withTriage } from "../../domain/series/gate-status";
import { seriesName } from "../../domain/series/series";
import { checkProjectFreshness } from "./project-freshness";
import { findSeriesGates } from "./series-gates";

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
 *
 * The recorded changes that shape the trend column (domain/series/recorded-changes.ts) come from one
 * more statement whatever the number of endpoints: the regressions of the project's active incidents
 * (incidents (project_id, state) index, then regressions (incident_id)), and the changes whose first run
 * is one of the runs read (regressions (first_run_id)); beside it, the change markers since the oldest
 * run read (annotations (project_id, at)).
 *
 * What the CI gate last said about each series on the default branch (the trend column's gate and the
 * "main fails the gate" banner) comes from runs' kept outcomes, two statements over the runs' branch and
 * series indexes (services/projects/series-gates.ts).
 */

interface SeriesRow extends Omit<SeriesResult, "series"> {
  endpointId: number | null;
  name: string | null;
  protocol: string | null;
  tool: string;
  label: string | null;
  gitBranch: string | null;
  testbed: string | null;
  uploadedAt: Date;
  regressed: boolean | null;
}

/** The last SERIES_LENGTH results of every endpoint of the project and of its aggregate, newest first per endpoint. */
async function findRecentSeries(db: ReadDb, projectId: string): Promise<SeriesRow[]> {
  return db.$queryRaw<SeriesRow[]>`
    SELECT e.id AS "endpointId", e.name, e.protocol,
           r.run_id AS "runId", r.started_at AS "startedAt", r.requests, r.error_rate AS "errorRate",
           r.throughput, r.p50_ms AS "p50Ms", r.p95_ms AS "p95Ms", r.p99_ms AS "p99Ms", r.mean_ms AS "meanMs",
           r.tool, r.label, r.git_branch AS "gitBranch", r.testbed, r.uploaded_at AS "uploadedAt", r.regressed
      FROM endpoints e
      CROSS JOIN LATERAL (
        SELECT res.run_id, res.started_at, res.requests, res.error_rate, res.throughput, res.p50_ms, res.p95_ms, res.p99_ms, res.mean_ms,
               ru.tool, ru.label, ru.git_branch, ru.testbed, ru.uploaded_at, ru.regressed
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
           latest.tool, latest.label, latest.git_branch, latest.testbed, latest.uploaded_at, latest.regressed
      FROM (
        SELECT id, tool, label, git_branch, testbed, uploaded_at, regressed FROM runs
         WHERE project_id = ${projectId}
         ORDER BY started_at DESC, id DESC
         LIMIT ${SERIES_LENGTH}
      ) latest
      JOIN results a ON a.run_id = latest.id AND a.endpoint_id IS NULL`;
}

interface ChangeRow {
  endpointId: number | null;
  metric: string;
  kind: RecordedChange["kind"];
  status: RecordedChange["status"];
  deltaPct: number;
  firstRunId: string;
  startedAt: Date;
  tool: string;
  label: string | null;
  gitBranch: string | null;
  testbed: string | null;
  statusChangedAt: Date | null;
  incidentNumber: number | null;
  incidentState: IncidentState | null;
}

/**
 * The recorded changes the overview's rows need, in one statement: every regression of an active
 * incident (open or investigating: the row says so), and every change whose first run is among `runIds`
 * (the runs the sparklines draw: where a regime can start or stop within sight; a dismissed one only
 * covers the failed runs it was triaged after, as in the gate's window).
 */
async function findRecordedChanges(db: ReadDb, projectId: string, runIds: readonly string[]): Promise<ChangeRow[]> {
  const active = [...ACTIVE_STATES] as string[];
  return db.$queryRaw<ChangeRow[]>`
    WITH picked AS (
      SELECT g.id FROM incidents i JOIN regressions g ON g.incident_id = i.id
       WHERE i.project_id = ${projectId} AND i.state = ANY(${active}::"IncidentState"[])
      UNION
      SELECT g.id FROM regressions g
       WHERE g.first_run_id = ANY(${runIds as string[]}::text[]) AND g.project_id = ${projectId}
    )
    SELECT g.endpoint_id AS "endpointId", g.metric, g.kind::text AS kind, g.status::text AS status, g.delta_pct AS "deltaPct",
           g.status_changed_at AS "statusChangedAt",
           g.first_run_id AS "firstRunId", fr.started_at AS "startedAt", fr.tool, fr.label, fr.git_branch AS "gitBranch", fr.testbed,
           i.number AS "incidentNumber", i.state::text AS "incidentState"
      FROM picked
      JOIN regressions g ON g.id = picked.id
      JOIN runs fr ON fr.id = g.first_run_id
      LEFT JOIN incidents i ON i.id = g.incident_id`;
}

/** The recorded changes and change markers in sight of the rows read, and how many incidents are active. */
async function findSeriesChanges(db: ReadDb, projectId: string, rows: readonly SeriesRow[]) {
  const runIds = [...new Set(rows.map((row) => row.runId))];
  const oldest = rows.reduce<Date | null>((min, row) => (min === null || new Date(row.startedAt) < min ? new Date(row.startedAt) : min), null);
  const [changes, markers] = await Promise.all([
    findRecordedChanges(db, projectId, runIds),
    oldest === null
      ? []
      : db.annotation.findMany({ where: { projectId, kind: "change", at: { gte: oldest } }, select: { at: true, text: true, createdAt: true } }),
  ]);
  const recorded: SeriesChanges = {
    markers,
    changes: changes.map((row) => ({
      endpointId: row.endpointId,
      series: seriesName({ tool: row.tool, label: row.label, branch: row.gitBranch, testbed: row.testbed }),
      kind: row.kind,
      status: row.status,
      metric: row.metric,
      deltaPct: row.deltaPct,
      firstRunId: row.firstRunId,
      at: new Date(row.startedAt),
      decidedAt: row.statusChangedAt === null ? null : new Date(row.statusChangedAt),
      incident: row.incidentNumber === null || row.incidentState === null ? null : { number: row.incidentNumber, state: row.incidentState },
    })),
  };
  return { recorded };
}

/**
 * Everything the overview page shows, in nine queries (project, series, then the recorded changes and
 * change markers in sight of them; the default branch's series and their latest runs' gate outcomes;
 * recent runs, the freshness check's run times, open regressions), however many endpoints it has. Null
 * when the project does not exist.
 */
export async function getProjectOverview(db: ReadDb, projectSlug: string) {
  const project = await db.project.findUnique({
    where: { slug: projectSlug },
    select: { id: true, slug: true, name: true, repoUrl: true, defaultBranch: true, gateMetric: true },
  });
  if (!project) return null;

  const generatedAt = new Date();
  const [{ rows, changes }, gatesByProject, recent, freshness, openRegressions, activeIncidents, awaitingReturn] = await Promise.all([
    findRecentSeries(db, project.id).then(async (rows) => ({ rows, changes: await findSeriesChanges(db, project.id, rows) })),
    findSeriesGates(db, [project]),
    listRuns(db, project.id, { limit: RECENT_RUNS }),
    checkProjectFreshness(db, project.id, generatedAt),
    db.change.count({ where: { projectId: project.id, kind: "regression", incident: { state: { in: [...ACTIVE_STATES] } } } }),
    db.incident.count({ where: { projectId: project.id, state: { in: [...ACTIVE_STATES] } } }),
    db.change.count({
      where: { projectId: project.id, kind: "regression", returnRunId: null, incident: { state: { in: ["fixed", "backed_out"] } } },
    }),
  ]);

  // Rows arrive grouped by endpoint, newest first within each (the ORDER BY of each LATERAL scan);
  // sort again anyway, since UNION ALL promises no order.
  const byEndpoint = new Map<number | null, { name: string; protocol: string | null; results: SeriesResult[] }>();
  for (const { endpointId, name, protocol, tool, label, gitBranch, testbed, ...result } of rows) {
    const entry = byEndpoint.get(endpointId) ?? { name: endpointDisplayName(name), protocol, results: [] };
    const identity = { tool, label, branch: gitBranch, testbed };
    entry.results.push({
      ...result,
      series: seriesName(identity),
      identity,
      startedAt: new Date(result.startedAt),
      uploadedAt: new Date(result.uploadedAt),
    });
    byEndpoint.set(endpointId, entry);
  }
  for (const entry of byEndpoint.values()) entry.results.sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime());

  const latestRunId = recent.runs[0]?.id ?? null;
  const gates = withTriage(gatesByProject.get(project.id) ?? [], changes.recorded);
  const context = { defaultBranch: project.defaultBranch, gates };
  const aggregateEntry = byEndpoint.get(null);
  const aggregate = aggregateEntry
    ? summarizeSeries({ id: null, name: AGGREGATE_DISPLAY_NAME, protocol: null }, aggregateEntry.results, latestRunId, changes.recorded, context)
    : null;
  const endpoints = [...byEndpoint.entries()]
    .flatMap(([id, entry]) => {
      if (id === null) return [];
      const summary = summarizeSeries({ id, name: entry.name, protocol: entry.protocol }, entry.results, latestRunId, changes.recorded, context);
      return summary ? [summary] : [];
    })
    // Endpoints of the latest run first, then those no longer measured; by name within each.
    .sort((a, b) => Number(b.isInLatestRun) - Number(a.isInLatestRun) || a.name.localeCompare(b.name, "en"));

  return {
    /** When this was read: the "now" of the page's "3 h ago". */
    generatedAt,
    project: { slug: project.slug, name: project.name, repoUrl: project.repoUrl, defaultBranch: project.defaultBranch, gateMetric: project.gateMetric },
    endpoints,
    aggregate,
    /**
     * What the CI gate last said about each series on the default branch (its latest run's outcome, and the
     * streak of failing runs it is in), by series name: the rows' gate and the "fails the gate" banner.
     */
    gates: [...gates].sort((a, b) => a.key.localeCompare(b.key, "en")),
    recentRuns: recent.runs,
    hasMoreRuns: recent.nextCursor !== null,
    /** Whether the project's upload schedule has stopped (the "missing data" banner). */
    freshness,
    /** The regressions of the active incidents (the inbox banner). */
    openRegressions,
    /** Incidents open or investigating, on any series (the inbox banner), as the inbox counts them. */
    activeIncidents,
    /** Regressions of incidents fixed or backed out whose series has not been seen coming back. */
    awaitingReturn,
  };
}
