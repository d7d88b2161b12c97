import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db";
import type { PrismaClient } from "../generated/prisma/client";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../testing/databases";
import { ingestTestRun } from "../testing/seed";
import { getJobActivity } from "../services/projects/job-activity";
import { jobQueueOf, openJobQueue, type JobQueue } from "../services/platform/job-queue";
import { updateProjectSettings } from "../services/projects/project-settings";
import { findChangeCandidates, lockSeries, recordChanges } from "../services/incidents/regression-detection";
import { defaultBranchSeriesKey } from "../services/runs";
import { applyRawRetention } from "../services/runs/raw-retention";
import { findStaleTables } from "../services/platform";
import { runQueuedJobs } from "./worker";

const ADMIN = { kind: "admin" } as const;
/** A p95 series with a +30% step at run 12 (20 runs), the change detection must find once. */
const STEP = [
  ...[20.1, 19.8, 20.3, 20.0, 19.9, 20.2, 20.1, 19.7, 20.4, 20.0, 20.2, 19.9],
  ...[26.1, 26.4, 25.9, 26.3, 26.0, 26.2, 26.5, 26.1],
];

async function upload(db: PrismaClient, slug: string, p95: number, hour: number, branch = "main") {
  const document = {
    schema: "benchtrack/v1",
    label: "nightly",
    startedAt: new Date(Date.UTC(2026, 0, 1) + hour * 3_600_000).toISOString(),
    endpoints: [{ name: "GetListing", requests: 5000, latency: { unit: "ms", p95 } }],
  };
  return ingestTestRun(db, slug, document, { metadata: { branch } });
}

const jobsOf = (db: PrismaClient, name: string, projectId: string, queue: JobQueue = current!) =>
  db.$queryRawUnsafe<{ state: string; output: Record<string, number> | null }[]>(
    `SELECT state, output FROM ${queue.schema}.job WHERE name = $1 AND data->>'projectId' = $2
     UNION ALL SELECT state, output FROM ${queue.schema}.archive WHERE name = $1 AND data->>'projectId' = $2`,
    name,
    projectId,
  );

/** The queue of the database under test (jobsOf reads its tables). */
let current: JobQueue | undefined;

describe.each(testDatabaseTargets())("background jobs on $name", ({ target }) => {
  let database: Database;
  let db: PrismaClient;
  let queue: JobQueue;

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
    db = database.prisma;
    queue = await jobQueueOf(database);
    current = queue;
  });

  afterAll(async () => {
    await database.close();
  });

  it("an upload on main queues detection with the run; the job opens the regression, its incident, and the incident's one webhook", async () => {
    const slug = uniqueSlug("detect");
    for (const [hour, p95] of STEP.entries()) await upload(db, slug, p95, hour);
    await db.project.update({ where: { slug }, data: { webhookUrl: "https://hooks.example.com/T000" } });
    const project = await db.project.findUniqueOrThrow({ where: { slug } });
    // Not found by the upload itself any more: nothing until the jobs run. The 20 uploads, faster than any
    // worker, coalesced into one waiting job for the series (it detects at the newest run).
    expect(await db.change.count({ where: { projectId: project.id } })).toBe(0);
    expect((await jobsOf(db, "detect-regressions", project.id)).map((job) => job.state)).toEqual(["created"]);

    const ran = await runQueuedJobs({
      db,
      queue,
      webhook: { fetch: () => Promise.resolve(new Response(null, { status: 204 })) },
    });
    expect(ran.failed).toBe(0);
    const regressions = await db.change.findMany({
      where: { projectId: project.id, kind: "regression" },
      include: { firstRun: true },
    });
    expect(regressions.map((regression) => regression.metric)).toEqual(["p95"]);
    const [incident, ...others] = await db.incident.findMany({ where: { projectId: project.id } });
    expect(others).toEqual([]);
    expect(regressions[0]!.incidentId).toBe(incident!.id);
    const deliveries = await db.webhookDelivery.findMany({ where: { projectId: project.id } });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ event: "incident.opened", format: "json", incidentId: incident!.id, regressionId: null, attempts: 1, lastStatus: 204 });
    // Each job's output says what it did; one of them opened the regression.
    const outputs = (await jobsOf(db, "detect-regressions", project.id)).map((job) => job.output);
    expect(outputs.reduce((sum, output) => sum + (output?.opened ?? 0), 0)).toBe(1);
  });

  it("a run on another branch queues no detection", async () => {
    const slug = uniqueSlug("branch");
    await upload(db, slug, 20, 0, "feature/x");
    const project = await db.project.findUniqueOrThrow({ where: { slug } });
    expect(await jobsOf(db, "detect-regressions", project.id)).toEqual([]);
  });

  it("two workers draining one queue run each job once: no regression opened twice", async () => {
    const slugs = [uniqueSlug("twice"), uniqueSlug("twice"), uniqueSlug("twice")];
    for (const slug of slugs) for (const [hour, p95] of STEP.entries()) await upload(db, slug, p95, hour);
    const projects = await db.project.findMany({ where: { slug: { in: slugs } }, select: { id: true } });
    const statesOf = async () => (await Promise.all(projects.map((project) => jobsOf(db, "detect-regressions", project.id)))).flat().map((job) => job.state);
    expect(await statesOf()).toEqual(["created", "created", "created"]); // one per series
    const other = await openJobQueue(database);
    const results = await Promise.all([runQueuedJobs({ db, queue }), runQueuedJobs({ db, queue: other })]);
    expect(await statesOf()).toEqual(["completed", "completed", "completed"]);
    expect(results.every((result) => result.failed === 0)).toBe(true);
    for (const slug of slugs) {
      const regressions = await db.change.findMany({ where: { project: { slug }, kind: "regression" } });
      expect(regressions.map((regression) => regression.metric)).toEqual(["p95"]);
    }
    await other.stop();
  });

  it("runs coalesced beyond one detection window are all examined: a change far from the newest run is found", async () => {
    const slug = uniqueSlug("backlog");
    // 130 runs queued before any worker ran: a +30% step at run 15, then 115 runs at the new level. The
    // newest run's window (100 runs) holds no change; the job must look further back to find it.
    const values = Array.from({ length: 130 }, (_, index) => (index < 15 ? 20 : 26) + ((index * 7) % 5) * 0.1);
    const runs = [];
    for (const [hour, p95] of values.entries()) runs.push((await upload(db, slug, p95, hour)).run);
    const project = await db.project.findUniqueOrThrow({ where: { slug } });
    expect((await jobsOf(db, "detect-regressions", project.id)).map((job) => job.state)).toEqual(["created"]);
    expect((await runQueuedJobs({ db, queue })).failed).toBe(0);
    const regressions = await db.change.findMany({ where: { projectId: project.id, kind: "regression" } });
    expect(regressions.map((regression) => [regression.metric, regression.firstRunId])).toEqual([["p95", runs[15]!.id]]);
  });

  it("detection reads every trend a run reports: endpoint latency (not the aggregate beside it), custom metrics with a direction only", async () => {
    const slug = uniqueSlug("trends");
    // Everything steps up 30% at run 12: GetListing's p95, the run's aggregate, a custom metric with a
    // direction (cpu, lower is better), one without (queue), and a load generator's count (iterations).
    const runs = [];
    for (const [hour, p95] of STEP.entries()) {
      const document = {
        schema: "benchtrack/v1",
        label: "nightly",
        startedAt: new Date(Date.UTC(2026, 0, 1) + hour * 3_600_000).toISOString(),
        endpoints: [{ name: "GetListing", requests: 5000, latency: { unit: "ms", p95 }, metrics: { cpu: { value: p95 * 2, unit: "%", better: "lower" } } }],
        summary: { name: "all", requests: 5000, latency: { unit: "ms", p95: p95 + 1 } },
        metrics: { queue: { value: p95 * 3, unit: "jobs" }, iterations: { value: p95 * 100, unit: "iterations", better: "lower" } },
      };
      runs.push((await ingestTestRun(db, slug, document, { metadata: { branch: "main" } })).run);
    }
    const project = await db.project.findUniqueOrThrow({ where: { slug }, select: { id: true, defaultBranch: true } });
    const candidates = await findChangeCandidates(db, project, { ...runs.at(-1)!, gitBranch: "main" });
    const endpoint = await db.endpoint.findFirstOrThrow({ where: { projectId: project.id, name: "GetListing" }, select: { id: true } });
    expect(candidates.map(({ endpointId, metric, kind, firstRunId }) => ({ endpointId, metric, kind, firstRunId }))).toEqual([
      { endpointId: endpoint.id, metric: "p95", kind: "regression", firstRunId: runs[12]!.id },
      { endpointId: endpoint.id, metric: "metrics.cpu", kind: "regression", firstRunId: runs[12]!.id },
    ]);
  });

  it("detections of one series at once record each change once: the second waits for the first's lock", async () => {
    const slug = uniqueSlug("race");
    const runs = [];
    for (const [hour, p95] of STEP.entries()) runs.push((await upload(db, slug, p95, hour)).run);
    const project = await db.project.findUniqueOrThrow({ where: { slug }, select: { id: true, defaultBranch: true } });
    const candidates = await findChangeCandidates(db, project, { ...runs.at(-1)!, gitBranch: "main" });
    expect(candidates.filter((candidate) => candidate.kind === "regression")).toHaveLength(1);
    const key = defaultBranchSeriesKey({ projectId: project.id, tool: "custom", label: "nightly" });
    const record = (hold: Promise<unknown>) =>
      db.$transaction(async (tx) => {
        await lockSeries(tx, key);
        const recorded = await recordChanges(tx, project.id, candidates);
        await hold; // still uncommitted: a detection that did not wait for the lock would not see it
        return recorded.opened.length;
      });
    const first = record(new Promise((resolve) => setTimeout(resolve, 400)));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = record(Promise.resolve());
    expect((await Promise.all([first, second])).sort()).toEqual([0, 1]);
    expect(await db.change.count({ where: { projectId: project.id, kind: "regression" } })).toBe(1);
  });

  it.runIf(target.kind === "postgres")("an upload coalesced into the waiting job keeps it from starting until the upload commits", async () => {
    const slug = uniqueSlug("hold");
    const first = (await upload(db, slug, 20, 0)).run;
    const project = await db.project.findUniqueOrThrow({ where: { slug } });
    const key = defaultBranchSeriesKey({ projectId: project.id, tool: "custom", label: "nightly" });
    const data = { projectId: project.id, runId: first.id, tool: "custom", label: "nightly", baseUrl: "http://bench.test" };
    const other = await openJobQueue(database);
    const fetchedIds = async () => (await other.boss.fetch<typeof data>("detect-regressions", { batchSize: 100 })).map((job) => job.id);
    const [waiting] = await db.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id FROM ${queue.schema}.job WHERE singleton_key = $1 AND state = 'created'`,
      key,
    );
    let fetchedDuring: string[] = [];
    await db.$transaction(async (tx) => {
      await queue.sendCoalesced("detect-regressions", data, tx, key);
      fetchedDuring = await fetchedIds(); // another connection: the job is locked, so skipped
    });
    expect(fetchedDuring).not.toContain(waiting!.id);
    const fetchedAfter = await fetchedIds();
    expect(fetchedAfter).toContain(waiting!.id);
    await other.boss.complete("detect-regressions", [...fetchedDuring, ...fetchedAfter]);
    await other.stop();
  });

  it("a new default branch queues re-detection, which queues detection of each of its series", async () => {
    const slug = uniqueSlug("redetect");
    for (const [hour, p95] of STEP.entries()) await upload(db, slug, p95, hour, "develop");
    const project = await db.project.findUniqueOrThrow({ where: { slug } });
    await updateProjectSettings(db, ADMIN, slug, { defaultBranch: "develop" });
    expect((await jobsOf(db, "redetect-project", project.id)).map((job) => job.state)).toEqual(["created"]);
    expect((await runQueuedJobs({ db, queue })).failed).toBe(0);
    expect((await jobsOf(db, "redetect-project", project.id))[0]?.output).toEqual({ series: 1 });
    expect(await db.change.count({ where: { projectId: project.id, kind: "regression" } })).toBe(1);
  });

  it("the activity shows a failed job's message, not its stack nor a URL's secret path", async () => {
    const slug = uniqueSlug("activity");
    await upload(db, slug, 20, 0, "feature/y");
    const project = await db.project.findUniqueOrThrow({ where: { slug } });
    const id = await queue.send("apply-retention", { projectId: project.id });
    const [job] = await queue.boss.fetch("apply-retention");
    expect(job?.id).toBe(id);
    const secret = "https://user:pw@hooks.example.com/services/T000/B000/secret-token";
    await queue.boss.fail("apply-retention", id!, { message: `could not reach ${secret}: refused`, stack: "Error\n    at /srv/benchtrack/server/x.ts:1:1" });
    const activity = await getJobActivity(db, ADMIN, slug);
    expect(activity.failedJobs).toBe(0); // it may still retry: failed for good only after its last attempt
    expect(activity.jobs.find((row) => row.id === id)?.output).toEqual({ message: "could not reach https://hooks.example.com: refused" });
  });

  it("retention drops raw uploads older than the project's setting, never a pinned baseline's, and says what it freed", async () => {
    const slug = uniqueSlug("retention");
    const runs = [];
    for (let hour = 0; hour < 4; hour++) runs.push((await upload(db, slug, 20 + hour, hour)).run);
    const project = await db.project.findUniqueOrThrow({ where: { slug } });
    const [old1, old2, pinned] = runs;
    // Three uploads 40 days old (one of them a pinned baseline), one fresh.
    await db.rawUpload.updateMany({
      where: { runId: { in: [old1!.id, old2!.id, pinned!.id] } },
      data: { createdAt: new Date(Date.now() - 40 * 86_400_000) },
    });
    await db.baselinePin.create({ data: { projectId: project.id, forLabel: "nightly", runIds: [pinned!.id] } });
    const sizes = await db.rawUpload.findMany({
      where: { runId: { in: [old1!.id, old2!.id] } },
      select: { gzipData: true },
    });
    const expectedBytes = sizes.reduce((sum, row) => sum + (row.gzipData?.length ?? 0), 0);

    // Setting it queues the job at once (the nightly schedule would do the same).
    await updateProjectSettings(db, ADMIN, slug, { rawRetentionDays: 30 });
    expect((await runQueuedJobs({ db, queue })).failed).toBe(0);
    const [job] = await jobsOf(db, "apply-retention", project.id);
    expect(job?.output).toEqual({ projects: 1, dropped: 2, freedBytes: expectedBytes, runsDeleted: 0 });

    const kept = await db.rawUpload.findMany({
      where: { run: { projectId: project.id } },
      select: { runId: true, gzipData: true },
    });
    const hasBytes = new Map(kept.map((row) => [row.runId, row.gzipData !== null]));
    expect([old1, old2, pinned, runs[3]].map((run) => hasBytes.get(run!.id))).toEqual([false, false, true, true]);
    // The summaries stay: every run still has its results.
    expect(await db.result.count({ where: { runId: { in: runs.map((run) => run.id) } } })).toBe(8);
    // A second pass finds nothing more to drop.
    expect(await applyRawRetention(db, { projectId: project.id })).toEqual([
      { projectId: project.id, slug, retentionDays: 30, dropped: 0, freedBytes: 0 },
    ]);
  });

  it("the statistics job (the embedded database's autovacuum) leaves no table past autovacuum's thresholds", async () => {
    const slug = uniqueSlug("statistics");
    for (let hour = 0; hour < 30; hour++) await upload(db, slug, 20, hour);
    // On the embedded database the uploads leave tables stale (no autovacuum). On PostgreSQL autovacuum
    // may have caught up, and other test files write meanwhile: there the job is only seen to complete.
    const embedded = target.kind !== "postgres";
    if (embedded) expect((await findStaleTables(db)).map((table) => table.name)).toContain("public.results");
    await queue.send("refresh-statistics", {});
    expect((await runQueuedJobs({ db, queue })).failed).toBe(0);
    const [job] = await db.$queryRawUnsafe<{ output: { analyzed: string[] } }[]>(
      `SELECT output FROM ${queue.schema}.job WHERE name = 'refresh-statistics' UNION ALL SELECT output FROM ${queue.schema}.archive WHERE name = 'refresh-statistics'`,
    );
    expect(job?.output.analyzed).toEqual(expect.any(Array));
    if (!embedded) return;
    expect(job?.output.analyzed).toContain("public.results");
    // The job's own completion changes the queue's tables: those may be past the thresholds again.
    expect((await findStaleTables(db)).filter((table) => !table.name.startsWith(`${queue.schema}.`))).toEqual([]);
  });
});
