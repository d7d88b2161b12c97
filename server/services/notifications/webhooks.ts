import type { Dispatcher } from "undici";
import { fetch as undiciFetch } from "undici";
import { customMetricKey, metricDefinition } from "../../domain/metrics";
import { safeHttpUrl } from "../../domain/urls";
import { ADDRESS_NOT_ALLOWED, describeDeliveryError } from "../../domain/webhooks/delivery-error";
import type { IncidentEventName, IncidentForMessage, NotificationMessage, StateChange } from "../../domain/webhooks/incident-message";
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, signWebhookBody } from "../../domain/webhooks/signature";
import { buildWebhookBody } from "../../domain/webhooks/webhook-body";
import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import type { JobQueue } from "../platform";
import { listIncidentChanges } from "../changes";
import { checkWebhookTarget, pinnedDispatcher, type ResolveHost } from "./webhook-targets";

/**
 * Incident notifications (docs/notifications.md): when an incident opens (detection) or its state changes
 * (updateIncidents), one message is POSTed to the project's webhook, in the project's format (JSON, Slack,
 * Teams: server/domain/webhooks/), signed with its secret; with a daily digest instead
 * (webhook-digest.ts), nothing is sent per event.
 *
 * Delivery is a job on the queue (server/services/platform/job-queue.ts), so it survives restarts and one replica
 * takes it (at least once: a worker that dies after the POST but before recording it sends it again; the
 * X-Benchtrack-Delivery header lets a receiver drop the repeat): queueIncidentNotifications records each
 * delivery (WebhookDelivery, the settings page's delivery log) with its body, and enqueues its job in the
 * caller's transaction; the job makes one attempt (attemptWebhookDelivery) and the queue retries a failed
 * one with backoff (10 s, 20 s, 40 s… 8 retries). Network errors, timeouts and 5xx answers are retried;
 * 4xx and 3xx are final (redirects are not followed: a webhook URL should be the receiver itself). The URL
 * may embed a secret (Slack's does), so logs name the project and the URL's origin only.
 *
 * Each attempt resolves the host once, checks every address (webhook-targets.ts) and connects only to
 * the addresses checked (DNS rebinding). What a failed attempt records (the delivery log, the job's
 * output) is the kind of failure ("Connection refused", "HTTP 503"), never the error's text, which names
 * internal addresses and ports; the server's log has the detail.
 */

export const WEBHOOK_TIMEOUT_MS = 5000;
export const DELIVERY_HEADER = "X-Benchtrack-Delivery";
export const EVENT_HEADER = "X-Benchtrack-Event";

/** What an attempt's POST is given: the request, and the dispatcher pinned to the checked addresses. */
export interface WebhookRequestInit {
  method: "POST";
  headers: Record<string, string>;
  body: string;
  redirect: "manual";
  signal: AbortSignal;
  dispatcher: Dispatcher;
}

/** undici's fetch, or a test's stand-in. */
export type WebhookFetch = (
  url: string,
  init: WebhookRequestInit,
) => Promise<{ ok: boolean; status: number; body: { cancel(): Promise<void> } | null }>;

export interface WebhookAttemptOptions {
  fetch?: WebhookFetch;
  /** The resolver the target's check uses, once per attempt (tests: a name that changes its answer). */
  resolve?: ResolveHost;
  timeoutMs?: number;
  /** The signature's clock (tests). */
  now?: () => Date;
}

/** What happened to an incident, to be told. */
export interface IncidentNotice {
  incidentId: string;
  event: IncidentEventName;
  change: StateChange;
}

/** The project fields a notification needs. */
export const NOTIFYING_PROJECT_SELECT = {
  id: true,
  slug: true,
  name: true,
  defaultBranch: true,
  webhookUrl: true,
  webhookFormat: true,
  webhookDigest: true,
} satisfies Prisma.ProjectSelect;

export type NotifyingProject = Prisma.ProjectGetPayload<{ select: typeof NOTIFYING_PROJECT_SELECT }>;

/**
 * Records one delivery per notice for a project whose webhook hears of each event (a URL set, no daily
 * digest), and enqueues its job in the same transaction: a delivery exists exactly when the change it
 * tells of does. Returns the deliveries' ids (none when the project is not notified per event).
 */
export async function queueIncidentNotifications(
  tx: Prisma.TransactionClient,
  queue: JobQueue,
  projectId: string,
  notices: readonly IncidentNotice[],
  baseUrl: string,
): Promise<string[]> {
  if (notices.length === 0) return [];
  const project = await tx.project.findUnique({ where: { id: projectId }, select: NOTIFYING_PROJECT_SELECT });
  if (!project || project.webhookUrl === null || project.webhookDigest !== "off") return [];
  const incidents = await loadIncidentsForMessages(tx, project, notices.map((notice) => notice.incidentId));
  const messages = notices.flatMap((notice): { incidentId: string; message: NotificationMessage }[] => {
    const incident = incidents.get(notice.incidentId);
    if (!incident) return [];
    return [{ incidentId: notice.incidentId, message: { kind: "incident", event: notice.event, project, incident, change: notice.change } }];
  });
  const ids: string[] = [];
  for (const { incidentId, message } of messages) {
    ids.push(await queueDelivery(tx, queue, project, message, baseUrl, { incidentId }));
  }
  return ids;
}

/** Records a delivery of a message in the project's format, and enqueues its job (in `tx`). */
export async function queueDelivery(
  tx: Prisma.TransactionClient,
  queue: JobQueue,
  project: NotifyingProject,
  message: NotificationMessage,
  baseUrl: string,
  about: { incidentId?: string; digestDay?: string; digestUntil?: Date },
): Promise<string> {
  const url = project.webhookUrl;
  if (url === null) throw new Error(`Project "${project.slug}" has no webhook URL`);
  const payload = buildWebhookBody(project.webhookFormat, message, baseUrl);
  const delivery = await tx.webhookDelivery.create({
    data: {
      projectId: project.id,
      event: message.kind === "incident" ? message.event : "incidents.digest",
      format: project.webhookFormat,
      incidentId: about.incidentId ?? null,
      digestDay: about.digestDay ?? null,
      digestUntil: about.digestUntil ?? null,
      url,
      payload,
    },
    select: { id: true },
  });
  await queue.send("deliver-webhook", { deliveryId: delivery.id, projectId: project.id }, { tx });
  return delivery.id;
}

/**
 * The incidents as a message tells of them: state, note, links, first run, and each regression with its
 * unit and links (one query for the regressions, one for their links, one for custom metrics' units).
 */
export async function loadIncidentsForMessages(
  db: Prisma.TransactionClient,
  project: { id: string; slug: string; defaultBranch: string },
  incidentIds: readonly string[],
): Promise<Map<string, IncidentForMessage>> {
  const ids = [...new Set(incidentIds)];
  if (ids.length === 0) return new Map();
  const [incidents, regressions] = await Promise.all([
    db.incident.findMany({
      where: { id: { in: ids }, projectId: project.id },
      select: {
        id: true,
        number: true,
        state: true,
        note: true,
        links: true,
        createdAt: true,
        detectorVersion: true,
        firstRun: { select: { id: true, label: true, gitBranch: true, gitCommit: true, startedAt: true } },
      },
    }),
    listIncidentChanges(db, project, ids),
  ]);
  const units = await metricUnits(db, regressions);
  const byId = new Map<string, IncidentForMessage>();
  for (const incident of incidents) {
    byId.set(incident.id, {
      number: incident.number,
      state: incident.state,
      note: incident.note,
      links: incident.links,
      openedAt: incident.createdAt,
      detectorVersion: incident.detectorVersion,
      firstRun: {
        id: incident.firstRun.id,
        label: incident.firstRun.label,
        branch: incident.firstRun.gitBranch,
        commit: incident.firstRun.gitCommit,
        startedAt: incident.firstRun.startedAt,
      },
      regressions: regressions.flatMap((row, index) =>
        row.incidentId !== incident.id
          ? []
          : [
              {
                id: row.id,
                metric: row.metric,
                unit: units[index] ?? null,
                endpoint: row.endpoint?.name ?? null,
                protocol: row.endpoint?.protocol ?? null,
                before: row.beforeValue,
                after: row.afterValue,
                deltaPct: row.deltaPct,
                pValue: row.pValue,
                trendPath: row.links.trendPath,
                comparePath: row.links.comparePath,
              },
            ],
      ),
    });
  }
  return byId;
}

/** Each regression's unit: built-in metrics from the registry, custom ones as their first run reported them. */
async function metricUnits(
  db: Prisma.TransactionClient,
  rows: readonly { metric: string; firstRunId: string; endpointId: number | null }[],
): Promise<(string | null)[]> {
  const custom = rows.filter((row) => customMetricKey(row.metric) !== null);
  const reported =
    custom.length === 0
      ? []
      : await db.metric.findMany({
          where: { runId: { in: [...new Set(custom.map((row) => row.firstRunId))] }, key: { in: [...new Set(custom.map((row) => customMetricKey(row.metric)!))] } },
          select: { runId: true, endpointId: true, key: true, unit: true },
        });
  return rows.map((row) => {
    const key = customMetricKey(row.metric);
    if (key === null) return metricDefinition(row.metric)?.unit ?? null;
    return reported.find((metric) => metric.runId === row.firstRunId && metric.endpointId === row.endpointId && metric.key === key)?.unit ?? null;
  });
}

export interface AttemptOutcome {
  delivered: boolean;
  /** Worth another attempt: a network error, a timeout or a 5xx. */
  retryable: boolean;
  error: string | null;
}

/**
 * One attempt at a recorded delivery: POSTs its body once, signed with the project's current secret, and
 * records the attempt on the delivery (attempts, last status and error, when delivered). Never throws for
 * the receiver's failures: the outcome says whether another attempt is worth it (the job then fails, and
 * the queue retries it). A delivery already delivered is not sent twice (a job retried after its worker
 * died mid-attempt).
 */
export async function attemptWebhookDelivery(db: PrismaClient, deliveryId: string, options: WebhookAttemptOptions = {}): Promise<AttemptOutcome> {
  const delivery = await db.webhookDelivery.findUnique({
    where: { id: deliveryId },
    select: {
      id: true,
      url: true,
      event: true,
      payload: true,
      attempts: true,
      deliveredAt: true,
      project: { select: { slug: true, webhookSecret: true, webhookUrl: true } },
    },
  });
  if (!delivery) return { delivered: false, retryable: false, error: "The delivery no longer exists (its project was deleted)" };
  if (delivery.deliveredAt !== null) return { delivered: true, retryable: false, error: null };
  // The webhook was turned off or pointed elsewhere since this was queued: nothing more goes to the old URL.
  if (delivery.project.webhookUrl !== delivery.url) {
    const error = delivery.project.webhookUrl === null ? "Not sent: the webhook was turned off" : "Not sent: the webhook URL changed since it was queued";
    await db.webhookDelivery.update({ where: { id: delivery.id }, data: { lastError: error }, select: { id: true } });
    return { delivered: false, retryable: false, error };
  }
  const attempt = await postOnce(delivery, options);
  await db.webhookDelivery.update({
    where: { id: delivery.id },
    data: {
      attempts: delivery.attempts + 1,
      lastStatus: attempt.status,
      lastError: attempt.error,
      deliveredAt: attempt.delivered ? new Date() : null,
    },
    select: { id: true },
  });
  if (!attempt.delivered) {
    console.warn(
      `Webhook for project "${delivery.project.slug}" to ${safeOrigin(delivery.url)}, attempt ${delivery.attempts + 1}: ${attempt.error}${attempt.detail === null ? "" : ` (${attempt.detail})`}${attempt.retryable ? "; will retry" : ""}`,
    );
  }
  return { delivered: attempt.delivered, retryable: attempt.retryable, error: attempt.error };
}

interface AttemptResult {
  status: number | null;
  /** What is recorded and shown: the kind of failure, no address. */
  error: string | null;
  /** What only the server's log gets: the error's own text (addresses, ports), never the URL's path. */
  detail: string | null;
  delivered: boolean;
  retryable: boolean;
}

/** The headers of one attempt: JSON, what it is, and its signature over the exact body. */
export function deliveryHeaders(delivery: { id: string; event: string }, body: string, secret: string | null, now: Date): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "Benchtrack-Webhook/2",
    [DELIVERY_HEADER]: delivery.id,
    [EVENT_HEADER]: delivery.event,
  };
  if (secret !== null) {
    const timestamp = Math.floor(now.getTime() / 1000);
    headers[TIMESTAMP_HEADER] = String(timestamp);
    headers[SIGNATURE_HEADER] = signWebhookBody(secret, timestamp, body);
  }
  return headers;
}

/**
 * One POST of the body: delivered on a 2xx; a 3xx/4xx is final; a network error, timeout or 5xx may be
 * retried. The host is resolved once, here, and the connection goes only to the addresses checked.
 */
async function postOnce(
  delivery: { id: string; url: string; event: string; payload: unknown; project: { webhookSecret: string | null } },
  options: WebhookAttemptOptions,
): Promise<AttemptResult> {
  const { url } = delivery;
  if (safeHttpUrl(url) === null) {
    return { status: null, error: "The webhook URL is not an http(s) URL; nothing was sent", detail: null, delivered: false, retryable: false };
  }
  // Checked at every attempt, not only on save: the name may point somewhere else now.
  const target = await checkWebhookTarget(url, options.resolve);
  if (!target.allowed) return { status: null, error: ADDRESS_NOT_ALLOWED, detail: `refused: ${target.problem}`, delivered: false, retryable: false };
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const body = JSON.stringify(delivery.payload);
  const dispatcher = pinnedDispatcher(target);
  try {
    const response = await (options.fetch ?? undiciFetch)(url, {
      method: "POST",
      headers: deliveryHeaders(delivery, body, delivery.project.webhookSecret, options.now?.() ?? new Date()),
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
      dispatcher,
    });
    // The receiver's body is never kept nor shown: it could be anything the target holds.
    await response.body?.cancel().catch(() => undefined);
    if (response.ok) return { status: response.status, error: null, detail: null, delivered: true, retryable: false };
    return { status: response.status, error: `HTTP ${response.status}`, detail: null, delivered: false, retryable: response.status >= 500 };
  } catch (error) {
    return { status: null, error: describeDeliveryError(error, timeoutMs), detail: errorText(error), delivered: false, retryable: true };
  } finally {
    await dispatcher.destroy().catch(() => undefined);
  }
}

/** "fetch failed: connect ECONNREFUSED 10.0.0.5:8080" (fetch hides the useful part in `cause`), for the server's log; URLs cut to their origin. */
function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 500);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`.replace(/\bhttps?:\/\/[^\s"'<>]+/gi, (found) => safeOrigin(found)).slice(0, 500);
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "(invalid URL)";
  }
}
