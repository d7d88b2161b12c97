import { customMetricKey, metricDefinition } from "../domain/metrics";
import { safeHttpUrl } from "../domain/urls";
import { buildRegressionWebhookPayload } from "../domain/webhooks/regression-payload";
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import type { RegressionWebhookPayload } from "../schemas/webhooks";
import type { JobQueue } from "./job-queue";
import { REGRESSION_SELECT, regressionLinks } from "./regressions";
import { webhookTargetProblem } from "./webhook-targets";

/**
 * Regression webhooks: when detection opens regressions, each one is POSTed as JSON to the project's
 * webhook URL (Slack-compatible: the `text` field is what a Slack or Mattermost incoming webhook shows).
 *
 * Delivery is a job on the queue (server/services/job-queue.ts), so it survives restarts and one replica
 * takes it (at least once: a worker that dies after the POST but before recording it sends it again): queueRegressionWebhooks records each delivery (WebhookDelivery, the settings page's
 * delivery log) and enqueues its job in the caller's transaction; the job makes one attempt
 * (attemptWebhookDelivery) and the queue retries a failed one with backoff (10 s, 20 s, 40 s… 8 retries).
 * Network errors, timeouts and 5xx answers are retried; 4xx and 3xx are final (redirects are not
 * followed: a webhook URL should be the receiver itself). The URL may embed a secret (Slack's does), so
 * logs name the project and the URL's origin only. The body itself is pure:
 * server/domain/webhooks/regression-payload.ts.
 */

export const WEBHOOK_TIMEOUT_MS = 5000;

export interface WebhookAttemptOptions {
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/**
 * Records a delivery for each regression of a project that has a webhook URL, and enqueues its job in the
 * same transaction: a delivery exists exactly when its job does. Returns the deliveries' ids.
 */
export async function queueRegressionWebhooks(
  tx: Prisma.TransactionClient,
  queue: JobQueue,
  regressionIds: readonly string[],
  baseUrl: string,
): Promise<string[]> {
  if (regressionIds.length === 0) return [];
  const regressions = await tx.regression.findMany({
    where: { id: { in: [...regressionIds] }, project: { webhookUrl: { not: null } } },
    select: DELIVERY_SELECT,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const ids: string[] = [];
  for (const regression of regressions) {
    const url = regression.project.webhookUrl;
    if (url === null) continue;
    const payload = await payloadOf(tx, regression, baseUrl);
    const delivery = await tx.webhookDelivery.create({
      data: { projectId: regression.projectId, regressionId: regression.id, url, payload },
      select: { id: true },
    });
    await queue.send("deliver-webhook", { deliveryId: delivery.id, projectId: regression.projectId }, { tx });
    ids.push(delivery.id);
  }
  return ids;
}

export interface AttemptOutcome {
  delivered: boolean;
  /** Worth another attempt: a network error, a timeout or a 5xx. */
  retryable: boolean;
  error: string | null;
}

/**
 * One attempt at a recorded delivery: POSTs its payload once and records the attempt on the delivery
 * (attempts, last status and error, when delivered). Never throws for the receiver's failures: the
 * outcome says whether another attempt is worth it (the job then fails, and the queue retries it).
 * A delivery already delivered is not sent twice (a job retried after its worker died mid-attempt).
 */
export async function attemptWebhookDelivery(db: PrismaClient, deliveryId: string, options: WebhookAttemptOptions = {}): Promise<AttemptOutcome> {
  const delivery = await db.webhookDelivery.findUnique({
    where: { id: deliveryId },
    select: { id: true, url: true, payload: true, attempts: true, deliveredAt: true, project: { select: { slug: true } } },
  });
  if (!delivery) return { delivered: false, retryable: false, error: "The delivery no longer exists (its project was deleted)" };
  if (delivery.deliveredAt !== null) return { delivered: true, retryable: false, error: null };
  const attempt = await postOnce(delivery.url, delivery.payload, options);
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
      `Webhook for project "${delivery.project.slug}" to ${safeOrigin(delivery.url)}, attempt ${delivery.attempts + 1}: ${attempt.error}${attempt.retryable ? " (will retry)" : ""}`,
    );
  }
  return { delivered: attempt.delivered, retryable: attempt.retryable, error: attempt.error };
}

/** What a delivery needs: the inbox's row (REGRESSION_SELECT), with its project and endpoint id. */
const DELIVERY_SELECT = {
  ...REGRESSION_SELECT,
  projectId: true,
  endpointId: true,
  project: { select: { slug: true, name: true, webhookUrl: true, defaultBranch: true } },
  firstRun: { select: { ...REGRESSION_SELECT.firstRun.select, id: true } },
} satisfies Prisma.RegressionSelect;

type DeliveryRow = Prisma.RegressionGetPayload<{ select: typeof DELIVERY_SELECT }>;

async function payloadOf(tx: Prisma.TransactionClient, row: DeliveryRow, baseUrl: string): Promise<RegressionWebhookPayload> {
  const [unit, links] = await Promise.all([
    metricUnit(tx, row),
    regressionLinks(tx, { id: row.projectId, slug: row.project.slug, defaultBranch: row.project.defaultBranch }, row),
  ]);
  return buildRegressionWebhookPayload(
    { slug: row.project.slug, name: row.project.name },
    {
      id: row.id,
      kind: row.kind,
      metric: row.metric,
      unit,
      beforeValue: row.beforeValue,
      afterValue: row.afterValue,
      deltaPct: row.deltaPct,
      pValue: row.pValue,
      endpoint: row.endpoint?.name ?? null,
      protocol: row.endpoint?.protocol ?? null,
      firstRun: {
        id: row.firstRun.id,
        label: row.firstRun.label,
        branch: row.firstRun.gitBranch,
        commit: row.firstRun.gitCommit,
      },
      links,
    },
    baseUrl,
  );
}

/** The unit of a regression's metric: built-in metrics from the registry, custom ones as the first run reported them. */
async function metricUnit(db: Prisma.TransactionClient, row: DeliveryRow): Promise<string | null> {
  const key = customMetricKey(row.metric);
  if (key === null) return metricDefinition(row.metric)?.unit ?? null;
  const metric = await db.metric.findFirst({
    where: { runId: row.firstRun.id, endpointId: row.endpointId, key },
    select: { unit: true },
  });
  return metric?.unit ?? null;
}

interface AttemptResult {
  status: number | null;
  error: string | null;
  delivered: boolean;
  retryable: boolean;
}

/** One POST of the payload: delivered on a 2xx; a 3xx/4xx is final; a network error, timeout or 5xx may be retried. */
async function postOnce(url: string, payload: unknown, options: WebhookAttemptOptions): Promise<AttemptResult> {
  if (safeHttpUrl(url) === null) {
    return { status: null, error: "The webhook URL is not an http(s) URL; nothing was sent", delivered: false, retryable: false };
  }
  // Checked again before sending: the name may point somewhere else now (DNS rebinding).
  const refused = await webhookTargetProblem(url);
  if (refused !== null) return { status: null, error: `Refused: ${refused}; nothing was sent`, delivered: false, retryable: false };
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  try {
    const response = await (options.fetch ?? fetch)(url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "Benchtrack-Webhook/1" },
      body: JSON.stringify(payload),
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    // The receiver's body is never kept nor shown: it could be anything the target holds.
    await response.body?.cancel().catch(() => undefined);
    if (response.ok) return { status: response.status, error: null, delivered: true, retryable: false };
    return { status: response.status, error: `HTTP ${response.status}`, delivered: false, retryable: response.status >= 500 };
  } catch (error) {
    return { status: null, error: isTimeout(error) ? `No answer within ${timeoutMs} ms` : errorText(error), delivered: false, retryable: true };
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

/** "fetch failed: connect ECONNREFUSED 127.0.0.1:9" — fetch hides the useful part in `cause`. */
function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`.slice(0, 500);
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "(invalid URL)";
  }
}

