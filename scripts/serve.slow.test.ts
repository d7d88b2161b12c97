import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseTarget } from "../server/db";
import { migrateDatabase } from "../server/migrate/apply";
import { uniqueSlug } from "../server/testing/databases";
import { buildApp, isBuildCurrent, ROOT } from "./lib/build";

/**
 * A stop of the real production server (issue 39, item 4): `node --import tsx scripts/start.ts` (what
 * `npm start` runs: build if needed, migrate, then scripts/serve.ts) on a port of its own, 8 uploaders sending real
 * fixture files with an Idempotency-Key over keep-alive connections, a large upload sent slowly, and
 * SIGTERM in the middle. Then: no answer was a 500; the slow upload, begun before the signal, got its
 * 201; the process exited 0 within BENCHTRACK_SHUTDOWN_TIMEOUT_SECONDS; every upload that got no 201
 * (refused connection, reset, 503), sent again with its key to a restarted server, is stored, and every
 * key is stored exactly once; no job was left taken; and (embedded) the database was shut down cleanly.
 * The build is made once if the sources changed (as `npm start` would: minutes), outside the timing.
 */
const PORT = 3652;
const BASE_URL = `http://127.0.0.1:${PORT}`;
const ADMIN_TOKEN = "shutdown-test-admin-token-0123456789";
const LIMIT_SECONDS = 15;
const FIXTURES = "/work/shared/fixtures";
/** Small real files the uploaders send in turn (each upload its own key, so its own run). */
const FILES = [
  "k6/baseline/round1/summary.json",
  "k6/baseline/round2/summary.json",
  "k6/managedasync/round1/summary.json",
  "autocannon/baseline/round1/autocannon.json",
  "vegeta/baseline/round1/report.json",
  "hey/baseline/csv/hey.csv",
].map((file) => readFileSync(path.join(FIXTURES, file)));
/** A large real file (550 KB of k6 NDJSON points), sent slowly across the signal. */
const SLOW_FILE = readFileSync(path.join(FIXTURES, "k6/baseline/short-ndjson/points.ndjson"));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Server {
  child: ChildProcess;
  output: string[];
  exited: Promise<{ code: number | null; at: number }>;
}

/** `npm start`'s process (scripts/start.ts), ready once it prints its URL. */
async function startServer(env: Record<string, string>): Promise<Server> {
  // Without vitest's NODE_ENV ("test"): a shell running npm start has none.
  const { NODE_ENV: _testNodeEnv, ...inherited } = process.env;
  const childEnv = { ...inherited, ...env } as NodeJS.ProcessEnv;
  // As a container runs it (docs/operations.md): node itself receives the signal, no npm or shell between.
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: ROOT,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.on("exit", (code) => resolve({ code, at: Date.now() })));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output.join("")}`)), 120_000);
    const read = (chunk: Buffer) => {
      output.push(chunk.toString());
      if (output.join("").includes("Benchtrack is running at")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    void exited.then(({ code }) => reject(new Error(`the server exited (${code}) before it was ready:\n${output.join("")}`)));
  });
  return { child, output, exited };
}

/** An upload's outcome: its status, or the error code of a connection refused or cut. */
type Outcome = { status: number; connection: string | null } | { error: string };

async function upload(slug: string, key: string, body: Buffer): Promise<Outcome> {
  try {
    const response = await fetch(`${BASE_URL}/api/v1/projects/${slug}/runs?branch=main`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "idempotency-key": key },
      body: new Uint8Array(body),
    });
    await response.arrayBuffer();
    return { status: response.status, connection: response.headers.get("connection") };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return { error: cause?.code ?? String(error) };
  }
}

/** The large upload, written in 50 pieces over `durationMs` on a connection of its own. */
function uploadSlowly(slug: string, key: string, durationMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(
      `${BASE_URL}/api/v1/projects/${slug}/runs?branch=main`,
      { method: "POST", headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "idempotency-key": key, "content-length": SLOW_FILE.length } },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection ?? null }));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    const pieces = 50;
    const size = Math.ceil(SLOW_FILE.length / pieces);
    void (async () => {
      for (let piece = 0; piece < pieces; piece++) {
        req.write(SLOW_FILE.subarray(piece * size, (piece + 1) * size));
        await sleep(durationMs / pieces);
      }
      req.end();
    })();
  });
}

/** PGlite's pg_control: DBState at byte 16 (1: shut down cleanly, 6: in production, i.e. needs recovery). */
function controlState(dataDir: string): number {
  return readFileSync(path.join(dataDir, "pglite", "global", "pg_control")).readInt32LE(16);
}

const targets: { name: string; target: DatabaseTarget; env: Record<string, string> }[] = [];
const databaseUrl = process.env.DATABASE_URL?.trim();
if (databaseUrl) {
  // A job queue of this file's own: other files' workers on the same database never take its jobs.
  const jobSchema = `pgboss_shutdown_${randomUUID().slice(0, 8)}`;
  targets.push({ name: "PostgreSQL", target: { kind: "postgres", url: databaseUrl }, env: { DATABASE_URL: databaseUrl, BENCHTRACK_JOB_SCHEMA: jobSchema } });
}
const dataDir = mkdtempSync(path.join(os.tmpdir(), "benchtrack-shutdown-"));
targets.push({ name: "embedded (PGlite, on disk)", target: { kind: "embedded", dataDir }, env: { DATABASE_URL: "", BENCHTRACK_DATA_DIR: dataDir, BENCHTRACK_JOB_SCHEMA: "pgboss" } });

beforeAll(async () => {
  if (!isBuildCurrent()) buildApp();
  // The embedded folder starts migrated, as npm start would make it (server/migrate/template.ts).
  await migrateDatabase({ kind: "embedded", dataDir });
}, 900_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe.each(targets)("SIGTERM to npm start on $name", ({ target, env }) => {
  it("drains: no 500, the slow upload answered 201, exit 0 within the limit, every upload stored exactly once", async () => {
    const serverEnv = {
      ...env,
      PORT: String(PORT),
      BENCHTRACK_ADMIN_TOKEN: ADMIN_TOKEN,
      BENCHTRACK_RATE_UPLOADS_PER_MINUTE: "0",
      BENCHTRACK_SHUTDOWN_TIMEOUT_SECONDS: String(LIMIT_SECONDS),
    };
    const testStartedAt = Date.now();
    const first = await startServer(serverEnv);
    const startSeconds = (Date.now() - testStartedAt) / 1000;
    const slug = uniqueSlug("shutdown");
    const created = await fetch(`${BASE_URL}/api/v1/projects`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ slug }),
    });
    expect(created.status).toBe(201);
    // One upload first: the first of a fresh server loads its routes, the parsers and the gate.
    expect(await upload(slug, "warm-up", FILES[0]!)).toMatchObject({ status: 201 });

    // 8 uploaders, one upload after another, until the server refuses their connection.
    const bodies = new Map<string, Buffer>();
    const outcomes = new Map<string, Outcome>();
    let signalAt = 0;
    let isGone = false;
    const uploaders = Array.from({ length: 8 }, async (_, uploader) => {
      for (let i = 0; !isGone; i++) {
        const key = `u${uploader}-${i}`;
        bodies.set(key, FILES[(uploader + i) % FILES.length]!);
        const outcome = await upload(slug, key, bodies.get(key)!);
        outcomes.set(key, outcome);
        if ("error" in outcome && outcome.error === "ECONNREFUSED") isGone = true;
        if (!("error" in outcome) && outcome.status >= 300) await sleep(100);
      }
    });
    // The signal comes mid-stream: once 16 uploads were answered, and 1.5 s into the slow upload.
    for (let waited = 0; [...outcomes.values()].filter((outcome) => "status" in outcome).length < 16 && waited < 30_000; waited += 100) {
      await sleep(100);
    }
    const slowStartedAt = Date.now();
    bodies.set("slow", SLOW_FILE);
    const slow = uploadSlowly(slug, "slow", 4_000);
    await sleep(1_500);
    const answeredBefore = [...outcomes.values()].filter((outcome) => "status" in outcome && outcome.status === 201).length;
    signalAt = Date.now();
    first.child.kill("SIGTERM");
    const [exit, slowOutcome] = await Promise.all([first.exited, slow, Promise.race([Promise.all(uploaders), sleep(60_000)])]);
    isGone = true;
    outcomes.set("slow", slowOutcome);
    const exitSeconds = (exit.at - signalAt) / 1000;
    const log = first.output.join("");

    // Every key that got no 201, sent again (same key, same body) to a restarted server.
    const second = await startServer(serverEnv);
    const retried = new Map<string, Outcome>();
    for (const [key, outcome] of outcomes) {
      if ("status" in outcome && outcome.status === 201) continue;
      retried.set(key, await upload(slug, key, bodies.get(key)!));
    }
    second.child.kill("SIGTERM");
    const secondExit = await second.exited;

    // What the database holds, read once no server runs.
    const cleanState = target.kind === "embedded" ? controlState(target.dataDir) : null;
    const database = await openDatabase(target, { jobSchema: env.BENCHTRACK_JOB_SCHEMA });
    let stored: { idempotencyKey: string | null; _count: number }[];
    let activeJobs: unknown[];
    try {
      const project = await database.prisma.project.findUniqueOrThrow({ where: { slug }, select: { id: true } });
      stored = (
        await database.prisma.run.groupBy({ by: ["idempotencyKey"], where: { projectId: project.id }, _count: true })
      ).map(({ idempotencyKey, _count }) => ({ idempotencyKey, _count }));
      activeJobs = await database.prisma.$queryRawUnsafe(`SELECT name, id FROM ${env.BENCHTRACK_JOB_SCHEMA}.job WHERE state = 'active'`);
    } finally {
      await database.close();
    }

    const all = [...outcomes.values(), ...retried.values()];
    const describe = (outcome: Outcome) => ("error" in outcome ? outcome.error : String(outcome.status));
    const tally = (list: Outcome[]) => {
      const counts = new Map<string, number>();
      for (const outcome of list) counts.set(describe(outcome), (counts.get(describe(outcome)) ?? 0) + 1);
      return [...counts].map(([what, count]) => `${what}: ${count}`).join(", ");
    };
    console.info(
      `${target.kind}: ${outcomes.size} uploads (${answeredBefore} answered 201 before the signal; slow upload of ${SLOW_FILE.length} bytes began ` +
        `${((signalAt - slowStartedAt) / 1000).toFixed(1)} s before it): ${tally([...outcomes.values()])}; retried ${retried.size}: ${tally([...retried.values()])}; ` +
        `stored ${stored.reduce((sum, row) => sum + row._count, 0)} runs for ${stored.length} keys; exit ${exit.code} ${exitSeconds.toFixed(1)} s after SIGTERM ` +
        `(limit ${LIMIT_SECONDS} s); the second server exited ${secondExit.code}; start ${startSeconds.toFixed(1)} s, in all ${((Date.now() - testStartedAt) / 1000).toFixed(1)} s`,
    );

    expect(all.filter((outcome) => "status" in outcome && outcome.status >= 500 && outcome.status !== 503)).toEqual([]);
    expect(slowOutcome).toEqual({ status: 201, connection: "close" });
    expect(log).toMatch(/SIGTERM: stopping/);
    expect(log).toMatch(/Stopped in [\d.]+ s: every request and job finished \(HTTP server, job workers, database\)/);
    expect(exit.code).toBe(0);
    expect(exitSeconds).toBeLessThan(LIMIT_SECONDS);
    expect(secondExit.code).toBe(0);
    // Before the stop, each upload got its 201 or could not get through (refused, cut, 503); after, 201 or 200 (stored before its cut).
    for (const outcome of outcomes.values()) {
      expect("error" in outcome ? ["ECONNREFUSED", "ECONNRESET", "UND_ERR_SOCKET"] : [201, 503]).toContain("error" in outcome ? outcome.error : outcome.status);
    }
    for (const outcome of retried.values()) expect("status" in outcome && [200, 201].includes(outcome.status)).toBe(true);
    // No loss, no duplicate: every key sent is one stored run.
    expect(stored.filter((row) => row._count !== 1)).toEqual([]);
    expect(stored.map((row) => row.idempotencyKey).sort()).toEqual(["warm-up", ...outcomes.keys()].sort());
    expect(activeJobs).toEqual([]);
    if (cleanState !== null) expect(cleanState).toBe(1);
  }, 240_000);
});
