import { z } from "zod";

/** Wire schemas of a project's webhook settings, its delivery log, and the webhook call's body. */

export const webhookUrlSchema = z
  .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
  .max(1024)
  .describe("Where regression events are POSTed as JSON (a Slack or Mattermost incoming webhook works as is).");

export const putWebhookSchema = z
  .object({ url: webhookUrlSchema.nullable().describe("The webhook URL; null turns webhooks off.") })
  .strict()
  .describe("The project's webhook (admin).");

export const webhookDeliverySchema = z.object({
  id: z.string(),
  regressionId: z.string().nullable().describe("Null once the regression was deleted."),
  url: z.string().describe("The URL it was sent to."),
  attempts: z.number().int().describe("Calls made; network errors, timeouts and 5xx answers are retried."),
  lastStatus: z.number().int().nullable().describe("HTTP status of the last attempt; null when no answer came."),
  lastError: z.string().nullable().describe("Why the last attempt failed; null once delivered."),
  deliveredAt: z.iso.datetime().nullable().describe("When a 2xx answer came; null if never."),
  createdAt: z.iso.datetime(),
});

export const webhookSettingsSchema = z
  .object({
    url: z.string().nullable().describe("The webhook URL; null when webhooks are off."),
    deliveries: z.array(webhookDeliverySchema).describe("The last 50 deliveries, newest first."),
  })
  .describe("The project's webhook and its delivery log.");

export const regressionWebhookPayloadSchema = z
  .object({
    event: z.literal("regression.opened"),
    text: z.string().describe("A one-line summary with a link, in Slack's mrkdwn (what Slack shows)."),
    project: z.object({ slug: z.string(), name: z.string() }),
    regression: z.object({
      id: z.string(),
      kind: z.enum(["regression", "improvement"]),
      endpoint: z.string().nullable().describe("The endpoint's name; null for the run aggregate (all endpoints)."),
      metric: z.string().describe('"p95", "mean", "throughput", "errorRate", "metrics.<key>"…'),
      before: z.number().describe("Mean before the change point (ms for latency, req/s, 0..1 for errorRate)."),
      after: z.number().describe("Mean from the first regressed run on."),
      deltaPct: z.number().describe("(after − before) / before × 100."),
      pValue: z.number().nullable(),
      firstRunId: z.string().describe("The first run after the change point."),
      firstRun: z.object({
        label: z.string().nullable(),
        branch: z.string().nullable(),
        commit: z.string().nullable(),
        url: z.url().describe("The run's page."),
      }),
      url: z.url().describe("The regression in the project's regression inbox."),
      compareUrl: z
        .url()
        .nullable()
        .describe("The runs before the change vs the runs from it on (same label, default branch); null without both."),
      trendUrl: z.url().describe("The endpoint's trend page, the change point marked."),
    }),
  })
  .describe(
    "The JSON body Benchtrack POSTs to a project's webhook URL (Content-Type: application/json) for each regression an upload opens.",
  );

/** The JSON body of a webhook call. */
export type RegressionWebhookPayload = z.infer<typeof regressionWebhookPayloadSchema>;
