import { beforeAll, describe, expect, it, vi } from "vitest";
import { startFakeChat } from "../../../scripts/ci/fake-chat";
import type { PrismaClient } from "../../generated/prisma/client";
import { runQueuedJobs } from "../../jobs/worker";
import { testDatabaseTargets } from "../../testing/databases";
import { getJobActivity } from "../projects/job-activity";
import type { JobQueue } from "../platform/job-queue";
import { getProjectWebhook } from "./webhook-settings";
import { attemptWebhookDelivery } from "./webhooks";
import { ADMIN, deliveriesOf, seedIncident, setUpIncidentNotifications } from "./webhooks.fixture";

// Incident notifications whose receiver fails, on a real database and a real receiver
// (scripts/ci/fake-chat.ts): what is retried and when, what is final, when delivery gives up and what
// its failure shows, and that no delivery is ever sent twice.

describe.each(testDatabaseTargets())("incident notifications on $name", ({ target }) => {
  const notifications = setUpIncidentNotifications(target);
  const { chat, runJobs, queueOpened } = notifications;
  let db: PrismaClient;
  let queue: JobQueue;
  beforeAll(() => {
    ({ db, queue } = notifications);
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
});
