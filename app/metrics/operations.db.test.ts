import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { GET as ready } from "@/app/api/ready/route";
import { GET as trpc } from "@/app/api/trpc/[trpc]/route";
import { GET as readRun } from "@/app/api/v1/projects/[project]/runs/[id]/route";
import { POST as upload } from "@/app/api/v1/projects/[project]/runs/route";
import { POST as mintShareLink } from "@/app/api/v1/projects/[project]/share-links/route";
import { closeDb, getDatabase } from "@/server/db";
import { SESSION_COOKIE } from "@/server/domain/share";
import { rereadEnv } from "@/server/env";
import { startBackgroundWork } from "@/server/jobs/worker";
import { sealSession } from "@/server/services/access/sessions";
import { JOB_NAMES, captureLogLines, markWorkers, resetLogger } from "@/server/services/platform";
import { uniqueSlug } from "@/server/testing/databases";
import { call, TEST_ADMIN_TOKEN, setUpRouteTestDatabase } from "@/server/testing/rest-client";
import { createProjectThroughApi, mintProjectToken } from "@/server/testing/seed";
import { GET as metrics } from "./route";

// Issue 39, items 1-3: the probes, GET /metrics and the request log, through the real route handlers
// on the database the environment names (embedded, and PostgreSQL with DATABASE_URL). A private server
// (read token set), so a share link is a caller of its own.
const METRICS_TOKEN = "metrics-token-0123456789abcdef";
const READ_TOKEN = "ops-read-token-0123456789";
const FIXTURE = path.resolve(import.meta.dirname, "../../server/domain/parsers/fixtures/k6/baseline/round1/summary.json");

setUpRouteTestDatabase({ BENCHTRACK_METRICS_TOKEN: METRICS_TOKEN, BENCHTRACK_READ_TOKEN: READ_TOKEN, BENCHTRACK_WORKERS: "false", BENCHTRACK_LOG_FORMAT: "json" });

afterAll(() => {
  // Test files share their worker's process: what this file started is not left behind for the next.
  markWorkers("not-started");
  resetLogger();
});

const slug = uniqueSlug("ops");
beforeAll(async () => {
  await createProjectThroughApi(slug);
});

type Handler = (request: Request, context: { params: Promise<never> }) => Promise<Response>;
const get = (handler: Handler, url: string, headers: Record<string, string> = {}) =>
  handler(new Request(`http://localhost${url}`, { headers }), { params: Promise.resolve({}) as Promise<never> });

async function uploadFixture(token: string | null, query: Record<string, string> = {}) {
  return call(upload, `/api/v1/projects/${slug}/runs`, { project: slug }, { method: "POST", body: readFileSync(FIXTURE), token, query: { label: "nightly", ...query } });
}

/** The value of one sample of the metrics text (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text
    .split("\n")
    .find((candidate) => candidate.startsWith(`${name}{`) && wanted.every((label) => candidate.includes(label)));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(" ") + 1));
}

async function scrape(token = TEST_ADMIN_TOKEN): Promise<string> {
  const response = await call(metrics, "/metrics", {}, { token });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

describe("GET /api/health", () => {
  it("answers 200 with the version and uptime, open to anyone on a private server", async () => {
    const response = await call(health, "/api/health", {}, { token: null });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { status: string; version: string; uptimeSeconds: number };
    expect(body).toEqual({ status: "ok", version: expect.stringMatching(/^\d+\.\d+\.\d+/) as unknown, uptimeSeconds: expect.any(Number) as unknown });
  });
});

describe("GET /api/ready", () => {
  it("is ready on a migrated database with the workers disabled, and says they are", async () => {
    const response = await call(ready, "/api/ready", {}, { token: null });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: "ready",
      checks: {
        database: { ok: true, status: "ok" },
        migrations: { ok: true, status: "ok" },
        jobs: { ok: true, status: "disabled", reason: "BENCHTRACK_WORKERS=false: another process runs the jobs" },
        shutdown: { ok: true, status: "running" },
      },
    });
  });

  it("is not ready while the workers of a worker process have not started, and ready once they run", async () => {
    process.env.BENCHTRACK_WORKERS = "true";
    rereadEnv();
    try {
      const before = await call(ready, "/api/ready", {}, { token: null });
      expect(before.status).toBe(503);
      expect(((await before.json()) as { checks: { jobs: unknown } }).checks.jobs).toEqual({
        ok: false,
        status: "not-started",
        reason: "the job workers have not started in this process",
      });
      await startBackgroundWork();
      const after = await call(ready, "/api/ready", {}, { token: null });
      expect(((await after.json()) as { checks: { jobs: unknown } }).checks.jobs).toEqual({ ok: true, status: "running" });
      expect(after.status).toBe(200);
    } finally {
      // Closing the database stops the queue and its workers.
      await closeDb();
      process.env.BENCHTRACK_WORKERS = "false";
      rereadEnv();
    }
  });

  it("answers 503 naming the database when it cannot be reached, and nothing of its address", async () => {
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = "postgres://secret-user:secret-password@127.0.0.1:1/benchtrack_nowhere";
    rereadEnv();
    await closeDb();
    try {
      const response = await call(ready, "/api/ready", {}, { token: null });
      expect(response.status).toBe(503);
      const text = await response.text();
      expect(JSON.parse(text)).toMatchObject({
        status: "not_ready",
        checks: {
          database: { ok: false, status: "unreachable", reason: "error DatabaseNotReachable" },
          migrations: { ok: false, status: "unknown", reason: "the database is unreachable" },
        },
      });
      for (const secret of ["secret-user", "secret-password", "127.0.0.1", "benchtrack_nowhere"]) expect(text).not.toContain(secret);
    } finally {
      await closeDb();
      if (saved === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved;
      rereadEnv();
    }
  });
});

describe("GET /metrics", () => {
  it("refuses a caller without the admin token or the metrics token (401), whatever else it holds", async () => {
    const projectToken = await mintProjectToken(slug);
    for (const token of [null, "wrong-token-0123456789", READ_TOKEN, projectToken]) {
      const response = await call(metrics, "/metrics", {}, { token });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    }
    // A signed-in browser is not a scraper either.
    const session = await get(metrics, "/metrics", { cookie: `${SESSION_COOKIE}=${await sealSession("admin")}` });
    expect(session.status).toBe(401);
  });

  it("counts an upload by its format and outcome, and the request under its route template", async () => {
    const before = await scrape(METRICS_TOKEN);
    const stored = await uploadFixture(TEST_ADMIN_TOKEN, { "attr.case": "metrics" });
    expect(stored.status).toBe(201);
    const refused = await uploadFixture(null, { format: "k6" });
    expect(refused.status).toBe(401);
    const after = await scrape(METRICS_TOKEN);
    const delta = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    // The format detected (a k6 summary), as the answer names it.
    const { format } = (await stored.json()) as { format: string };
    expect(format).toMatch(/^k6/);
    expect(delta("benchtrack_uploads_total", { format, outcome: "stored", status_class: "2xx" })).toBe(1);
    expect(delta("benchtrack_uploads_total", { format: "k6", outcome: "refused", status_class: "4xx" })).toBe(1);
    expect(delta("benchtrack_gate_outcomes_total", { outcome: "inconclusive" })).toBe(1);
    const runs = { route: "/api/v1/projects/[project]/runs", method: "POST" };
    expect(delta("benchtrack_http_request_duration_seconds_count", { ...runs, status: "201" })).toBe(1);
    expect(delta("benchtrack_http_request_duration_seconds_count", { ...runs, status: "401" })).toBe(1);
    // Never the path itself: the slug appears in no label.
    expect(after).not.toContain(slug);
    // Read at scrape time: the rollup refresh the upload queued waits (no worker runs here); every queue has its line.
    expect(sample(after, "benchtrack_job_queue_depth", { queue: "refresh-rollups" })).toBeGreaterThanOrEqual(1);
    for (const queue of JOB_NAMES) expect(after).toMatch(new RegExp(`^benchtrack_job_queue_oldest_age_seconds\\{queue="${queue}"\\} \\d`, "m"));
    const database = await getDatabase();
    if (database.target.kind === "postgres") expect(after).toMatch(/^benchtrack_db_pool_connections\{pool="primary"\} [1-9]/m);
    else expect(after).not.toContain("benchtrack_db_pool_connections{");
    expect(after).toMatch(/^benchtrack_process_cpu_seconds_total \d/m);
  });
});

describe("request ids", () => {
  it("echoes a sane X-Request-Id and replaces any other, on REST, tRPC and the probes", async () => {
    const handlers: [string, Handler, string][] = [
      ["health", health, "/api/health"],
      ["trpc", trpc, "/api/trpc/project.list"],
      ["rest", readRun, `/api/v1/projects/${slug}/runs/nope`],
    ];
    for (const [, handler, url] of handlers) {
      const echoed = await get(handler, url, { "x-request-id": "ci-run:42.a_b-c" });
      expect(echoed.headers.get("x-request-id")).toBe("ci-run:42.a_b-c");
      for (const insane of ["x".repeat(129), "a b", "<script>", "a/b", ""]) {
        const replaced = await get(handler, url, { "x-request-id": insane });
        expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      }
      expect((await get(handler, url)).headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe("the request log", () => {
  it("writes one line per request with its caller's kind, and never a token, a cookie or a share link", async () => {
    const projectToken = await mintProjectToken(slug, "log-test");
    const first = await uploadFixture(TEST_ADMIN_TOKEN, { "attr.case": "log" });
    const runId = ((await first.json()) as { id: string }).id;
    const minted = await call(mintShareLink, `/api/v1/projects/${slug}/share-links`, { project: slug }, { method: "POST", body: JSON.stringify({ run: runId }) });
    expect(minted.status).toBe(201);
    const shareId = ((await minted.json()) as { url: string }).url.split("/").pop()!;
    const session = await sealSession("read");

    const capture = captureLogLines();
    let lines: string[];
    try {
      expect((await uploadFixture(projectToken, { "attr.case": "log-token" })).status).toBe(201);
      expect((await uploadFixture(TEST_ADMIN_TOKEN, { "attr.case": "log-admin" })).status).toBe(201);
      const shared = await call(readRun, `/api/v1/projects/${slug}/runs/${runId}`, { project: slug, id: runId }, { token: null, query: { share: shareId } });
      expect(shared.status).toBe(200);
      const bySession = await get(trpc, "/api/trpc/project.list", { cookie: `${SESSION_COOKIE}=${session}`, "x-request-id": "log-session" });
      expect(bySession.status).toBe(200);
      expect((await call(metrics, "/metrics", {}, { token: METRICS_TOKEN })).status).toBe(200);
    } finally {
      lines = capture.stop();
    }
    const requests = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === "request");
    expect(requests.map((line) => [line.method, line.route, line.status, line.caller])).toEqual([
      ["POST", "/api/v1/projects/[project]/runs", 201, "project-token"],
      ["POST", "/api/v1/projects/[project]/runs", 201, "admin"],
      ["GET", "/api/v1/projects/[project]/runs/[id]", 200, "share"],
      ["GET", "/api/trpc/[trpc]", 200, "session"],
      ["GET", "/metrics", 200, "metrics-token"],
    ]);
    for (const line of requests) {
      expect(line).toMatchObject({ level: 30, durationMs: expect.any(Number) as unknown, requestId: expect.any(String) as unknown });
    }
    expect(requests[3]!.requestId).toBe("log-session");
    expect(requests[2]!.path).toBe(`/api/v1/projects/${slug}/runs/${runId}`);
    const text = lines.join("");
    for (const secret of [TEST_ADMIN_TOKEN, projectToken, shareId, session, METRICS_TOKEN, READ_TOKEN]) expect(text).not.toContain(secret);
  });
});
