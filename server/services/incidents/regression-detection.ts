import { DEFAULT_CHANGE_POINT_OPTIONS } from "../../domain/stats/change-points";
import type { ChangeCandidate, TrendLine } from "../../domain/incidents/change-candidates";
import { loadProfileDifference } from "../../domain/compare/load-profile";
import { isTrackedCustomMetric } from "../../domain/metrics";
import type { Better } from "../../domain/run";
import { Prisma } from "../../generated/prisma/client";
import type { PrismaClient } from "../../generated/prisma/client";
import { attachToIncidents, markReturns } from "./incidents";
import type { JobQueue } from "../platform";
import { findChangeCandidatesInPool, recordIncidentsOpened } from "../platform";
import { queueIncidentNotifications } from "../notifications";
import { NOT_AB_BASE } from "../runs";
import { defaultBranchSeriesKey } from "../runs";

/**
 * Regression tracking over history: after each run on the default branch, the series of each
 * (tool, label, endpoint, metric) — the last DETECTION_WINDOW_RUNS runs of that tool and label, never reaching
 * behind the project's latest marker of kind "change" (a known change of config or hardware), and only its runs of
 * the same load profile (vus, rate…: domain/compare/load-profile.ts) — is searched for
 * change points (E-divisive means with a t-test, Otava-style; see docs/change-point-detection.md).
 * A new change point in the bad direction opens a regression; in the good direction it is recorded
 * as an improvement. A change point needs minSegmentLength runs after it to be confirmed, so this
 * confirms a step a few runs later; the CI gate's outcome at upload flags the very run against its baseline.
 *
 * The aggregate's latency is tracked only when runs report no endpoints (e.g. a k6 summary without
 * per-name submetrics): otherwise an endpoint's step would open a second, derived regression on the
 * aggregate. Custom metrics are tracked, except those that describe the load generator (k6's
 * iterations: see LOAD_GENERATOR_METRIC_KEYS in ../domain/metrics.ts).
 */
export const DETECTION_WINDOW_RUNS = 100;
/** 2: maxPValue 1e-5 (was 0.001), for detection re-run after every upload. */
export const DETECTOR_VERSION = 2;
/** A change point this close (in runs) to a recorded one is the same change, re-estimated. */
const SAME_CHANGE_DISTANCE = 3;

type DetectionRun = { id: string; label: string | null; tool: string; gitBranch: string | null; testbed: string | null; startedAt: Date };

/**
 * Reads a series' window ending at `run` and finds its change points (no writes: it runs outside any
 * transaction, so on the embedded database other queries go on meanwhile).
 */
export async function findChangeCandidates(
  db: Prisma.TransactionClient,
  project: { id: string; defaultBranch: string },
  run: DetectionRun,
): Promise<ChangeCandidate[]> {
  if (run.gitBranch !== project.defaultBranch) return [];
  // A known change (a marker of kind "change") starts a new regime: the window never reaches behind it.
  const lastChange = await db.annotation.findFirst({
    where: { projectId: project.id, kind: "change", at: { lte: run.startedAt } },
    orderBy: { at: "desc" },
    select: { at: true },
  });
  const window = await db.run.findMany({
    where: {
      projectId: project.id,
      label: run.label,
      tool: run.tool,
      gitBranch: project.defaultBranch,
      testbed: run.testbed,
      startedAt: { lte: run.startedAt, ...(lastChange ? { gte: lastChange.at } : {}) },
      ...NOT_AB_BASE,
    },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: DETECTION_WINDOW_RUNS,
    select: { id: true, config: true },
  });
  // Runs driven with another load profile (a capacity sweep's other levels, an old VU count) measure
  // something else: the series is the runs of this run's profile, as for the CI gate's baseline.
  const configOf = (row: { config: unknown }) => (row.config ?? {}) as Readonly<Record<string, string | number | boolean>>;
  const own = window.find((row) => row.id === run.id);
  const sameProfile = own ? window.filter((row) => loadProfileDifference(configOf(own), configOf(row)) === null) : window;
  const runIds = sameProfile.map((row) => row.id).reverse();
  if (runIds.length < 2 * DEFAULT_CHANGE_POINT_OPTIONS.minSegmentLength) return [];
  // Regressions in the window whose series has not come back yet: the series is also searched from each
  // one's first run on, where a return (a step back) is a single change. Over the whole window a step up
  // and back down is a bump, which a search for the best single split may not find at all.
  const unreturned = await db.change.findMany({
    where: { projectId: project.id, kind: "regression", returnRunId: null, firstRunId: { in: runIds } },
    select: { endpointId: true, metric: true, firstRunId: true },
  });
  // The search itself is pure and, for a large suite, done in a CPU thread: a 10,000-benchmark window is
  // a million values, seconds of work that would hold the event loop (and every request with it).
  return findChangeCandidatesInPool(runIds, await loadTrends(db, runIds), unreturned);
}

/**
 * Records the candidates that are new (a change within SAME_CHANGE_DISTANCE runs of a recorded one of
 * the same endpoint and metric is that change, re-estimated). Call it in a transaction holding the
 * series' lock (lockSeries): two detections of one series then never record one change twice.
 */
export async function recordChanges(
  tx: Prisma.TransactionClient,
  projectId: string,
  candidates: readonly ChangeCandidate[],
): Promise<RecordedChanges> {
  const opened: string[] = [];
  const improvements: string[] = [];
  if (candidates.length === 0) return { opened, improvements, incidentsOpened: [] };
  const newRegressions: (ChangeCandidate & { id: string })[] = [];
  const newImprovements: (ChangeCandidate & { id: string })[] = [];
  const existing = await tx.change.findMany({
    where: { projectId, firstRunId: { in: [...new Set(candidates.flatMap((candidate) => candidate.seriesRunIds))] } },
    select: { endpointId: true, metric: true, firstRunId: true },
  });
  for (const candidate of candidates) {
    const at = candidate.seriesRunIds.indexOf(candidate.firstRunId);
    const isKnown = existing.some(
      (known) =>
        known.endpointId === candidate.endpointId &&
        known.metric === candidate.metric &&
        Math.abs(candidate.seriesRunIds.indexOf(known.firstRunId) - at) <= SAME_CHANGE_DISTANCE,
    );
    if (isKnown) continue;
    const { seriesRunIds: _runIds, ...change } = candidate;
    const created = await tx.change.create({
      data: { projectId, ...change, detectorVersion: DETECTOR_VERSION, status: "open" },
      select: { id: true },
    });
    existing.push({ endpointId: candidate.endpointId, metric: candidate.metric, firstRunId: candidate.firstRunId });
    (candidate.kind === "regression" ? opened : improvements).push(created.id);
    (candidate.kind === "regression" ? newRegressions : newImprovements).push({ ...candidate, id: created.id });
  }
  // A step's regressions are one incident; a change the other way says a series came back.
  const incidents = await attachToIncidents(
    tx,
    projectId,
    newRegressions.map((row) => ({ ...row, detectorVersion: DETECTOR_VERSION })),
  );
  await markReturns(tx, projectId, newImprovements);
  return { opened, improvements, incidentsOpened: incidents.opened };
}

export interface RecordedChanges {
  /** Regressions recorded, and improvements. */
  opened: string[];
  improvements: string[];
  /** Incidents the new regressions opened (others joined an active incident of their step). */
  incidentsOpened: string[];
}

/** Holds a series' detection lock until the transaction ends (a PostgreSQL advisory lock on its key). */
export async function lockSeries(tx: Prisma.TransactionClient, key: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
}

/** Detection at one run, recorded at once (tests and scripts; the job uses the two steps apart). */
export async function detectRegressionsAfterRun(
  db: Prisma.TransactionClient,
  project: { id: string; defaultBranch: string },
  run: DetectionRun,
): Promise<RecordedChanges> {
  return recordChanges(db, project.id, await findChangeCandidates(db, project, run));
}

/**
 * Every (endpoint, metric) trend over the window's runs (`runIds`, oldest first), each value at its run's
 * position in `runIds`; runs without a value are skipped. PostgreSQL groups them: a window of 100 runs of
 * a 50-endpoint suite is ~200 rows of two arrays, not 5,000 result rows made into objects one by one on
 * the event loop (about a quarter of the detection job's time there: docs/performance.md).
 */
async function loadTrends(db: Prisma.TransactionClient, runIds: string[]): Promise<TrendLine[]> {
  const window = Prisma.sql`SELECT run_id, (place - 1)::int AS position FROM unnest(${runIds}::text[]) WITH ORDINALITY AS w(run_id, place)`;
  const [latency, metrics] = await Promise.all([
    // The aggregate's latency only when the runs report no endpoint (an endpoint's step would open a
    // second, derived regression on the aggregate).
    db.$queryRaw<{ endpointId: number | null; metric: string; runs: number[]; values: number[] }[]>`
      WITH w AS (${window}),
      r AS (SELECT w.position, x.endpoint_id, x.p50_ms, x.p95_ms, x.p99_ms, x.mean_ms FROM w JOIN results x ON x.run_id = w.run_id),
      scope AS (SELECT EXISTS (SELECT 1 FROM r WHERE r.endpoint_id IS NOT NULL) AS has_endpoints)
      SELECT r.endpoint_id AS "endpointId", v.metric, array_agg(r.position ORDER BY r.position) AS runs, array_agg(v.value ORDER BY r.position) AS values
        FROM r CROSS JOIN scope
        CROSS JOIN LATERAL (VALUES (1, 'p50', r.p50_ms), (2, 'p95', r.p95_ms), (3, 'p99', r.p99_ms), (4, 'mean', r.mean_ms)) AS v(place, metric, value)
       WHERE v.value NOT IN ('NaN'::float8, 'Infinity'::float8, '-Infinity'::float8) AND (r.endpoint_id IS NOT NULL OR NOT scope.has_endpoints)
       GROUP BY r.endpoint_id, v.place, v.metric
       ORDER BY r.endpoint_id NULLS FIRST, v.place`,
    // A metric whose direction nobody stated cannot regress: a step is neither worse nor better. A trend
    // takes the direction of its oldest run.
    db.$queryRaw<{ endpointId: number | null; key: string; better: Better; runs: number[]; values: number[] }[]>`
      WITH w AS (${window})
      SELECT m.endpoint_id AS "endpointId", m.key, (array_agg(m.better::text ORDER BY w.position))[1] AS better,
             array_agg(w.position ORDER BY w.position) AS runs, array_agg(m.value ORDER BY w.position) AS values
        FROM w JOIN metrics m ON m.run_id = w.run_id
       WHERE m.better IS NOT NULL AND m.value NOT IN ('NaN'::float8, 'Infinity'::float8, '-Infinity'::float8)
       GROUP BY m.endpoint_id, m.key
       ORDER BY m.endpoint_id NULLS FIRST, m.key`,
  ]);
  return [
    ...latency.map(({ endpointId, metric, runs, values }): TrendLine => ({ endpointId, metric, better: "lower", runs, values })),
    ...metrics
      .filter((row) => isTrackedCustomMetric(row.key))
      .map(({ endpointId, key, better, runs, values }): TrendLine => ({ endpointId, metric: `metrics.${key}`, better, runs, values })),
  ];
}

/** What the detection job carries: the series (its project, tool, label and testbed), the run that queued it, and the public URL its webhooks link to. */
export interface DetectionRequest {
  projectId: string;
  runId: string;
  tool: string;
  label: string | null;
  /** Absent in jobs queued before testbeds were kept: none. */
  testbed?: string | null;
  baseUrl: string;
  /**
   * False for runs brought in by a history import (ingest/import-history.ts): the changes in that history
   * are recorded (regressions, incidents) as if its runs had been uploaded in date order, but no webhook
   * announces them: they are old news. Absent: true.
   */
  notify?: boolean;
}

/**
 * The detection job (after uploads on the default branch): change points over the series at its newest
 * run, and, when runs were coalesced into this job faster than one window can hold, at window ends
 * stepping back to the run that queued it (so no run is left out of every window); then, in one short
 * transaction holding the series' lock, the regressions that are new, the incidents they open, and a
 * webhook delivery per incident opened.
 * A job that dies half-way leaves nothing behind and runs again; one that ran is not repeated by a
 * retry (a change already recorded is known).
 */
export async function detectAndQueueWebhooks(db: PrismaClient, queue: JobQueue, request: DetectionRequest) {
  const none = { opened: [] as string[], improvements: [] as string[], incidentsOpened: [] as string[], deliveries: [] as string[] };
  const project = await db.project.findUnique({ where: { id: request.projectId }, select: { id: true, defaultBranch: true } });
  if (!project) return none; // deleted since the upload
  // Jobs queued before testbeds were kept have none: the runs with none.
  const series = { projectId: project.id, tool: request.tool, label: request.label, testbed: request.testbed ?? null, gitBranch: project.defaultBranch, ...NOT_AB_BASE };
  const queuedBy = await db.run.findUnique({ where: { id: request.runId }, select: { startedAt: true } });
  // The runs since the one that queued this job, newest first (every run of the series if it is gone).
  const since = await db.run.findMany({
    where: { ...series, ...(queuedBy ? { startedAt: { gte: queuedBy.startedAt } } : {}) },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: queuedBy ? undefined : 1,
    select: { id: true, label: true, tool: true, gitBranch: true, testbed: true, startedAt: true },
  });
  if (since.length === 0) return none;
  // A window is DETECTION_WINDOW_RUNS runs; a change needs minSegmentLength runs on each side to be
  // seen, so window ends this far apart leave no run unexamined.
  const step = DETECTION_WINDOW_RUNS - 2 * DEFAULT_CHANGE_POINT_OPTIONS.minSegmentLength;
  const ends = since.filter((_, index) => index % step === 0);
  const candidates = (await Promise.all(ends.map((end) => findChangeCandidates(db, project, end)))).flat();
  const detected = await db.$transaction(
    async (tx) => {
      await lockSeries(tx, defaultBranchSeriesKey(series));
      const recorded = await recordChanges(tx, project.id, candidates);
      // One message per incident opened (not per regression): "incident.opened", by the detector.
      if (request.notify === false) return { ...recorded, deliveries: [] as string[] };
      const opened = await tx.incident.findMany({ where: { id: { in: recorded.incidentsOpened } }, select: { id: true, createdAt: true }, orderBy: { number: "asc" } });
      const deliveries = await queueIncidentNotifications(
        tx,
        queue,
        project.id,
        opened.map((incident) => ({
          incidentId: incident.id,
          event: "incident.opened" as const,
          change: { from: null, to: "open" as const, by: "detector", at: incident.createdAt },
        })),
        request.baseUrl,
      );
      return { ...recorded, deliveries };
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
  // Counted once committed: a retried job finds its incidents recorded and opens none again.
  recordIncidentsOpened(detected.incidentsOpened.length);
  return detected;
}

/**
 * Detection again over every series of a project's default branch (after the default branch changed):
 * one detection job per series, at its newest run. Returns how many series were queued.
 */
export async function queueProjectRedetection(db: PrismaClient, queue: JobQueue, projectId: string, baseUrl: string): Promise<number> {
  const project = await db.project.findUnique({ where: { id: projectId }, select: { id: true, defaultBranch: true } });
  if (!project) return 0;
  const newest = await db.$queryRaw<{ id: string; tool: string; label: string | null; testbed: string | null }[]>`
    SELECT DISTINCT ON (tool, label, testbed) id, tool, label, testbed FROM runs
    WHERE project_id = ${project.id} AND git_branch = ${project.defaultBranch}
    ORDER BY tool, label, testbed, started_at DESC, id DESC`;
  for (const run of newest) {
    const series = { projectId: project.id, tool: run.tool, label: run.label, testbed: run.testbed };
    await queue.send("detect-regressions", { ...series, runId: run.id, baseUrl }, { singletonKey: defaultBranchSeriesKey(series) });
  }
  return newest.length;
}
