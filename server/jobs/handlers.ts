import type PgBoss from "pg-boss";
import type { PrismaClient } from "../generated/prisma/client";
import { publicBaseUrl } from "../public-url";
import type { JobData, JobName, JobQueue } from "../services/platform";
import { refreshStaleStatistics } from "../services/platform";
import { applyRunRetention } from "../services/deletion";
import { applyRawRetention } from "../services/runs";
import { refreshRollups } from "../services/trends";
import { detectAndQueueWebhooks, queueProjectRedetection } from "../services/incidents";
import { queueWebhookDigests } from "../services/notifications";
import { attemptWebhookDelivery, type WebhookAttemptOptions } from "../services/notifications";

/**
 * What each job does: one use case each (server/services). A handler that throws fails its job, and the
 * queue retries it with backoff until its retry limit (job-queue.ts, JOB_QUEUES); what a handler returns
 * is kept as the job's output (shown on the settings page with the job).
 */
export interface JobContext {
  db: PrismaClient;
  queue: JobQueue;
  /** Webhook attempts' fetch and timeout (tests use short ones). */
  webhook?: WebhookAttemptOptions;
  /** The clock of jobs that work on "now" (the daily digest's window); tests give their own. */
  now?: () => Date;
}

export type JobHandler<Name extends JobName> = (
  job: PgBoss.JobWithMetadata<JobData[Name]>,
  context: JobContext,
) => Promise<object>;

/** A delivery attempt that should be tried again: the job fails, and the queue retries it later. */
export class RetryableDeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RetryableDeliveryError";
  }
}

/** Whether this process has run the statistics pass once (refresh-statistics). */
let statisticsPassedInProcess = false;

export const JOB_HANDLERS: { [Name in JobName]: JobHandler<Name> } = {
  "detect-regressions": async (job, { db, queue }) => {
    const detected = await detectAndQueueWebhooks(db, queue, job.data);
    return {
      opened: detected.opened.length,
      improvements: detected.improvements.length,
      incidents: detected.incidentsOpened.length,
      webhooks: detected.deliveries.length,
    };
  },
  "deliver-webhook": async (job, { db, webhook }) => {
    const outcome = await attemptWebhookDelivery(db, job.data.deliveryId, webhook);
    if (!outcome.delivered && outcome.retryable) throw new RetryableDeliveryError(outcome.error ?? "not delivered");
    return { delivered: outcome.delivered, error: outcome.error };
  },
  "redetect-project": async (job, { db, queue }) => {
    const queued = await queueProjectRedetection(db, queue, job.data.projectId, publicBaseUrl(new Headers()));
    return { series: queued };
  },
  "send-webhook-digests": async (_job, { db, queue, now }) => {
    const report = await queueWebhookDigests(db, queue, { now: now?.() ?? new Date(), baseUrl: publicBaseUrl(new Headers()) });
    return { ...report };
  },
  "refresh-rollups": async (job, { db }) => refreshRollups(db, job.data.projectId),
  "refresh-statistics": async (_job, { db }) => {
    // The embedded database counts changes from its start only: the first pass in a process analyzes every table.
    const refreshed = await refreshStaleStatistics(db, { everyTable: !statisticsPassedInProcess });
    statisticsPassedInProcess = true;
    return { ...refreshed };
  },
  "apply-retention": async (job, { db }) => {
    const reports = await applyRawRetention(db, job.data.projectId ? { projectId: job.data.projectId } : {});
    for (const report of reports.filter((entry) => entry.dropped > 0)) {
      console.info(
        `Retention for project "${report.slug}" (${report.retentionDays} days): dropped ${report.dropped} raw upload(s), ${report.freedBytes} bytes.`,
      );
    }
    // Run retention (docs/operations.md, "Deleting and retention"): the same deletion as DELETE …/runs/:id, in batches.
    const runReports = await applyRunRetention(db, { ...(job.data.projectId ? { projectId: job.data.projectId } : {}), baseUrl: publicBaseUrl(new Headers()) });
    for (const report of runReports.filter((entry) => entry.deleted.runs > 0)) {
      console.info(`Run retention for project "${report.slug}": deleted ${report.deleted.runs} run(s).`);
    }
    return {
      projects: reports.length,
      dropped: sum(reports.map((r) => r.dropped)),
      freedBytes: sum(reports.map((r) => r.freedBytes)),
      runsDeleted: sum(runReports.map((r) => r.deleted.runs)),
    };
  },
};

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
