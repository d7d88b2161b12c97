import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startFakeChat, type FakeChat } from "../../../scripts/ci/fake-chat";
import type { Database } from "../../db";
import type { PrismaClient } from "../../generated/prisma/client";
import { runQueuedJobs } from "../../jobs/worker";
import { slackMessageSchema, teamsMessageSchema, webhookPayloadSchema, type WebhookPayload } from "../../schemas/webhooks";
import { openMigratedDatabase, testDatabaseTargets, uniqueSlug } from "../../testing/databases";
import { updateIncidents } from "../incidents/incidents";
import { getJobActivity } from "../projects/job-activity";
import { jobQueueOf, type JobQueue } from "../platform/job-queue";
import { getProjectWebhook, rotateWebhookSecret, updateWebhookSettings } from "./webhook-settings";
import { attemptWebhookDelivery, queueIncidentNotifications, type WebhookAttemptOptions } from "./webhooks";

// Incident notifications end to end on a real database and a real receiver (scripts/ci/fake-chat.ts):
// what is queued, in which format, signed how, retried when, and logged.

// The receivers listen on 127.0.0.1, which webhooks may only reach when allowed (SSRF guard).
process.env.BENCHTRACK_WEBHOOK_ALLOWED_HOSTS = "127.0.0.1";

const BASE_URL = "http://bench.test";
const ADMIN = { kind: "admin" } as const;

interface Seeded {
  projectId: string;
  slug: string;
  incidentId: string;
  regressionId: string;
  firstRunId: string;
  earlierRunIds: string[];
}

/**
 * A project with six runs on main, the last one the first of a step that opened incident #1 with a p95
 * regression of one endpoint (as detection leaves it); its webhook set through the service (which makes
 * the signing secret).
 */
async function seedIncident(db: PrismaClient, webhook: { url: string | null; format?: "json" | "slack" | "teams"; digest?: "off" | "daily" }): Promise<Seeded> {
  const slug = uniqueSlug("hook");
  const project = await db.project.create({ data: { slug, name: "Listings API" }, select: { id: true } });
  if (webhook.url !== null) await updateWebhookSettings(db, ADMIN, slug, { url: webhook.url, format: webhook.format ?? "json", digest: webhook.digest ?? "off" });
  const endpoint = await db.endpoint.create({ data: { projectId: project.id, name: "GET /api/listings/:id" }, select: { id: true } });
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
  const incident = await db.incident.create({
    data: { projectId: project.id, number: 1, firstRunId, detectorVersion: 2, createdAt: new Date("2025-11-15T09:30:00Z") },
    select: { id: true },
  });
  await db.incidentEvent.create({ data: { incidentId: incident.id, by: "detector", toState: "open", at: new Date("2025-11-15T09:30:00Z") } });
  const regression = await db.change.create({
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
      incidentId: incident.id,
    },
    select: { id: true },
  });
  return { projectId: project.id, slug, incidentId: incident.id, regressionId: regression.id, firstRunId, earlierRunIds: runIds.slice(0, 5).reverse() };
}

const deliveriesOf = (db: PrismaClient, projectId: string) => db.webhookDelivery.findMany({ where: { projectId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });

describe.each(testDatabaseTargets())("incident notifications on $name", ({ target }) => {
  let database: Database;
  let db: PrismaClient;
  let queue: JobQueue;
  const chats: FakeChat[] = [];
  const chat = async () => {
    const started = await startFakeChat();
    chats.push(started);
    return started;
  };
  /** Runs the queue until it is empty, retries at once (their backoff skipped): what workers would do over ~40 minutes. */
  const runJobs = (webhook: WebhookAttemptOptions = {}, now?: () => Date) => runQueuedJobs({ db, queue, webhook, ...(now && { now }) }, { ignoreStartAfter: true });
  /** The incident's opening told, as detection tells it. */
  const queueOpened = (seeded: Seeded) =>
    db.$transaction((tx) =>
      queueIncidentNotifications(
        tx,
        queue,
        seeded.projectId,
        [{ incidentId: seeded.incidentId, event: "incident.opened", change: { from: null, to: "open", by: "detector", at: new Date("2025-11-15T09:30:00Z") } }],
        BASE_URL,
      ),
    );
  const secretOf = async (slug: string) => (await getProjectWebhook(db, ADMIN, slug)).secret!;

  beforeAll(async () => {
    database = await openMigratedDatabase(target);
    db = database.prisma;
    queue = await jobQueueOf(database);
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(chats.splice(0).map((started) => started.close()));
  });

  afterAll(async () => {
    await database.close();
  });

  it("an opened incident: one JSON message, signed, with the incident's data, and one delivery in the log", async () => {
    const receiver = await chat();
    const seeded = await seedIncident(db, { url: receiver.url });
    receiver.secret = await secretOf(seeded.slug);
    expect(receiver.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(await queueOpened(seeded)).toHaveLength(1);
    expect(await runJobs()).toEqual({ completed: 1, failed: 0 });

    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests;
    expect(request).toMatchObject({ method: "POST", path: "/services/T000/B000/fake-chat-token", signature: { valid: true, reason: null } });
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(request!.headers["x-benchtrack-event"]).toBe("incident.opened");
    const payload = webhookPayloadSchema.parse(request!.json);
    expect(payload).toMatchObject({
      event: "incident.opened",
      project: { slug: seeded.slug, name: "Listings API" },
      change: { from: null, to: "open", by: "detector" },
      incident: {
        number: 1,
        state: "open",
        url: `${BASE_URL}/projects/${seeded.slug}/incidents/1`,
        endpoints: ["GET /api/listings/:id"],
        regressionCount: 1,
        regressions: [{ id: seeded.regressionId, metric: "p95", unit: "ms", before: 12.3, after: 15.2, deltaPct: 23.58 }],
        firstRun: { id: seeded.firstRunId, label: "nightly", branch: "main", commit: "9f1c2e7a5b3c4d5e6" },
        // One URL builder (server/domain/urls.ts): run-id lists keep their commas literal.
        compareUrl: `${BASE_URL}/projects/${seeded.slug}/compare?base=${seeded.earlierRunIds.join(",")}&head=${seeded.firstRunId}`,
      },
    });
    expect(payload.text).toBe(
      `Incident #1 opened in Listings API: p95 of GET /api/listings/:id +23.6% (12.3 ms → 15.2 ms, p < 0.001). <${BASE_URL}/projects/${seeded.slug}/incidents/1|Open incident #1>`,
    );

    const [delivery, ...others] = await deliveriesOf(db, seeded.projectId);
    expect(others).toEqual([]);
    expect(delivery).toMatchObject({ event: "incident.opened", format: "json", incidentId: seeded.incidentId, regressionId: null, attempts: 1, lastStatus: 200, lastError: null });
    expect(delivery!.deliveredAt).toBeInstanceOf(Date);
    expect(request!.headers["x-benchtrack-delivery"]).toBe(delivery!.id);
    // The body sent is the body logged, byte for byte: what the signature covers.
    expect(request!.body).toBe(JSON.stringify(delivery!.payload));
    const log = await getProjectWebhook(db, ADMIN, seeded.slug);
    expect(log.deliveries[0]).toMatchObject({ id: delivery!.id, incidentNumber: 1, event: "incident.opened", format: "json" });
  });

  it("a state change through updateIncidents delivers exactly one message; a note alone delivers none", async () => {
    const receiver = await chat();
    const seeded = await seedIncident(db, { url: receiver.url, format: "slack" });
    receiver.secret = await secretOf(seeded.slug);
    await updateIncidents(db, ADMIN, seeded.slug, [1], { state: "investigating", note: "On it" }, { viaSession: true, name: "alice" }, { baseUrl: BASE_URL });
    await updateIncidents(db, ADMIN, seeded.slug, [1], { note: "Still on it" }, { viaSession: true, name: "alice" }, { baseUrl: BASE_URL });
    // The same state again is no change either.
    await updateIncidents(db, ADMIN, seeded.slug, [1], { state: "investigating" }, { viaSession: true }, { baseUrl: BASE_URL });
    expect(await runJobs()).toEqual({ completed: 1, failed: 0 });

    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests;
    expect(request!.signature).toEqual({ valid: true, reason: null });
    const message = slackMessageSchema.parse(request!.json);
    expect(message.blocks[0]).toEqual({ type: "header", text: { type: "plain_text", text: "🟡 Incident #1: Open → Investigating · Listings API", emoji: true } });
    expect(message.blocks[1]).toMatchObject({ type: "section", text: { text: "*alice (admin session)* moved incident #1 from *Open* to *Investigating*.\n> On it" } });
    expect(message.text).toContain("Open → Investigating by alice (admin session)");
    const [delivery] = await deliveriesOf(db, seeded.projectId);
    expect(delivery).toMatchObject({ event: "incident.state_changed", format: "slack", incidentId: seeded.incidentId, attempts: 1 });
  });

  it("the change and its message are one transaction: a refused change queues nothing", async () => {
    const receiver = await chat();
    const seeded = await seedIncident(db, { url: receiver.url });
    await expect(updateIncidents(db, ADMIN, seeded.slug, [1, 99], { state: "fixed" }, { viaSession: false }, { baseUrl: BASE_URL })).rejects.toThrow(/#99/);
    expect(await deliveriesOf(db, seeded.projectId)).toEqual([]);
    expect((await db.incident.findUniqueOrThrow({ where: { id: seeded.incidentId } })).state).toBe("open");
  });

  it("a 503 once is retried and then delivered exactly once: the delivery's attempts are 2", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const receiver = await chat();
    receiver.failNext(1, 503);
    const seeded = await seedIncident(db, { url: receiver.url });
    await queueOpened(seeded);
    expect(await runJobs()).toEqual({ completed: 1, failed: 1 });

    expect(receiver.requests.map((request) => request.status)).toEqual([503, 200]);
    // The same body both times, each attempt signed anew.
    expect(new Set(receiver.requests.map((request) => request.body)).size).toBe(1);
    const [delivery] = await deliveriesOf(db, seeded.projectId);
    expect(delivery).toMatchObject({ attempts: 2, lastStatus: 200, lastError: null });
    expect(delivery!.deliveredAt).not.toBeNull();
  });

  it("a retry waiting when the webhook is turned off is not sent to the old URL", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const receiver = await chat();
    receiver.failNext(1, 503);
    const seeded = await seedIncident(db, { url: receiver.url });
    await queueOpened(seeded);
    const [queued] = await deliveriesOf(db, seeded.projectId);
    expect(await attemptWebhookDelivery(db, queued!.id)).toMatchObject({ delivered: false, retryable: true });
    await db.project.update({ where: { id: seeded.projectId }, data: { webhookUrl: null } });
    expect(await attemptWebhookDelivery(db, queued!.id)).toEqual({ delivered: false, retryable: false, error: "Not sent: the webhook was turned off" });
    // Its job, run by the queue, sends nothing either, and is done.
    expect(await runJobs()).toEqual({ completed: 1, failed: 0 });
    expect(receiver.requests).toHaveLength(1);
  });

  it("a 400 is final: one attempt, the delivery says why, and the receiver's body is never kept", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const receiver = await chat();
    receiver.failNext(1, 400);
    const seeded = await seedIncident(db, { url: receiver.url });
    await queueOpened(seeded);
    expect(await runJobs()).toEqual({ completed: 1, failed: 0 });

    expect(receiver.requests).toHaveLength(1);
    const [delivery] = await deliveriesOf(db, seeded.projectId);
    expect(delivery).toMatchObject({ attempts: 1, lastStatus: 400, lastError: "HTTP 400", deliveredAt: null });
  });

  it("gives up after 9 attempts (8 retries) when the receiver is down: the job fails, the log names no secret path", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const closed = await startFakeChat();
    await closed.close();
    const seeded = await seedIncident(db, { url: closed.url });
    await queueOpened(seeded);
    expect(await runJobs()).toEqual({ completed: 0, failed: 9 });

    const [delivery] = await deliveriesOf(db, seeded.projectId);
    expect(delivery).toMatchObject({ attempts: 9, lastStatus: null, deliveredAt: null });
    // What the delivery log and the jobs list show is the kind of failure: no address, no port (before:
    // "fetch failed: connect ECONNREFUSED 127.0.0.1:<port>"); the server's log has the detail.
    expect(delivery!.lastError).toBe("Connection refused");
    const [job] = await db.$queryRawUnsafe<{ state: string; retry_count: number; output: unknown }[]>(
      `SELECT state, retry_count, output FROM ${queue.schema}.job WHERE name = 'deliver-webhook' AND data->>'deliveryId' = $1`,
      delivery!.id,
    );
    expect(job).toMatchObject({ state: "failed", retry_count: 8 });
    const { port } = new URL(closed.url);
    const shown = JSON.stringify([
      (await getProjectWebhook(db, ADMIN, seeded.slug)).deliveries.map((row) => row.lastError),
      (await getJobActivity(db, ADMIN, seeded.slug)).jobs.map((row) => row.output),
      job!.output,
    ]);
    expect(shown).toContain("Connection refused");
    expect(shown).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
    expect(shown).not.toContain(`:${port}`);
    const logged = warn.mock.calls.flat().join(" ");
    expect(logged).toContain(seeded.slug);
    expect(logged).toMatch(/Connection refused \(fetch failed: connect ECONNREFUSED 127\.0\.0\.1:\d+\)/);
    expect(logged).not.toContain("fake-chat-token");
  });

  it("times out a receiver that never answers, and retries it", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const receiver = await chat();
    receiver.failNext(2, 0);
    const seeded = await seedIncident(db, { url: receiver.url });
    await queueOpened(seeded);
    expect(await runJobs({ timeoutMs: 200 })).toEqual({ completed: 1, failed: 2 });
    expect(receiver.requests).toHaveLength(3);
    const [delivery] = await deliveriesOf(db, seeded.projectId);
    expect(delivery).toMatchObject({ attempts: 3, lastStatus: 200, lastError: null });
  });

  it("signs with the secret current at sending: a rotated secret no longer verifies with the old one", async () => {
    const receiver = await chat();
    const seeded = await seedIncident(db, { url: receiver.url });
    const old = await secretOf(seeded.slug);
    receiver.secret = old;
    await queueOpened(seeded);
    const rotated = await rotateWebhookSecret(db, ADMIN, seeded.slug);
    expect(rotated.secret).not.toBe(old);
    await runJobs();
    expect(receiver.requests[0]!.signature).toEqual({ valid: false, reason: "signature mismatch" });
    receiver.secret = rotated.secret;
    await updateIncidents(db, ADMIN, seeded.slug, [1], { state: "accepted" }, { viaSession: false }, { baseUrl: BASE_URL });
    await runJobs();
    expect(receiver.requests[1]!.signature).toEqual({ valid: true, reason: null });
    // An admin's own secret, set through the API, is the one used.
    await updateWebhookSettings(db, ADMIN, seeded.slug, { secret: "my-own-secret-0123456789" });
    expect(await secretOf(seeded.slug)).toBe("my-own-secret-0123456789");
  });

  it("a Teams webhook gets an Adaptive Card message", async () => {
    const receiver = await chat();
    const seeded = await seedIncident(db, { url: receiver.url, format: "teams" });
    await queueOpened(seeded);
    await runJobs();
    const message = teamsMessageSchema.parse(receiver.requests[0]!.json);
    expect(message.attachments[0]!.content.actions[0]).toEqual({ type: "Action.OpenUrl", title: "Open incident #1", url: `${BASE_URL}/projects/${seeded.slug}/incidents/1` });
  });

  it("sends nothing per event without a URL or with a daily digest; nothing is sent to a non-http(s) URL", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const receiver = await chat();
    const silent = await seedIncident(db, { url: null });
    const daily = await seedIncident(db, { url: receiver.url, digest: "daily" });
    expect(await queueOpened(silent)).toEqual([]);
    expect(await queueOpened(daily)).toEqual([]);
    await updateIncidents(db, ADMIN, daily.slug, [1], { state: "fixed" }, { viaSession: false }, { baseUrl: BASE_URL });
    expect(await deliveriesOf(db, silent.projectId)).toEqual([]);
    expect(await deliveriesOf(db, daily.projectId)).toEqual([]);

    const ftp = await seedIncident(db, { url: null });
    await db.project.update({ where: { id: ftp.projectId }, data: { webhookUrl: "ftp://example.com/hook" } });
    await queueOpened(ftp);
    await runJobs();
    const [delivery] = await deliveriesOf(db, ftp.projectId);
    expect(delivery).toMatchObject({ attempts: 1, lastStatus: null, deliveredAt: null });
    expect(delivery!.lastError).toMatch(/not an http\(s\) URL/);
    expect(receiver.requests).toEqual([]);
  });

  it("never sends a delivery twice: one already delivered is done, one whose project is gone is dropped", async () => {
    const receiver = await chat();
    const seeded = await seedIncident(db, { url: receiver.url });
    await queueOpened(seeded);
    await runJobs();
    const [delivery] = await deliveriesOf(db, seeded.projectId);
    // The same job run again (its worker died after sending, before the queue heard it was done).
    await queue.send("deliver-webhook", { deliveryId: delivery!.id, projectId: seeded.projectId });
    expect(await runQueuedJobs({ db, queue }, {})).toEqual({ completed: 1, failed: 0 });
    expect(receiver.requests).toHaveLength(1);
    await db.project.delete({ where: { id: seeded.projectId } });
    await queue.send("deliver-webhook", { deliveryId: delivery!.id, projectId: seeded.projectId });
    expect(await runQueuedJobs({ db, queue }, {})).toEqual({ completed: 1, failed: 0 });
    expect(receiver.requests).toHaveLength(1);
  });

  describe("the daily digest", () => {
    const DAY = 24 * 3600_000;
    /** The digest job, as the cron would queue it, run with its clock at `at`. */
    const runDigest = async (at: Date) => {
      await queue.send("send-webhook-digests", {});
      return runJobs({}, () => at);
    };
    const digestsOf = async (receiver: FakeChat, slug: string) =>
      receiver.requests.map((request) => request.json as WebhookPayload).filter((payload) => payload.project.slug === slug);

    it("sends one message with what happened in the last 24 h and the active incidents; nothing when nothing happened; once a day", async () => {
      const receiver = await chat();
      const seeded = await seedIncident(db, { url: receiver.url, digest: "daily" });
      receiver.secret = await secretOf(seeded.slug);
      // A second incident, opened on the 16th and fixed on the 17th; the first was opened on the 15th.
      const second = await db.incident.create({
        data: { projectId: seeded.projectId, number: 2, firstRunId: seeded.firstRunId, detectorVersion: 2, createdAt: new Date("2025-11-16T10:00:00Z") },
        select: { id: true },
      });
      await db.incidentEvent.createMany({
        data: [
          { incidentId: second.id, by: "detector", toState: "open", at: new Date("2025-11-16T10:00:00Z") },
          { incidentId: second.id, by: "bob", fromState: "open", toState: "fixed", at: new Date("2025-11-17T06:00:00Z") },
          // A note alone is no change of state: not in a digest.
          { incidentId: seeded.incidentId, by: "bob", note: "Note: looking", at: new Date("2025-11-17T05:00:00Z") },
        ],
      });
      await db.incident.update({ where: { id: second.id }, data: { state: "fixed" } });

      // On the 17th at 07:00: #2 changed (fixed) in the window; #1 is active, quiet.
      await runDigest(new Date("2025-11-17T07:00:00Z"));
      let digests = await digestsOf(receiver, seeded.slug);
      expect(digests).toHaveLength(1);
      const [digest] = digests;
      if (digest?.event !== "incidents.digest") throw new Error("a digest");
      expect(digest.digest).toEqual({
        from: "2025-11-16T07:00:00.000Z",
        to: "2025-11-17T07:00:00.000Z",
        // The job has no request: its links are under BENCHTRACK_PUBLIC_URL (else localhost:3000).
        url: expect.stringMatching(new RegExp(`^https?://[^/]+/projects/${seeded.slug}/incidents$`)),
        opened: 1,
        changed: 0,
        active: 1,
      });
      expect(digest.incidents.map((incident) => [incident.number, incident.state, incident.changes.map((change) => `${change.from}→${change.to}`)])).toEqual([
        [2, "fixed", ["null→open", "open→fixed"]],
        [1, "open", []],
      ]);
      expect(receiver.requests.at(-1)!.signature).toEqual({ valid: true, reason: null });
      const [delivery] = await deliveriesOf(db, seeded.projectId);
      expect(delivery).toMatchObject({ event: "incidents.digest", format: "json", incidentId: null, digestDay: "2025-11-17", attempts: 1 });

      // The job again the same day (a retry, a second replica): no second digest.
      await runDigest(new Date("2025-11-17T07:05:00Z"));
      // The next day nothing happened: nothing is sent, though #1 is still active.
      await runDigest(new Date("2025-11-18T07:00:00Z"));
      digests = await digestsOf(receiver, seeded.slug);
      expect(digests).toHaveLength(1);
      expect(await deliveriesOf(db, seeded.projectId)).toHaveLength(1);

      // A day later #1 is accepted: a digest in the project's format (Slack now), within Slack's limits.
      await updateWebhookSettings(db, ADMIN, seeded.slug, { format: "slack" });
      await db.incidentEvent.create({ data: { incidentId: seeded.incidentId, by: "carol", fromState: "open", toState: "accepted", at: new Date(Date.parse("2025-11-19T07:00:00Z") - DAY / 2) } });
      await db.incident.update({ where: { id: seeded.incidentId }, data: { state: "accepted" } });
      await runDigest(new Date("2025-11-19T07:00:00Z"));
      const slack = slackMessageSchema.parse(receiver.requests.filter((request) => request.path === new URL(receiver.url).pathname).at(-1)!.json);
      expect(slack.blocks[0]).toMatchObject({ type: "header", text: { text: "📋 Daily incident digest · Listings API" } });
      // The window starts where the last digest ended (the 17th), so the quiet 18th is in it: 2 days.
      expect(slack.blocks[1]).toMatchObject({ text: { text: expect.stringMatching(/^1 incident changed state in the last 2 days; 0 active/) } });
      expect(JSON.stringify(slack)).toContain("Open → Accepted by carol");

      // The job does not run on the 20th (the server was down); #2 is reopened that day. The 21st's
      // digest starts where the 19th's ended, so the 20th's change is not lost.
      await db.incidentEvent.create({ data: { incidentId: second.id, by: "dan", fromState: "fixed", toState: "open", at: new Date("2025-11-20T12:00:00Z") } });
      await db.incident.update({ where: { id: second.id }, data: { state: "open" } });
      await runDigest(new Date("2025-11-21T07:00:00Z"));
      const late = JSON.stringify(receiver.requests.at(-1)!.json);
      expect(late).toContain("Fixed → Open by dan");
      expect(late).toContain("in the last 2 days");
    });
  });
});
