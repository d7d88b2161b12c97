import { formatMetricValue } from "@/components/lib/format";
import { STANDARD_METRICS } from "../domain/compare/metrics";
import { formatPValue, formatSignedPct } from "../domain/stats/format";
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import { regressionLinks } from "./regressions";

/**
 * Regression webhooks: when an upload opens regressions, each one is POSTed as JSON to the project's
 * webhook URL (Slack-compatible: the `text` field is what a Slack or Mattermost incoming webhook shows).
 * Every delivery is recorded in WebhookDelivery with its attempts, for the settings page's delivery log.
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
/** How much of a failed answer's body is kept in lastError. */
const MAX_ERROR_BODY_CHARS = 300;

export interface WebhookDeliveryOptions {
  fetch?: typeof fetch;
  /** Delay before each retry; its length is the number of retries (default [500, 2000]: 3 attempts). */
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
}

/** The JSON body of a webhook call (documented as RegressionWebhookPayload in the OpenAPI document). */
export interface RegressionWebhookPayload {
  event: "regression.opened";
  text: string;
  project: { slug: string; name: string };
  regression: {
    id: string;
    kind: "regression" | "improvement";
    /** Null: the run aggregate (all endpoints). */
    endpoint: string | null;
    metric: string;
    before: number;
    after: number;
    deltaPct: number;
    pValue: number | null;
    firstRunId: string;
    firstRun: { label: string | null; branch: string | null; commit: string | null; url: string };
    url: string;
    compareUrl: string | null;
    trendUrl: string;
  };
}

export interface RegressionForWebhook {
  id: string;
  kind: "regression" | "improvement";
  metric: string;
  /** The metric's unit when known ("ms", "req/s", "MB"); null for error rate and unknown custom metrics. */
  unit: string | null;
  beforeValue: number;
  afterValue: number;
  deltaPct: number;
  pValue: number | null;
  endpoint: string | null;
  firstRun: { id: string; label: string | null; branch: string | null; commit: string | null };
  /** The regression's links as the inbox gives them (regressionLinks), relative to the base URL. */
  links: { comparePath: string | null; trendPath: string };
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
      select: REGRESSION_SELECT,
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

/** How many deliveries the delivery log shows. */
export const DELIVERY_LOG_LENGTH = 50;

/** The project's webhook URL and its last deliveries, newest first (the delivery log). */
export async function getWebhookSettings(db: PrismaClient, project: { id: string; webhookUrl: string | null }) {
  const deliveries = await db.webhookDelivery.findMany({
    where: { projectId: project.id },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: DELIVERY_LOG_LENGTH,
    select: {
      id: true,
      regressionId: true,
      url: true,
      attempts: true,
      lastStatus: true,
      lastError: true,
      deliveredAt: true,
      createdAt: true,
    },
  });
  return {
    url: project.webhookUrl,
    deliveries: deliveries.map((delivery) => ({
      ...delivery,
      deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
      createdAt: delivery.createdAt.toISOString(),
    })),
  };
}

/** Sets (or, with null, clears) the project's webhook URL. The caller validates it (http/https only). */
export async function setWebhookUrl(db: PrismaClient, projectId: string, url: string | null) {
  return db.project.update({
    where: { id: projectId },
    data: { webhookUrl: url },
    select: { id: true, webhookUrl: true },
  });
}

const REGRESSION_SELECT = {
  id: true,
  projectId: true,
  metric: true,
  kind: true,
  beforeValue: true,
  afterValue: true,
  deltaPct: true,
  pValue: true,
  endpointId: true,
  status: true,
  statusChangedAt: true,
  statusChangedBy: true,
  createdAt: true,
  firstRunId: true,
  project: { select: { slug: true, name: true, webhookUrl: true, defaultBranch: true } },
  endpoint: { select: { name: true } },
  firstRun: { select: { id: true, label: true, round: true, gitBranch: true, gitCommit: true, startedAt: true } },
} satisfies Prisma.RegressionSelect;

type RegressionRow = Prisma.RegressionGetPayload<{ select: typeof REGRESSION_SELECT }>;

async function deliverOne(
  db: PrismaClient,
  row: RegressionRow,
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
      payload: payload as unknown as Prisma.InputJsonValue,
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

/** The unit of a regression's metric: standard metrics by name, custom ones from the first run's value. */
async function metricUnit(db: PrismaClient, row: RegressionRow): Promise<string | null> {
  const standard = STANDARD_METRICS.find((spec) => spec.metric === row.metric);
  if (standard) return standard.unit;
  if (/^p\d+(\.\d+)?$/.test(row.metric) || ["min", "max"].includes(row.metric)) return "ms";
  if (!row.metric.startsWith("metrics.")) return null;
  const metric = await db.metric.findFirst({
    where: { runId: row.firstRun.id, endpointId: row.endpointId, key: row.metric.slice("metrics.".length) },
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
  if (!isHttpUrl(url)) {
    state.error = "The webhook URL is not an http(s) URL; nothing was sent";
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
        const answer = await readSnippet(response);
        state.error = `HTTP ${response.status}${answer ? `: ${answer}` : ""}`;
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

async function readSnippet(response: Response): Promise<string> {
  try {
    const text = await response.text();
    return text.replace(/\s+/g, " ").trim().slice(0, MAX_ERROR_BODY_CHARS);
  } catch {
    return "";
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

function isHttpUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
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

// ---- The payload (pure) ----

/** Slack's mrkdwn needs &, < and > escaped in text; everything else is taken literally. */
function escapeSlack(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The webhook body for one regression; links are absolute under `baseUrl`. */
export function buildRegressionWebhookPayload(
  project: { slug: string; name: string },
  regression: RegressionForWebhook,
  baseUrl: string,
): RegressionWebhookPayload {
  const origin = baseUrl.replace(/\/+$/, "");
  const projectUrl = `${origin}/projects/${encodeURIComponent(project.slug)}`;
  const { firstRun } = regression;
  const firstRunUrl = `${projectUrl}/runs/${encodeURIComponent(firstRun.id)}`;
  const url = `${projectUrl}/regressions#regression-${encodeURIComponent(regression.id)}`;
  const compareUrl = regression.links.comparePath === null ? null : `${origin}${regression.links.comparePath}`;
  const trendUrl = `${origin}${regression.links.trendPath}`;

  const value = (number: number) => formatMetricValue(regression.metric, regression.unit, number);
  const where = regression.endpoint === null ? "all endpoints" : regression.endpoint;
  const runParts = [
    firstRun.label === null ? `run ${firstRun.id}` : `run "${firstRun.label}"`,
    firstRun.branch === null ? null : `on ${firstRun.branch}`,
    firstRun.commit === null ? null : `@ ${firstRun.commit.slice(0, 7)}`,
  ].filter((part) => part !== null);
  const stats = [`${value(regression.beforeValue)} → ${value(regression.afterValue)}`];
  if (regression.pValue !== null) stats.push(formatPValue(regression.pValue));
  const text =
    `${regression.kind === "regression" ? "Regression" : "Improvement"} in ${escapeSlack(project.name)}: ` +
    `${escapeSlack(regression.metric)} of ${escapeSlack(where)} ${formatSignedPct(regression.deltaPct)} ` +
    `(${stats.join(", ")}) since ${escapeSlack(runParts.join(" "))}. <${url}|Open in Benchtrack>`;

  return {
    event: "regression.opened",
    text,
    project: { slug: project.slug, name: project.name },
    regression: {
      id: regression.id,
      kind: regression.kind,
      endpoint: regression.endpoint,
      metric: regression.metric,
      before: regression.beforeValue,
      after: regression.afterValue,
      deltaPct: regression.deltaPct,
      pValue: regression.pValue,
      firstRunId: firstRun.id,
      firstRun: { label: firstRun.label, branch: firstRun.branch, commit: firstRun.commit, url: firstRunUrl },
      url,
      compareUrl,
      trendUrl,
    },
  };
}
