import { afterAll, afterEach, beforeAll, vi } from "vitest";
import { startFakeChat, type FakeChat } from "../../../scripts/ci/fake-chat";
import type { Database, DatabaseTarget } from "../../db";
import type { PrismaClient } from "../../generated/prisma/client";
// eslint-disable-next-line no-restricted-imports -- test support: the tests run the queue as the workers would
import { runQueuedJobs } from "../../jobs/worker";
import { openMigratedDatabase, uniqueSlug } from "../../testing/databases";
import { jobQueueOf, type JobQueue } from "../platform";
import { getProjectWebhook, updateWebhookSettings } from "./webhook-settings";
import { queueIncidentNotifications, type WebhookAttemptOptions } from "./webhooks";

// What the incident notification tests (webhook-delivery.db.test.ts, webhook-retries.db.test.ts,
// webhook-digest.db.test.ts) share: a project with an open incident and its webhook, the database and job
// queue they run on, and real receivers (scripts/ci/fake-chat.ts).

export const BASE_URL = "http://bench.test";
export const ADMIN = { kind: "admin" } as const;

export interface Seeded {
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
export async function seedIncident(db: PrismaClient, webhook: { url: string | null; format?: "json" | "slack" | "teams"; digest?: "off" | "daily" }): Promise<Seeded> {
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

export const deliveriesOf = (db: PrismaClient, projectId: string) => db.webhookDelivery.findMany({ where: { projectId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });

/**
 * Sets up, inside a `describe.each(testDatabaseTargets())` block, what its tests run on: the target's
 * database and its job queue (`db` and `queue`, there once beforeAll has run), receivers started for a
 * test and closed after it, and the steps the tests take. Its state is the call's: the test files share a
 * worker's modules (vitest.config.ts).
 */
export function setUpIncidentNotifications(target: DatabaseTarget) {
  // The receivers listen on 127.0.0.1, which webhooks may only reach when allowed (SSRF guard). Set for
  // each file, before the environment is first read (server/testing/test-file-setup.ts resets it).
  process.env.BENCHTRACK_WEBHOOK_ALLOWED_HOSTS = "127.0.0.1";

  let database: Database;
  let db: PrismaClient;
  let queue: JobQueue;
  const chats: FakeChat[] = [];

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

  return {
    get db() {
      return db;
    },
    get queue() {
      return queue;
    },
    /** A receiver, closed after the test. */
    chat: async () => {
      const started = await startFakeChat();
      chats.push(started);
      return started;
    },
    /** Runs the queue until it is empty, retries at once (their backoff skipped): what workers would do over ~40 minutes. */
    runJobs: (webhook: WebhookAttemptOptions = {}, now?: () => Date) => runQueuedJobs({ db, queue, webhook, ...(now && { now }) }, { ignoreStartAfter: true }),
    /** The incident's opening told, as detection tells it. */
    queueOpened: (seeded: Seeded) =>
      db.$transaction((tx) =>
        queueIncidentNotifications(
          tx,
          queue,
          seeded.projectId,
          [{ incidentId: seeded.incidentId, event: "incident.opened", change: { from: null, to: "open", by: "detector", at: new Date("2025-11-15T09:30:00Z") } }],
          BASE_URL,
        ),
      ),
    secretOf: async (slug: string) => (await getProjectWebhook(db, ADMIN, slug)).secret!,
  };
}
