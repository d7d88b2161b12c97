import { ACTIVE_STATES } from "../../domain/incidents/state";
import type { DigestMessage, StateChange } from "../../domain/webhooks/incident-message";
import { Prisma, type PrismaClient } from "../../generated/prisma/client";
import type { JobQueue } from "../platform";
import { NOTIFYING_PROJECT_SELECT, loadIncidentsForMessages, queueDelivery } from "./webhooks";

/**
 * The daily digest (docs/notifications.md): for each project whose webhook is set to "daily", once a day
 * (the send-webhook-digests job, on DIGEST_CRON), one message in the project's format with the incidents
 * opened or whose state changed since the project's last digest (the last 24 hours for its first, at most
 * MAX_DIGEST_WINDOW_DAYS: a day the job did not run is not lost), then the other active ones (open or
 * investigating).
 * Nothing is sent when nothing happened. One digest per project and UTC day: a digest already recorded
 * for the day (the job ran twice, or was retried after sending some) is not recorded again, which the
 * unique (project, digest_day) index holds against two replicas at once.
 */

export const DIGEST_WINDOW_HOURS = 24;
/** How far back a digest reaches after days without one. */
export const MAX_DIGEST_WINDOW_DAYS = 7;

export interface DigestRunReport {
  /** Projects with a daily digest. */
  projects: number;
  /** Digests queued now. */
  queued: number;
  /** Projects where nothing happened in the window. */
  quiet: number;
  /** Projects whose digest of the day was already queued. */
  alreadySent: number;
}

/** Queues the digests due at `now` (the job's clock; tests give their own). */
export async function queueWebhookDigests(db: PrismaClient, queue: JobQueue, options: { now: Date; baseUrl: string }): Promise<DigestRunReport> {
  const to = options.now;
  const firstFrom = new Date(to.getTime() - DIGEST_WINDOW_HOURS * 3600_000);
  const earliest = new Date(to.getTime() - MAX_DIGEST_WINDOW_DAYS * 24 * 3600_000);
  const digestDay = to.toISOString().slice(0, 10);
  const projects = await db.project.findMany({
    where: { webhookDigest: "daily", webhookUrl: { not: null } },
    select: NOTIFYING_PROJECT_SELECT,
    orderBy: { slug: "asc" },
  });
  const report: DigestRunReport = { projects: projects.length, queued: 0, quiet: 0, alreadySent: 0 };
  for (const project of projects) {
    const previous = await db.webhookDelivery.findFirst({
      where: { projectId: project.id, digestUntil: { not: null, lte: to } },
      orderBy: { digestUntil: "desc" },
      select: { digestUntil: true },
    });
    const from = previous?.digestUntil ? new Date(Math.max(previous.digestUntil.getTime(), earliest.getTime())) : firstFrom;
    const message = await digestOf(db, project, from, to);
    if (message === null) {
      report.quiet += 1;
      continue;
    }
    try {
      const queued = await db.$transaction(async (tx) => {
        const sent = await tx.webhookDelivery.findUnique({ where: { projectId_digestDay: { projectId: project.id, digestDay } }, select: { id: true } });
        if (sent) return false;
        await queueDelivery(tx, queue, project, message, options.baseUrl, { digestDay, digestUntil: to });
        return true;
      });
      if (queued) report.queued += 1;
      else report.alreadySent += 1;
    } catch (error) {
      // Another replica recorded the day's digest between our check and our insert.
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") report.alreadySent += 1;
      else throw error;
    }
  }
  return report;
}

/** A project's digest for [from, to): null when no incident opened or changed state in it. */
export async function digestOf(
  db: PrismaClient,
  project: { id: string; slug: string; name: string; defaultBranch: string },
  from: Date,
  to: Date,
): Promise<DigestMessage | null> {
  const events = await db.incidentEvent.findMany({
    where: { incident: { projectId: project.id }, at: { gte: from, lt: to }, toState: { not: null } },
    select: { incidentId: true, at: true, by: true, fromState: true, toState: true },
    orderBy: [{ at: "asc" }, { id: "asc" }],
  });
  if (events.length === 0) return null;
  const touched = [...new Set(events.map((event) => event.incidentId))];
  const active = await db.incident.findMany({
    where: { projectId: project.id, state: { in: [...ACTIVE_STATES] }, id: { notIn: touched } },
    select: { id: true },
  });
  const incidents = await loadIncidentsForMessages(db, project, [...touched, ...active.map((row) => row.id)]);
  const changesOf = (incidentId: string): StateChange[] =>
    events
      .filter((event) => event.incidentId === incidentId)
      .map((event) => ({ from: event.fromState, to: event.toState!, by: event.by, at: event.at }));
  const newestFirst = (ids: string[]) =>
    ids.flatMap((id) => {
      const incident = incidents.get(id);
      return incident ? [{ ...incident, changes: changesOf(id) }] : [];
    }).sort((a, b) => b.number - a.number);
  return {
    kind: "digest",
    project,
    from,
    to,
    incidents: [...newestFirst(touched), ...newestFirst(active.map((row) => row.id))],
  };
}
