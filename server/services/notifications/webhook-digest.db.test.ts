import { beforeAll, describe, expect, it } from "vitest";
import type { FakeChat } from "../../../scripts/ci/fake-chat";
import type { PrismaClient } from "../../generated/prisma/client";
import { slackMessageSchema, type WebhookPayload } from "../../schemas/webhooks";
import { testDatabaseTargets } from "../../testing/databases";
import type { JobQueue } from "../platform/job-queue";
import { updateWebhookSettings } from "./webhook-settings";
import { ADMIN, deliveriesOf, seedIncident, setUpIncidentNotifications } from "./webhooks.fixture";

// The daily incident digest end to end on a real database and a real receiver (scripts/ci/fake-chat.ts):
// what one digest holds, its window, once a day and only when something happened, in the project's format.

describe.each(testDatabaseTargets())("incident notifications on $name", ({ target }) => {
  const notifications = setUpIncidentNotifications(target);
  const { chat, runJobs, secretOf } = notifications;
  let db: PrismaClient;
  let queue: JobQueue;
  beforeAll(() => {
    ({ db, queue } = notifications);
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
