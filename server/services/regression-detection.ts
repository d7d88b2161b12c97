import { detectChangePoints, DEFAULT_CHANGE_POINT_OPTIONS } from "../domain/stats/change-points";
import { isTrackedCustomMetric } from "../domain/metrics";
import type { Better } from "../domain/run";
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import type { JobQueue } from "./job-queue";
import { queueRegressionWebhooks } from "./webhooks";

/**
 * Regression tracking over history: after each run on the default branch, the series of each
 * (tool, label, endpoint, metric) — the last DETECTION_WINDOW_RUNS runs of that tool and label — is searched for
 * change points (E-divisive means with a t-test, Otava-style; see docs/change-point-detection.md).
 * A new change point in the bad direction opens a regression; in the good direction it is recorded
 * as an improvement. A change point needs minSegmentLength runs after it to be confirmed, so this
 * confirms a step a few runs later; the upload's CI verdict flags the very run against its baseline.
 *
 * The aggregate's latency is tracked only when runs report no endpoints (e.g. a k6 summary without
 * per-name submetrics): otherwise an endpoint's step would open a second, derived regression on the
 * aggregate. Custom metrics are tracked, except those that describe the load generator (k6's
 * iterations: see LOAD_GENERATOR_METRIC_KEYS in ../domain/metrics.ts).
 */
export const DETECTION_WINDOW_RUNS = 100;
export const DETECTOR_VERSION = 1;
/** A change point this close (in runs) to a recorded one is the same change, re-estimated. */
const SAME_CHANGE_DISTANCE = 3;

const LATENCY_COLUMNS = [
  { metric: "p50", column: "p50Ms" },
  { metric: "p95", column: "p95Ms" },
  { metric: "p99", column: "p99Ms" },
  { metric: "mean", column: "meanMs" },
] as const;

interface Series {
  endpointId: number | null;
  metric: string;
  better: Better;
  runIds: string[];
  values: number[];
}

export async function detectRegressionsAfterRun(
  db: Prisma.TransactionClient,
  project: { id: string; defaultBranch: string },
  run: { id: string; label: string | null; tool: string; gitBranch: string | null; startedAt: Date },
): Promise<{ opened: string[]; improvements: string[] }> {
  const none = { opened: [], improvements: [] };
  if (run.gitBranch !== project.defaultBranch) return none;

  const window = await db.run.findMany({
    where: { projectId: project.id, label: run.label, tool: run.tool, gitBranch: project.defaultBranch, startedAt: { lte: run.startedAt } },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: DETECTION_WINDOW_RUNS,
    select: { id: true },
  });
  const runIds = window.map((row) => row.id).reverse();
  if (runIds.length < 2 * DEFAULT_CHANGE_POINT_OPTIONS.minSegmentLength) return none;

  const series = await loadSeries(db, runIds);
  const existing = await db.regression.findMany({
    where: { projectId: project.id, firstRunId: { in: runIds } },
    select: { endpointId: true, metric: true, firstRunId: true },
  });
  const opened: string[] = [];
  const improvements: string[] = [];
  for (const line of series) {
    for (const point of detectChangePoints(line.values)) {
      const firstRunId = line.runIds[point.index]!;
      const isKnown = existing.some(
        (known) =>
          known.endpointId === line.endpointId &&
          known.metric === line.metric &&
          Math.abs(line.runIds.indexOf(known.firstRunId) - point.index) <= SAME_CHANGE_DISTANCE,
      );
      if (isKnown || point.deltaPct === null) continue;
      const isWorse = line.better === "lower" ? point.direction === "increase" : point.direction === "decrease";
      const created = await db.regression.create({
        data: {
          projectId: project.id,
          endpointId: line.endpointId,
          metric: line.metric,
          kind: isWorse ? "regression" : "improvement",
          firstRunId,
          beforeValue: point.before.mean,
          afterValue: point.after.mean,
          deltaPct: point.deltaPct,
          pValue: point.pValue,
          detectorVersion: DETECTOR_VERSION,
          status: "open",
        },
        select: { id: true },
      });
      existing.push({ endpointId: line.endpointId, metric: line.metric, firstRunId });
      (isWorse ? opened : improvements).push(created.id);
    }
  }
  return { opened, improvements };
}

/** Every (endpoint, metric) series over the window's runs, oldest first; runs without a value are skipped. */
async function loadSeries(db: Prisma.TransactionClient, runIds: string[]): Promise<Series[]> {
  const order = new Map(runIds.map((id, index) => [id, index]));
  const [results, metrics] = await Promise.all([
    db.result.findMany({
      where: { runId: { in: runIds } },
      select: { runId: true, endpointId: true, p50Ms: true, p95Ms: true, p99Ms: true, meanMs: true },
    }),
    db.metric.findMany({ where: { runId: { in: runIds } }, select: { runId: true, endpointId: true, key: true, value: true, better: true } }),
  ]);
  const byKey = new Map<string, Series & { points: { index: number; runId: string; value: number }[] }>();
  const add = (endpointId: number | null, metric: string, better: Better, runId: string, value: number | null) => {
    if (value === null || !Number.isFinite(value)) return;
    const key = `${endpointId ?? "all"}|${metric}`;
    let entry = byKey.get(key);
    if (!entry) {
      entry = { endpointId, metric, better, runIds: [], values: [], points: [] };
      byKey.set(key, entry);
    }
    entry.points.push({ index: order.get(runId)!, runId, value });
  };
  const hasEndpoints = results.some((result) => result.endpointId !== null);
  for (const result of results) {
    if (result.endpointId === null && hasEndpoints) continue;
    for (const { metric, column } of LATENCY_COLUMNS) add(result.endpointId, metric, "lower", result.runId, result[column]);
  }
  for (const metric of metrics) {
    // A metric whose direction nobody stated cannot regress: a step is neither worse nor better.
    if (isTrackedCustomMetric(metric.key) && metric.better !== null) {
      add(metric.endpointId, `metrics.${metric.key}`, metric.better, metric.runId, metric.value);
    }
  }
  return [...byKey.values()].map(({ points, ...series }) => {
    points.sort((a, b) => a.index - b.index);
    return { ...series, runIds: points.map((point) => point.runId), values: points.map((point) => point.value) };
  });
}

/** What the detection job carries: the run that was stored, and the public URL its webhooks link to. */
export interface DetectionRequest {
  projectId: string;
  runId: string;
  baseUrl: string;
}

/**
 * The detection job (after an upload on the default branch): change points over the run's series (at its
 * newest run, so one job stands for every upload coalesced into it), the regressions they open, and
 * those regressions' webhook deliveries, in one transaction. A job that dies
 * half-way leaves nothing behind and runs again from the start; one that ran is not repeated by a retry
 * (a change point already recorded is known, SAME_CHANGE_DISTANCE).
 */
export async function detectAndQueueWebhooks(db: PrismaClient, queue: JobQueue, request: DetectionRequest) {
  const [project, run] = await Promise.all([
    db.project.findUnique({ where: { id: request.projectId }, select: { id: true, defaultBranch: true } }),
    db.run.findUnique({
      where: { id: request.runId },
      select: { id: true, label: true, tool: true, gitBranch: true, startedAt: true, projectId: true },
    }),
  ]);
  // Deleted since the upload: nothing to detect.
  if (!project || !run || run.projectId !== project.id) return { opened: [], improvements: [], deliveries: [] };
  // At the series' newest run: uploads that came while this job waited were coalesced into it.
  const newest =
    (await db.run.findFirst({
      where: { projectId: project.id, tool: run.tool, label: run.label, gitBranch: project.defaultBranch },
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
      select: { id: true, label: true, tool: true, gitBranch: true, startedAt: true },
    })) ?? run;
  return db.$transaction(
    async (tx) => {
      const detected = await detectRegressionsAfterRun(tx, project, newest);
      const deliveries = await queueRegressionWebhooks(tx, queue, detected.opened, request.baseUrl);
      return { ...detected, deliveries };
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
}

/** The key that serializes detection of one series (tool and label on the default branch): one at a time. */
export function seriesKey(run: { projectId: string; tool: string; label: string | null }): string {
  return JSON.stringify([run.projectId, run.tool, run.label]);
}

/**
 * Detection again over every series of a project's default branch (after the default branch changed):
 * one detection job per series, at its newest run. Returns how many series were queued.
 */
export async function queueProjectRedetection(db: PrismaClient, queue: JobQueue, projectId: string, baseUrl: string): Promise<number> {
  const project = await db.project.findUnique({ where: { id: projectId }, select: { id: true, defaultBranch: true } });
  if (!project) return 0;
  const newest = await db.$queryRaw<{ id: string; tool: string; label: string | null }[]>`
    SELECT DISTINCT ON (tool, label) id, tool, label FROM runs
    WHERE project_id = ${project.id} AND git_branch = ${project.defaultBranch}
    ORDER BY tool, label, started_at DESC, id DESC`;
  for (const run of newest) {
    await queue.send(
      "detect-regressions",
      { projectId: project.id, runId: run.id, baseUrl },
      { singletonKey: seriesKey({ projectId: project.id, tool: run.tool, label: run.label }) },
    );
  }
  return newest.length;
}
