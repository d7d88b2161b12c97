import { beforeAll, describe, expect, it, vi } from "vitest";
import type { PrismaClient } from "../../generated/prisma/client";
import { slackMessageSchema, teamsMessageSchema, webhookPayloadSchema } from "../../schemas/webhooks";
import { testDatabaseTargets } from "../../testing/databases";
import { updateIncidents } from "../incidents/incidents";
import { getProjectWebhook, rotateWebhookSecret, updateWebhookSettings } from "./webhook-settings";
import { ADMIN, BASE_URL, deliveriesOf, seedIncident, setUpIncidentNotifications } from "./webhooks.fixture";

// Incident notifications end to end on a real database and a real receiver (scripts/ci/fake-chat.ts):
// what is queued, in which format, signed how, and logged; when nothing is sent. Retries:
// webhook-retries.db.test.ts; the daily digest: webhook-digest.db.test.ts.

describe.each(testDatabaseTargets())("incident notifications on $name", ({ target }) => {
  const notifications = setUpIncidentNotifications(target);
  const { chat, runJobs, queueOpened, secretOf } = notifications;
  let db: PrismaClient;
  beforeAll(() => {
    db = notifications.db;
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
});
