import { customMetricKey, metricDefinition } from "../domain/metrics";
import { safeHttpUrl } from "../domain/urls";
import { buildRegressionWebhookPayload } from "../domain/webhooks/regression-payload";
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import type { RegressionWebhookPayload } from "../schemas/webhooks";
import { REGRESSION_SELECT, regressionLinks } from "./regressions";
import { webhookTargetProblem } from "./webhook-targets";

/**
 * Regression webhooks: when an upload opens regressions, each one is POSTed as JSON to the project's
 * webhook URL (Slack-compatible: the `text` field is what a Slack or Mattermost incoming webhook shows).
 * Every delivery is recorded in WebhookDelivery with its attempts, for the settings page's delivery log
 * (./webhook-settings.ts). The body itself is pure: server/domain/webhooks/regression-payload.ts.
 *
 * Delivery never throws: a receiver that is down must not fail an upload. Network errors, timeouts and
 * 5xx answers are retried (WEBHOOK_RETRY_DELAYS_MS between attempts); 4xx and 3xx are final (redirects
 * are not followed: a webhook URL should be the receiver itself). The URL may embed a secret (Slack's
 * does), so logs name the project and the URL's origin only.
 *
 * Callers on a request path should not await it: `void deliverRegressionWebhooks(...)`. The worst case is
 * (attempts × timeout + delays) per regression, deliveries being sequential to keep their order.
 */

export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [500, 2000];
export const WEBHOOK_TIMEOUT_MS = 5000;

export interface WebhookDeliveryOptions {
  fetch?: typeof fetch;
  /** Delay before each retry; its length is the number of retries (default [500, 2000]: 3 attempts). */
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
}

export async function deliverRegressionWebhooks(
  db: PrismaClient,
  regressionIds: readonly string[],
  baseUrl: string,
  options: WebhookDeliveryOptions = {},
): Promise<void> {
  if (regressionIds.length === 0) return;
  let regressions;
  try {
    regressions = await db.regression.findMany({
      where: { id: { in: [...regressionIds] }, project: { webhookUrl: { not: null } } },
      select: DELIVERY_SELECT,
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
  } catch (error) {
    console.error("Webhook delivery: could not load the regressions:", errorText(error));
    return;
  }
  for (const regression of regressions) {
    try {
      await deliverOne(db, regression, baseUrl, options);
    } catch (error) {
      console.error(`Webhook delivery for project "${regression.project.slug}" failed:`, errorText(error));
    }
  }
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

async function deliverOne(
  db: PrismaClient,
  row: DeliveryRow,
  baseUrl: string,
  options: WebhookDeliveryOptions,
): Promise<void> {
  const url = row.project.webhookUrl;
  if (url === null) return;
  const [unit, links] = await Promise.all([
    metricUnit(db, row),
    regressionLinks(db, { id: row.projectId, slug: row.project.slug, defaultBranch: row.project.defaultBranch }, row),
  ]);
  const payload = buildRegressionWebhookPayload(
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
  const delivery = await db.webhookDelivery.create({
    data: {
      projectId: row.projectId,
      regressionId: row.id,
      url,
      payload,
    },
    select: { id: true },
  });
  const outcome = await postWithRetries(url, payload, options, (attempt) =>
    db.webhookDelivery.update({
      where: { id: delivery.id },
      data: {
        attempts: attempt.attempts,
        lastStatus: attempt.status,
        lastError: attempt.error,
        deliveredAt: attempt.delivered ? new Date() : null,
      },
      select: { id: true },
    }),
  );
  if (!outcome.delivered) {
    console.warn(
      `Webhook for project "${row.project.slug}" to ${safeOrigin(url)} not delivered after ${outcome.attempts} attempt(s): ${outcome.error}`,
    );
  }
}

/** The unit of a regression's metric: built-in metrics from the registry, custom ones as the first run reported them. */
async function metricUnit(db: PrismaClient, row: DeliveryRow): Promise<string | null> {
  const key = customMetricKey(row.metric);
  if (key === null) return metricDefinition(row.metric)?.unit ?? null;
  const metric = await db.metric.findFirst({
    where: { runId: row.firstRun.id, endpointId: row.endpointId, key },
    select: { unit: true },
  });
  return metric?.unit ?? null;
}

interface AttemptState {
  attempts: number;
  status: number | null;
  error: string | null;
  delivered: boolean;
}

/**
 * POSTs the payload until it is accepted (2xx), a final answer comes (3xx/4xx), or the retries run out.
 * `record` is called after every attempt, so the delivery log shows progress even if the process dies.
 */
async function postWithRetries(
  url: string,
  payload: RegressionWebhookPayload,
  options: WebhookDeliveryOptions,
  record: (state: AttemptState) => Promise<unknown>,
): Promise<AttemptState> {
  const state: AttemptState = { attempts: 0, status: null, error: null, delivered: false };
  if (safeHttpUrl(url) === null) {
    state.error = "The webhook URL is not an http(s) URL; nothing was sent";
    await record(state);
    return state;
  }
  // Checked again before sending: the name may point somewhere else now (DNS rebinding).
  const refused = await webhookTargetProblem(url);
  if (refused !== null) {
    state.error = `Refused: ${refused}; nothing was sent`;
    await record(state);
    return state;
  }
  const doFetch = options.fetch ?? fetch;
  const delays = options.retryDelaysMs ?? WEBHOOK_RETRY_DELAYS_MS;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const body = JSON.stringify(payload);
  for (let attempt = 0; ; attempt++) {
    let retryable: boolean;
    state.attempts = attempt + 1;
    try {
      const response = await doFetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": "Benchtrack-Webhook/1" },
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
      state.status = response.status;
      if (response.ok) {
        state.delivered = true;
        state.error = null;
        await response.body?.cancel().catch(() => undefined);
      } else {
        // The receiver's body is never kept nor shown: it could be anything the target holds.
        await response.body?.cancel().catch(() => undefined);
        state.error = `HTTP ${response.status}`;
      }
      retryable = response.status >= 500;
    } catch (error) {
      state.status = null;
      state.error = isTimeout(error) ? `No answer within ${timeoutMs} ms` : errorText(error);
      retryable = true;
    }
    await record(state);
    const delay = delays[attempt];
    if (state.delivered || !retryable || delay === undefined) return state;
    await sleep(delay);
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
