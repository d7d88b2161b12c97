import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db";
import { bucketStartOf, ROLLUP_GRAINS, toBucketPoint } from "../../domain/series/trend-rollup";
import type { RollupGrain } from "../../domain/series/trend-rollup";
import type { HistogramBucket } from "../../domain/run";
import { readPooledPercentile } from "../../domain/stats/pooled-percentile";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { ingestTestRun } from "../../testing/seed";
import { runQueuedJobs } from "../../jobs/worker";
import { getEndpointTrends } from "./endpoint-trends";
import { jobQueueOf } from "../platform/job-queue";
import { uploadOfFiles } from "../ingest/received-upload";
import { markProjectPending, markRunsPending, readRollupBuckets, refreshRollups } from "./trend-rollups";
import type { HistoryScope } from "./endpoint-page";

/**
 * Rollups kept by the refresh-rollups job (docs/rollups.md): real hey runs (per-request samples, so HDR
 * histograms) and k6 summaries (no histogram) uploaded through the ingest use case at chosen times;
 * every bucket read is checked against numbers computed here from the raw results, before the job ran
 * (pending weeks read raw), after it, after an upload into a summarised week, and after a deletion.
 */
const JOB_SCHEMA_OF = (database: Database) => database.queueConnection.schema;
const HEY = readFileSync("/work/shared/fixtures/hey/baseline/csv/hey.csv");
const K6 = readFileSync("/work/shared/fixtures/k6/baseline/round1/summary.json");

const heyUpload = () => uploadOfFiles([{ name: "hey.csv", contentType: "text/csv", bytes: HEY }]);
const k6Upload = () => uploadOfFiles([{ name: "summary.json", contentType: "application/json", bytes: K6 }]);

/** Start times over three weeks (UTC), two on one hour, one on a Sunday night and one the Monday after. */
const TIMES = [
  "2026-10-05T09:10:00Z",
  "2026-10-05T09:40:00Z",
  "2026-10-06T14:00:00Z",
  "2026-10-11T23:30:00Z",
  "2026-10-12T00:30:00Z",
  "2026-10-20T08:00:00Z",
];

interface RawRow {
  runId: string;
  startedAt: Date;
  p95Ms: number | null;
  requests: number | null;
  failures: number | null;
  histogram: unknown;
}

/** The buckets' numbers computed here, straight from the raw rows (no SQL aggregate). */
function expectedBuckets(rows: readonly RawRow[], grain: RollupGrain) {
  const byStart = new Map<number, RawRow[]>();
  for (const row of rows) {
    const start = bucketStartOf(row.startedAt, grain).getTime();
    byStart.set(start, [...(byStart.get(start) ?? []), row]);
  }
  return [...byStart.entries()]
    .sort(([a], [b]) => a - b)
    .map(([time, bucket]) => {
      const p95s = bucket.flatMap((row) => (row.p95Ms === null ? [] : [row.p95Ms]));
      const histograms = bucket.map((row) => row.histogram as HistogramBucket[] | null);
      const pooled = histograms.every((histogram) => histogram !== null) ? readPooledPercentile(histograms, 95) : null;
      const requests = bucket.reduce((sum, row) => sum + (row.requests ?? 0), 0);
      const failures = bucket.reduce((sum, row) => sum + (row.failures ?? 0), 0);
      return {
        time,
        runs: bucket.length,
        p95Ms: p95s.reduce((sum, value) => sum + value, 0) / p95s.length,
        p95RangeMs: [Math.min(...p95s), Math.max(...p95s)],
        errorRate: failures / requests,
        pooledP95Ms: pooled?.status === "ok" ? pooled.valueMs : null,
      };
    });
}

function shapeOf(points: ReturnType<typeof toBucketPoint>[]) {
  return points.map((point) => ({
    time: point.time,
    runs: point.runs,
    p95Ms: point.p95Ms,
    p95RangeMs: point.p95RangeMs,
    errorRate: point.errorRate,
    pooledP95Ms: point.pooledP95Ms,
  }));
}

describe.each(testDatabaseTargets())("trend rollups on $name", ({ target }) => {
  let database: Database;

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
  });

  afterAll(async () => {
    await database.close();
  });

  async function uploadHistory(slug: string, times: readonly string[], upload = heyUpload) {
    const runIds: string[] = [];
    for (const startedAt of times) {
      const outcome = await ingestTestRun(database.prisma, slug, upload(), { metadata: { started_at: startedAt, branch: "main", label: "nightly" } });
      if (outcome.status !== "created") throw new Error(`upload failed: ${JSON.stringify(outcome)}`);
      runIds.push(outcome.run.id);
    }
    const project = await database.prisma.project.findUniqueOrThrow({ where: { slug }, select: { id: true } });
    return { projectId: project.id, runIds };
  }

  const rawRows = (projectId: string) =>
    database.prisma.result.findMany({
      where: { projectId, endpointId: null },
      select: { runId: true, startedAt: true, p95Ms: true, requests: true, failures: true, histogram: true },
    });

  const aggregateScope = (projectId: string): HistoryScope => ({ projectId, endpointId: null, since: null, branches: null, label: null, tool: null });

  async function expectBucketsMatchRaw(projectId: string) {
    const rows = await rawRows(projectId);
    for (const grain of ROLLUP_GRAINS) {
      const read = await readRollupBuckets(database.prisma, aggregateScope(projectId), grain);
      const actual = shapeOf(read.map((bucket) => toBucketPoint(bucket, grain)));
      const expected = expectedBuckets(rows, grain);
      expect(actual.map((point) => [point.time, point.runs])).toEqual(expected.map((point) => [point.time, point.runs]));
      actual.forEach((point, index) => {
        const want = expected[index]!;
        expect(point.p95Ms).toBeCloseTo(want.p95Ms, 9);
        expect(point.p95RangeMs).toEqual(want.p95RangeMs);
        expect(point.errorRate).toBeCloseTo(want.errorRate, 12);
        if (want.pooledP95Ms === null) expect(point.pooledP95Ms).toBeNull();
        else expect(point.pooledP95Ms).toBeCloseTo(want.pooledP95Ms, 9);
      });
    }
  }

  const pendingOf = (projectId: string) => database.prisma.trendRollupPending.count({ where: { projectId } });

  it("reads pending weeks raw, then the job's rollups, with the same numbers; a new upload shows at once", async () => {
    const slug = uniqueSlug("rollups");
    const { projectId } = await uploadHistory(slug, TIMES);
    // Mixed: one k6 summary (no histogram) in the last week, so that week has no pooled percentile.
    await uploadHistory(slug, ["2026-10-21T08:00:00Z"], k6Upload);

    expect(await pendingOf(projectId)).toBeGreaterThan(0);
    expect(await database.prisma.trendRollup.count({ where: { projectId } })).toBe(0);
    await expectBucketsMatchRaw(projectId);

    expect((await refreshRollups(database.prisma, projectId)).weeks).toBe(3);
    expect(await pendingOf(projectId)).toBe(0);
    await expectBucketsMatchRaw(projectId);
    // Stored per series (hey's and k6's runs are two): the page's "every tool" merges them per week.
    const stored = await database.prisma.trendRollup.findMany({
      where: { projectId, endpointId: null, grain: "week" },
      orderBy: [{ bucketStart: "asc" }, { tool: "asc" }],
    });
    expect(stored.map((row) => [row.bucketStart.toISOString(), row.tool, row.runs, row.histogram !== null])).toEqual([
      ["2026-10-05T00:00:00.000Z", "hey", 4, true],
      ["2026-10-12T00:00:00.000Z", "hey", 1, true],
      ["2026-10-19T00:00:00.000Z", "hey", 1, true],
      ["2026-10-19T00:00:00.000Z", "k6", 1, false],
    ]);
    // A second run of the job finds nothing to do and changes nothing.
    expect((await refreshRollups(database.prisma, projectId)).weeks).toBe(0);

    // An upload into a summarised week: its first read already counts it (the week is pending again).
    await uploadHistory(slug, ["2026-10-07T12:00:00Z"]);
    const weeks = await readRollupBuckets(database.prisma, aggregateScope(projectId), "week");
    expect(weeks.map((bucket) => bucket.runs)).toEqual([5, 1, 2]);
    await expectBucketsMatchRaw(projectId);
    await refreshRollups(database.prisma, projectId);
    await expectBucketsMatchRaw(projectId);
  });

  it("queues the project's refresh-rollups job with the upload; the worker summarises its weeks", async () => {
    const slug = uniqueSlug("rollups-job");
    const { projectId } = await uploadHistory(slug, TIMES.slice(0, 3));
    const queued = await database.prisma.$queryRawUnsafe<{ count: number }[]>(
      `SELECT count(*)::int AS count FROM ${JOB_SCHEMA_OF(database)}.job WHERE name = 'refresh-rollups' AND data->>'projectId' = $1`,
      projectId,
    );
    // Coalesced: one job waits for the project however many uploads came.
    expect(queued[0]!.count).toBe(1);
    const ran = await runQueuedJobs({ db: database.prisma, queue: await jobQueueOf(database) });
    expect(ran.failed).toBe(0);
    expect(await pendingOf(projectId)).toBe(0);
    expect(await database.prisma.trendRollup.count({ where: { projectId, grain: "week" } })).toBeGreaterThan(0);
    await expectBucketsMatchRaw(projectId);
  });

  it("drops a deleted run from its bucket, pending at once and summarised by the job", async () => {
    const slug = uniqueSlug("rollups-delete");
    const { projectId, runIds } = await uploadHistory(slug, TIMES);
    await refreshRollups(database.prisma, projectId);
    const deleted = runIds[2]!;
    await database.prisma.$transaction(async (tx) => {
      await markRunsPending(tx, projectId, [deleted]);
      await tx.run.delete({ where: { id: deleted } });
    });
    const weeks = await readRollupBuckets(database.prisma, aggregateScope(projectId), "week");
    expect(weeks.map((bucket) => bucket.runs)).toEqual([3, 1, 1]);
    await expectBucketsMatchRaw(projectId);
    await refreshRollups(database.prisma, projectId);
    expect(await pendingOf(projectId)).toBe(0);
    await expectBucketsMatchRaw(projectId);
  });

  it("is idempotent under concurrent jobs and backfills a history written around the upload path", async () => {
    const slug = uniqueSlug("rollups-concurrent");
    const { projectId } = await uploadHistory(slug, TIMES);
    const [a, b] = await Promise.all([refreshRollups(database.prisma, projectId), refreshRollups(database.prisma, projectId)]);
    expect(a.weeks + b.weeks).toBe(3);
    await expectBucketsMatchRaw(projectId);
    const rowsAfterJobs = await database.prisma.trendRollup.count({ where: { projectId } });

    // Backfill: rollups lost (or a bulk load): every week marked pending, then summarised again.
    await database.prisma.trendRollup.deleteMany({ where: { projectId } });
    expect(await markProjectPending(database.prisma, projectId)).toBe(3);
    await expectBucketsMatchRaw(projectId);
    await refreshRollups(database.prisma, projectId);
    expect(await database.prisma.trendRollup.count({ where: { projectId } })).toBe(rowsAfterJobs);
    await expectBucketsMatchRaw(projectId);
  });

  it("takes the weeks pending when it starts: marks made while it runs stay for the next job, so a steady stream of uploads cannot keep one job running", async () => {
    const slug = uniqueSlug("rollups-stream");
    const { projectId } = await uploadHistory(slug, TIMES);
    // Uploads that keep coming: every week of the project marked again as each of the job's transactions begins.
    let marks = 0;
    const db = database.prisma;
    const uploadsMeanwhile = new Proxy(db, {
      get(target, property) {
        if (property === "$transaction") {
          return async (...args: Parameters<typeof db.$transaction>) => {
            marks += await markProjectPending(target, projectId);
            return target.$transaction(...args);
          };
        }
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    // The three weeks pending at its start, once each; then it ends, the marks made meanwhile waiting.
    expect((await refreshRollups(uploadsMeanwhile, projectId)).weeks).toBe(3);
    expect(marks).toBeGreaterThan(0);
    expect(await pendingOf(projectId)).toBe(marks);
    await expectBucketsMatchRaw(projectId);
    // The next job takes them.
    expect((await refreshRollups(db, projectId)).weeks).toBe(3);
    expect(await pendingOf(projectId)).toBe(0);
  });

  it("draws a long range as buckets on the trend page, with its run count, latest runs and the raw numbers", async () => {
    const slug = uniqueSlug("rollups-page");
    const { projectId, runIds } = await uploadHistory(slug, TIMES);
    await refreshRollups(database.prisma, projectId);
    const query = { projectSlug: slug, endpoint: "_all", branches: ["all"], label: null, range: "all" as const };

    const runLevel = await getEndpointTrends(database.prisma, query);
    expect(runLevel.buckets).toBeNull();
    expect(runLevel.points).toHaveLength(TIMES.length);

    // Above the threshold (pinned low here): buckets, at the finest grain that fits (16 days).
    const zoomedOut = await getEndpointTrends(database.prisma, { ...query, runLevelMaxRuns: 5, maxPoints: 30 });
    expect(zoomedOut.buckets?.grain).toBe("day");
    expect(zoomedOut.totalRuns).toBe(TIMES.length);
    expect(zoomedOut.points).toEqual([]);
    expect(shapeOf(zoomedOut.buckets!.points)).toEqual(
      expectedBuckets(await rawRows(projectId), "day").map((point) => expect.objectContaining({ time: point.time, runs: point.runs })),
    );
    expect(zoomedOut.latest.map((run) => run.runId)).toEqual([...runIds].reverse());
    expect(zoomedOut.latest[0]!.order).toBe(TIMES.length);
    expect(zoomedOut.testbeds).toEqual(runLevel.testbeds);
  });
});
