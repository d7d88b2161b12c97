import { createServer } from "node:http";
import type { IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "../db";
import type { PrismaClient } from "../generated/prisma/client";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../testing/databases";
import { runQueuedJobs } from "../jobs/worker";
import type { RegressionWebhookPayload } from "../schemas/webhooks";
import { jobQueueOf, type JobQueue } from "./job-queue";
import { getWebhookSettings } from "./webhook-settings";
import { queueRegressionWebhooks, type WebhookAttemptOptions } from "./webhooks";

// The receivers below listen on 127.0.0.1, which webhooks may only reach when allowed (SSRF guard).
process.env.BENCHTRACK_WEBHOOK_ALLOWED_HOSTS = "127.0.0.1";

const BASE_URL = "http://bench.test";

interface Receiver {
  url: string;
  requests: { method: string; path: string; headers: IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

/**
 * A real HTTP receiver on 127.0.0.1: answers the given statuses in turn, then 200. A status of 0
 * never answers (to test the timeout).
 */
async function startReceiver(statuses: number[] = []): Promise<Receiver> {
  const requests: Receiver["requests"] = [];
  const queue = [...statuses];
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      requests.push({ method: request.method ?? "", path: request.url ?? "", headers: request.headers, body });
      const status = queue.shift() ?? 200;
      if (status === 0) return; // hang: the client's timeout must end it
      response.writeHead(status, { "content-type": "text/plain" });
      response.end(status === 200 ? "ok" : status === 400 ? "invalid_payload" : "upstream trouble");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/T000/secret-token`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A URL nobody listens on: a port that was just free. */
async function closedPortUrl(): Promise<string> {
  const receiver = await startReceiver();
  await receiver.close();
  return receiver.url;
}

interface Seeded {
  projectId: string;
  slug: string;
  regressionId: string;
  firstRunId: string;
  earlierRunIds: string[];
}

/** A project with six runs on main, the last one opening a p95 regression of one endpoint. */
async function seedRegression(db: PrismaClient, webhookUrl: string | null, name = "Listings API"): Promise<Seeded> {
  const slug = uniqueSlug("hook");
  const project = await db.project.create({ data: { slug, name, webhookUrl }, select: { id: true } });
  const endpoint = await db.endpoint.create({
    data: { projectId: project.id, name: "GET /api/listings/:id" },
    select: { id: true },
  });
  const runIds: string[] = [];
  for (let day = 0; day < 6; day++) {
    const run = await db.run.create({
      data: {
        projectId: project.id,
        tool: "k6",
        format: "k6-summary",
        label: "nightly",
        gitBranch: "main",
        gitCommit: `9f1c2e7a${day}b3c4d5e6`,
        startedAt: new Date(Date.UTC(2025, 10, 10 + day, 9)),
      },
      select: { id: true },
    });
    runIds.push(run.id);
  }
  const firstRunId = runIds[5]!;
  const regression = await db.regression.create({
    data: {
      projectId: project.id,
      endpointId: endpoint.id,
      metric: "p95",
      kind: "regression",
      firstRunId,
      beforeValue: 12.3,
      afterValue: 15.2,
      deltaPct: 23.58,
      pValue: 0.0004,
    },
    select: { id: true },
  });
  return {
    projectId: project.id,
    slug,
    regressionId: regression.id,
    firstRunId,
    earlierRunIds: runIds.slice(0, 5).reverse(),
  };
}

const deliveriesOf = (db: PrismaClient, projectId: string) =>
  db.webhookDelivery.findMany({ where: { projectId }, orderBy: { createdAt: "asc" } });

describe.each(testDatabaseTargets())("webhook delivery jobs on $name", ({ target }) => {
  let database: Database;
  let db: PrismaClient;
  let queue: JobQueue;
  /**
   * Records the deliveries and enqueues their jobs (as detection does), then runs the queue until it is
   * empty, retries at once (their backoff skipped): the attempts a worker would make over ~40 minutes.
   */
  const deliver = async (regressionIds: string[], webhook: WebhookAttemptOptions = {}) => {
    await db.$transaction((tx) => queueRegressionWebhooks(tx, queue, regressionIds, BASE_URL));
    return runQueuedJobs({ db, queue, webhook }, { ignoreStartAfter: true });
  };
  const receivers: Receiver[] = [];
  const receiver = async (statuses?: number[]) => {
    const started = await startReceiver(statuses);
    receivers.push(started);
    return started;
  };

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
    db = database.prisma;
    queue = await jobQueueOf(database);
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(receivers.splice(0).map((started) => started.close()));
  });

  afterAll(async () => {
    await database.close();
  });

  it("POSTs the payload as JSON and records a delivery delivered on the first attempt", async () => {
    const hook = await receiver();
    const seeded = await seedRegression(db, hook.url);
    expect(await deliver([seeded.regressionId])).toEqual({ completed: 1, failed: 0 });

    expect(hook.requests).toHaveLength(1);
    const [request] = hook.requests;
    expect(request!.method).toBe("POST");
    expect(request!.path).toBe("/hooks/T000/secret-token");
    expect(request!.headers["content-type"]).toBe("application/json");
    const payload = JSON.parse(request!.body) as RegressionWebhookPayload;
    expect(payload).toMatchObject({
      event: "regression.opened",
      project: { slug: seeded.slug, name: "Listings API" },
      regression: {
        id: seeded.regressionId,
        kind: "regression",
        endpoint: "GET /api/listings/:id",
        metric: "p95",
        before: 12.3,
        after: 15.2,
        deltaPct: 23.58,
        pValue: 0.0004,
        firstRunId: seeded.firstRunId,
        firstRun: { label: "nightly", branch: "main", commit: "9f1c2e7a5b3c4d5e6" },
        url: `${BASE_URL}/projects/${seeded.slug}/regressions#regression-${seeded.regressionId}`,
        // One URL builder (server/domain/urls.ts): run-id lists keep their commas literal.
        compareUrl: `${BASE_URL}/projects/${seeded.slug}/compare?base=${seeded.earlierRunIds.join(",")}&head=${seeded.firstRunId}`,
      },
    });
    // The links are the regression inbox's own (regressionLinks): the trend opens on the endpoint.
    expect(
      payload.regression.trendUrl.startsWith(
        `${BASE_URL}/projects/${seeded.slug}/endpoints/GET%20%2Fapi%2Flistings%2F%3Aid`,
      ),
    ).toBe(true);
    expect(payload.regression.firstRun.url).toBe(`${BASE_URL}/projects/${seeded.slug}/runs/${seeded.firstRunId}`);
    expect(payload.text).toMatch(
      /^Regression in Listings API: p95 of GET \/api\/listings\/:id \+23\.6% \(12\.3 ms → 15\.2 ms, p < 0\.001\)/,
    );
    expect(payload.text).toContain(`<${payload.regression.url}|Open in Benchtrack>`);

    const [delivery, ...others] = await deliveriesOf(db, seeded.projectId);
    expect(others).toEqual([]);
    expect(delivery).toMatchObject({
      regressionId: seeded.regressionId,
      url: hook.url,
      attempts: 1,
      lastStatus: 200,
      lastError: null,
    });
    expect(delivery!.deliveredAt).toBeInstanceOf(Date);
    expect(delivery!.payload).toEqual(payload);
  });

  it("retries 5xx answers: 500, 500, then 200 is delivered on the third attempt (two failed jobs retried)", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const hook = await receiver([500, 500]);
    const seeded = await seedRegression(db, hook.url);
    expect(await deliver([seeded.regressionId])).toEqual({ completed: 1, failed: 2 });

    expect(hook.requests).toHaveLength(3);
    expect(new Set(hook.requests.map((request) => request.body)).size).toBe(1); // the same body every time
    const [delivery] = await deliveriesOf(db, seeded.projectId);
    expect(delivery).toMatchObject({ attempts: 3, lastStatus: 200, lastError: null });
    expect(delivery!.deliveredAt).not.toBeNull();
  });

  it("gives up after 9 attempts (8 retries) when the receiver is down: the job fails, the delivery says why", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const url = await closedPortUrl();
    const seeded = await seedRegression(db, url);
    expect(await deliver([seeded.regressionId])).toEqual({ completed: 0, failed: 9 });

    const [delivery] = await deliveriesOf(db, seeded.projectId);
    expect(delivery).toMatchObject({ attempts: 9, lastStatus: null, deliveredAt: null });
    expect(delivery!.lastError).toMatch(/ECONNREFUSED/);
    const [job] = await db.$queryRawUnsafe<{ state: string; retry_count: number }[]>(
      `SELECT state, retry_count FROM ${queue.schema}.job WHERE name = 'deliver-webhook' AND data->>'deliveryId' = $1`,
      delivery!.id,
    );
    expect(job).toEqual({ state: "failed", retry_count: 8 });
    // The log names the project and the receiver's origin, never the URL's secret path.
    const logged = warn.mock.calls.flat().join(" ");
    expect(logged).toContain(seeded.slug);
    expect(logged).not.toContain("secret-token");
  });

  it("does not retry a 4xx answer, and never keeps the receiver's body", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const hook = await receiver([400]);
    const seeded = await seedRegression(db, hook.url);
    expect(await deliver([seeded.regressionId])).toEqual({ completed: 1, failed: 0 });

    expect(hook.requests).toHaveLength(1);
    const [delivery] = await deliveriesOf(db, seeded.projectId);
    expect(delivery).toMatchObject({
      attempts: 1,
      lastStatus: 400,
      lastError: "HTTP 400",
      deliveredAt: null,
    });
  });

  it("times out a receiver that never answers, and retries it", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const hook = await receiver([0, 0]);
    const seeded = await seedRegression(db, hook.url);
    expect(await deliver([seeded.regressionId], { timeoutMs: 200 })).toEqual({ completed: 1, failed: 2 });

    // Two attempts time out; the third is answered (the receiver answers 200 once its list is used up).
    expect(hook.requests).toHaveLength(3);
    const [delivery] = await deliveriesOf(db, seeded.projectId);
    expect(delivery).toMatchObject({ attempts: 3, lastStatus: 200, lastError: null });
  });

  it("sends nothing for a project without a webhook URL, and nothing is sent to a non-http(s) URL", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const silent = await seedRegression(db, null);
    const ftp = await seedRegression(db, "ftp://example.com/hook");
    await deliver([silent.regressionId, ftp.regressionId]);

    expect(await deliveriesOf(db, silent.projectId)).toEqual([]);
    const [delivery] = await deliveriesOf(db, ftp.projectId);
    expect(delivery).toMatchObject({ attempts: 1, lastStatus: null, deliveredAt: null });
    expect(delivery!.lastError).toMatch(/not an http\(s\) URL/);
  });

  it("delivers each regression of a batch, and the delivery log lists them newest first", async () => {
    const hook = await receiver();
    const seeded = await seedRegression(db, hook.url);
    const second = await db.regression.create({
      data: {
        projectId: seeded.projectId,
        metric: "throughput",
        kind: "regression",
        firstRunId: seeded.firstRunId,
        beforeValue: 120,
        afterValue: 90,
        deltaPct: -25,
      },
      select: { id: true },
    });
    await deliver([seeded.regressionId, second.id]);

    // One job each: the queue may run them in either order (or on two replicas at once).
    const sent = hook.requests.map((request) => JSON.parse(request.body) as RegressionWebhookPayload);
    expect(sent.map((payload) => payload.regression.id).sort()).toEqual([seeded.regressionId, second.id].sort());
    const throughput = sent.find((payload) => payload.regression.id === second.id)!;
    expect(throughput.text).toContain("throughput of all endpoints −25.0% (120 req/s → 90.00 req/s)");
    const settings = await getWebhookSettings(db, { id: seeded.projectId, webhookUrl: hook.url });
    expect(settings.url).toBe(hook.url);
    expect(settings.deliveries.map((delivery) => delivery.regressionId)).toEqual([second.id, seeded.regressionId]);
    expect(settings.deliveries[0]).toEqual({
      id: expect.any(String),
      regressionId: second.id,
      url: hook.url,
      attempts: 1,
      lastStatus: 200,
      lastError: null,
      deliveredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it("never sends a delivery twice: one already delivered is done, one whose project is gone is dropped", async () => {
    const hook = await receiver();
    const seeded = await seedRegression(db, hook.url);
    await deliver([seeded.regressionId]);
    const [delivery] = await deliveriesOf(db, seeded.projectId);
    // The same job run again (its worker died after sending, before the queue heard it was done).
    await queue.send("deliver-webhook", { deliveryId: delivery!.id, projectId: seeded.projectId });
    expect(await runQueuedJobs({ db, queue }, {})).toEqual({ completed: 1, failed: 0 });
    expect(hook.requests).toHaveLength(1);
    await db.project.delete({ where: { id: seeded.projectId } });
    await queue.send("deliver-webhook", { deliveryId: delivery!.id, projectId: seeded.projectId });
    expect(await runQueuedJobs({ db, queue }, {})).toEqual({ completed: 1, failed: 0 });
    expect(hook.requests).toHaveLength(1);
  });
});
