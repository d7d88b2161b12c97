import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as uploadRun } from "@/app/api/v1/projects/[project]/runs/route";
import { POST as createProject } from "@/app/api/v1/projects/route";
import { closeDb, getDatabase, openDatabase, targetFromEnv } from "./db";
import type { Database } from "./db";
import { getEnv } from "./env";
import { startWorkers } from "./jobs/worker";
import { migrateDatabase } from "./migrate/apply";
import { openJobQueue, type JobQueue } from "./services/platform/job-queue";
import { uniqueSlug } from "./testing/databases";
import { postgresBinDir, startPostgresCluster } from "./testing/postgres-cluster";
import type { PostgresCluster } from "./testing/postgres-cluster";
import { call, configureTestEnvironment, TEST_ADMIN_TOKEN } from "./testing/rest-client";

/**
 * The database restarting under load (issue 36): a PostgreSQL cluster of this file's own (initdb on a
 * free port, never the machine's shared server), the app's services pointed at it (DATABASE_URL) with
 * the job workers running beside them as in `npm start`, and `pg_ctl stop -m fast` + start while
 * uploads run through the REST route and while a job is active.
 * Every answer is 2xx or 503 with Retry-After; an upload retried with its Idempotency-Key is stored
 * exactly once; the interrupted job runs again within a minute of the database's return; and nothing
 * escapes as an unhandled rejection or an uncaught exception.
 */
const bin = postgresBinDir();
if (!bin) console.info("database-restart.slow.test.ts: skipped: no PostgreSQL server is installed (initdb, pg_ctl)");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `condition` every 250 ms until it holds; false when `timeoutMs` passed first. */
async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition().catch(() => false)) return true;
    await sleep(250);
  }
  return false;
}

interface Answer {
  key: string;
  status: number;
  retryAfter: string | null;
  body: string;
}

/** One upload through the real route handler (no OpenAPI check: a 500 must be seen, not thrown). */
async function upload(slug: string, key: string, p95: number, startedAt: Date): Promise<Answer> {
  const url = new URL(`/api/v1/projects/${slug}/runs`, "http://localhost");
  url.searchParams.set("branch", "main");
  const body = JSON.stringify({
    schema: "benchtrack/v1",
    label: "restart",
    startedAt: startedAt.toISOString(),
    endpoints: [{ name: "GetListing", requests: 1000, latency: { unit: "ms", p95 } }],
  });
  const request = new Request(url, {
    method: "POST",
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, "content-type": "application/json", "idempotency-key": key },
    body,
  });
  const response = await uploadRun(request, { params: Promise.resolve({ project: slug }) });
  return { key, status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.text() };
}

describe.skipIf(!bin)("a PostgreSQL restart", () => {
  let cluster: PostgresCluster;
  /** The job workers of `npm start`, in this process as there: the queue with its maintenance, on the same database. */
  let worker: Database;
  let queue: JobQueue;
  /** Unhandled rejections and uncaught exceptions (an 'error' event nobody listened to) while the file runs. */
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => {
    rejections.push(reason);
  };

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    process.env.DATABASE_URL = cluster.url();
    delete process.env.DATABASE_READ_URL;
    await configureTestEnvironment();
    await migrateDatabase(targetFromEnv());
    process.on("unhandledRejection", onRejection);
    process.on("uncaughtExceptionMonitor", onRejection);
    worker = await openDatabase({ kind: "postgres", url: cluster.url() }, { jobSchema: getEnv().BENCHTRACK_JOB_SCHEMA });
    queue = await openJobQueue(worker, { maintain: true });
    await startWorkers({ db: worker.prisma, queue }, 0.5);
  }, 120_000);

  afterAll(async () => {
    await worker?.close();
    await closeDb();
    process.off("unhandledRejection", onRejection);
    process.off("uncaughtExceptionMonitor", onRejection);
    await cluster?.remove();
  }, 60_000);

  it("answers every upload 2xx or 503 with Retry-After, never 500; retried with their Idempotency-Key, none is lost or stored twice", async () => {
    const slug = uniqueSlug("restart");
    const startOf = (index: number) => new Date(Date.UTC(2026, 0, 1) + index * 60_000);
    const bodies = new Map<string, { p95: number; startedAt: Date }>();
    const answers: Answer[] = [];
    const send = async (key: string) => {
      const { p95, startedAt } = bodies.get(key)!;
      const answer = await upload(slug, key, p95, startedAt);
      answers.push(answer);
      return answer;
    };
    bodies.set("first", { p95: 20, startedAt: startOf(0) });
    expect((await send("first")).status).toBe(201);

    // 8 uploaders, each uploading one run after another from before the restart until after it, then
    // sending again, same key and body, each upload whose answer was not a success (as a client would).
    let stopping = false;
    let sequence = 1;
    const lastAnswer = new Map<string, Answer>();
    const uploaders = Array.from({ length: 8 }, async (_, uploader) => {
      const keys: string[] = [];
      for (let i = 0; !stopping; i++) {
        const key = `u${uploader}-${i}`;
        keys.push(key);
        bodies.set(key, { p95: 20 + (sequence % 7) / 10, startedAt: startOf(sequence++) });
        const answer = await send(key);
        lastAnswer.set(key, answer);
        if (answer.status >= 300) await sleep(250); // a client backs off (Retry-After asks for 5 s: too long here)
      }
      for (const key of keys) {
        for (let attempt = 0; attempt < 20 && lastAnswer.get(key)!.status >= 300; attempt++) {
          await sleep(250);
          lastAnswer.set(key, await send(key));
        }
      }
    });
    // Three restarts, so that some land inside a transaction, some between its last query and its commit.
    for (let restart = 0; restart < 3; restart++) {
      await sleep(1_500);
      await cluster.restart();
    }
    await sleep(1_500);
    stopping = true;
    await Promise.all(uploaders);

    const wrong = answers.filter((answer) => !(answer.status < 300 || (answer.status === 503 && answer.retryAfter !== null)));
    expect({
      wrongAnswers: wrong.map(({ status, retryAfter, body }) => ({ status, retryAfter, body })),
      unhandledErrors: rejections.map(String),
    }).toEqual({ wrongAnswers: [], unhandledErrors: [] });
    expect([...lastAnswer.values()].filter((answer) => answer.status >= 300)).toEqual([]);
    expect(answers.some((answer) => answer.status === 503)).toBe(true); // the restart was seen
    console.info(
      `database-restart: ${answers.length} answers: ${answers.filter((a) => a.status < 300).length} 2xx, ${answers.filter((a) => a.status === 503).length} 503`,
    );

    const db = (await getDatabase()).prisma;
    const runs = await db.run.findMany({ where: { project: { slug } }, select: { idempotencyKey: true } });
    expect(runs.map((run) => run.idempotencyKey).sort()).toEqual([...bodies.keys()].sort());
  }, 90_000);

  it("runs a job that was active during the restart again, to completion, within a minute of the database's return", async () => {
    const slug = uniqueSlug("rollups");
    const json = { "content-type": "application/json" };
    const created = await call(createProject, "/api/v1/projects", {}, { method: "POST", headers: json, body: JSON.stringify({ slug, name: slug }) });
    expect(created.status).toBe(201);
    const db = worker.prisma;
    const project = await db.project.findUniqueOrThrow({ where: { slug }, select: { id: true } });
    const jobSchema = queue.schema;
    const jobState = async () =>
      (
        await db.$queryRawUnsafe<{ state: string }[]>(
          `SELECT state::text FROM ${jobSchema}.job WHERE name = 'refresh-rollups' AND data->>'projectId' = $1
           UNION ALL SELECT state::text FROM ${jobSchema}.archive WHERE name = 'refresh-rollups' AND data->>'projectId' = $1`,
          project.id,
        )
      ).map((row) => row.state);

    // The project's rollup lock, held by another session: the upload's rollup job, once a worker takes
    // it, waits inside its transaction until the restart ends that session and the job's own.
    const holder = new pg.Client({ connectionString: cluster.url() });
    holder.on("error", () => undefined); // the restart ends its session: expected
    try {
      await holder.connect();
      await holder.query("BEGIN");
      await holder.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`trend-rollups:${project.id}`]);
      expect((await upload(slug, "only", 20, new Date(Date.UTC(2026, 0, 1)))).status).toBe(201);
      const waiting = async () =>
        (
          await db.$queryRaw<{ waiting: number }[]>`
            SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`
        )[0]!.waiting > 0;
      expect(await waitFor(async () => (await jobState()).includes("active") && (await waiting()), 20_000)).toBe(true);

      await cluster.restart();
      const backAt = Date.now();
      const completed = await waitFor(async () => (await jobState()).includes("completed"), 75_000);
      const elapsedSeconds = (Date.now() - backAt) / 1000;
      expect({ completed, states: await jobState(), unhandledErrors: rejections.map(String) }).toEqual({
        completed: true,
        states: ["completed"],
        unhandledErrors: [],
      });
      expect(elapsedSeconds).toBeLessThan(60);
      expect(await db.$queryRaw<unknown[]>`SELECT 1 FROM trend_rollup_pending WHERE project_id = ${project.id}`).toEqual([]);
    } finally {
      await holder.end().catch(() => undefined);
    }
  }, 120_000);
});
