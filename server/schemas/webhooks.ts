import { z } from "zod";
import { INCIDENT_STATES } from "../domain/incidents/state";
import { INCIDENT_EVENTS, WEBHOOK_DIGESTS, WEBHOOK_FORMATS } from "../domain/webhooks/incident-message";
import { ADAPTIVE_CARD_VERSION } from "../domain/webhooks/teams-message";
import { SLACK_LIMITS } from "../domain/webhooks/slack-message";
import { projectSlugSchema } from "./projects";

/**
 * Wire schemas of a project's webhook: its settings and delivery log, and the bodies it receives
 * (docs/notifications.md): Benchtrack's JSON (webhookPayloadSchema), a Slack Block Kit message
 * (slackMessageSchema, with Slack's limits) and a Microsoft Teams Adaptive Card message
 * (teamsMessageSchema). The bodies are built in server/domain/webhooks/, whose tests hold them to these.
 */

export const webhookUrlSchema = z
  .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
  .max(1024)
  .describe("Where incident notifications are POSTed (a Slack incoming webhook, a Teams Workflows webhook, or your own receiver).");

export const webhookFormatSchema = z
  .enum(WEBHOOK_FORMATS)
  .describe('The body: "json" (Benchtrack\'s JSON, with a Slack-compatible `text`), "slack" (Block Kit) or "teams" (an Adaptive Card).');

export const webhookDigestSchema = z
  .enum(WEBHOOK_DIGESTS)
  .describe('"off": a message when an incident opens or changes state; "daily": one digest a day instead (nothing when nothing happened).');

export const webhookSecretSchema = z
  .string()
  .min(16, "at least 16 characters")
  .max(200)
  .regex(/^[\x21-\x7e]+$/, "printable ASCII without spaces")
  .describe("The key of the calls' HMAC-SHA256 signature (X-Benchtrack-Signature). Made when a webhook is first set; set your own here.");

export const putWebhookSchema = z
  .object({
    url: webhookUrlSchema.nullable().optional().describe("The webhook URL; null turns webhooks off."),
    format: webhookFormatSchema.optional(),
    digest: webhookDigestSchema.optional(),
    secret: webhookSecretSchema.optional(),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: "give at least one of url, format, digest, secret" })
  .describe("Changes to the project's webhook (admin): fields left out stay as they are.");

export const webhookDeliverySchema = z.object({
  id: z.string(),
  event: z.string().describe('"incident.opened", "incident.state_changed", "incidents.digest" ("regression.opened" before incidents).'),
  format: webhookFormatSchema,
  incidentId: z.string().nullable().describe("The incident it is about; null for a digest and older calls."),
  incidentNumber: z.number().int().nullable().describe("That incident's number in the project (#3)."),
  regressionId: z.string().nullable().describe("Calls made before incidents were about one regression."),
  digestDay: z.string().nullable().describe('A digest\'s day, "2026-11-26" (UTC).'),
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
    format: webhookFormatSchema,
    digest: webhookDigestSchema,
    secret: z.string().nullable().describe("The signing secret; null until a webhook is set."),
    deliveries: z.array(webhookDeliverySchema).describe("The last 50 deliveries, newest first."),
  })
  .describe("The project's webhook and its delivery log.");

// ---- The JSON body (format "json") ----

const incidentStateSchema = z.enum(INCIDENT_STATES);

const stateChangeSchema = z
  .object({
    from: incidentStateSchema.nullable().describe("The state before; null when the incident was opened."),
    to: incidentStateSchema,
    by: z.string().describe('Who: "detector", or the person and credential ("alice (admin session)").'),
    at: z.iso.datetime(),
  })
  .describe("A change of an incident's state.");

const incidentInPayloadSchema = z.object({
  number: z.number().int().describe("The incident's number in its project (#3)."),
  state: incidentStateSchema.describe("Its state now (docs/incidents.md)."),
  stateLabel: z.string().describe('The state in words ("Backed out").'),
  url: z.url().describe("The incident's page."),
  openedAt: z.iso.datetime(),
  note: z.string().nullable(),
  links: z.array(z.string()).describe("Pull requests, commits, issues a person attached."),
  detectorVersion: z.number().int(),
  firstRun: z.object({
    id: z.string(),
    label: z.string().nullable(),
    branch: z.string().nullable(),
    commit: z.string().nullable(),
    startedAt: z.iso.datetime(),
    url: z.url().describe("The first run of the step."),
  }),
  endpoints: z.array(z.string().nullable()).describe("The endpoints (benchmarks) that stepped; null is the run aggregate."),
  regressionCount: z.number().int(),
  regressions: z
    .array(
      z.object({
        id: z.string(),
        endpoint: z.string().nullable(),
        metric: z.string().describe('"p95", "mean", "throughput", "errorRate", "metrics.<key>"…'),
        unit: z.string().nullable(),
        before: z.number().describe("Mean before the change point (ms for latency, req/s, 0..1 for errorRate)."),
        after: z.number().describe("Mean from the first run of the step on."),
        deltaPct: z.number().describe("(after − before) / before × 100."),
        pValue: z.number().nullable(),
        trendUrl: z.url(),
        compareUrl: z.url().nullable(),
      }),
    )
    .describe("Its regressions, the largest |Δ| first (at most 50: regressionCount says how many)."),
  compareUrl: z.url().nullable().describe("The largest regression's runs before vs after the step."),
});

export const webhookPayloadSchema = z
  .discriminatedUnion("event", [
    z.object({
      event: z.enum(INCIDENT_EVENTS),
      text: z.string().describe("A one-line summary with a link, in Slack's mrkdwn (what Slack or Mattermost shows)."),
      project: z.object({ slug: z.string(), name: z.string() }),
      incident: incidentInPayloadSchema,
      change: stateChangeSchema.describe("What happened: the opening (from null to open), or the change of state."),
    }),
    z.object({
      event: z.literal("incidents.digest"),
      text: z.string(),
      project: z.object({ slug: z.string(), name: z.string() }),
      digest: z.object({
        from: z.iso.datetime(),
        to: z.iso.datetime(),
        url: z.url().describe("The project's incidents."),
        opened: z.number().int().describe("Incidents opened in [from, to)."),
        changed: z.number().int().describe("Incidents opened before whose state changed in [from, to)."),
        active: z.number().int().describe("Incidents open or investigating now."),
      }),
      incidents: z
        .array(incidentInPayloadSchema.extend({ changes: z.array(stateChangeSchema).describe("Its changes in [from, to), oldest first.") }))
        .describe("The incidents opened or changed in the window, then the other active ones."),
    }),
  ])
  .describe(
    "The JSON body Benchtrack POSTs to a project's webhook (format json) when an incident opens or changes state, or once a day (digest). " +
      "Every call is signed: X-Benchtrack-Timestamp and X-Benchtrack-Signature (sha256=<hex HMAC-SHA256 of \"<timestamp>.<body>\">).",
  );

export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;

// ---- Slack (format "slack"): the Block Kit subset Benchtrack writes, within Slack's limits ----

const slackPlainText = (max: number) => z.object({ type: z.literal("plain_text"), text: z.string().min(1).max(max), emoji: z.boolean().optional() }).strict();
const slackMrkdwn = (max: number) => z.object({ type: z.literal("mrkdwn"), text: z.string().min(1).max(max) }).strict();
const slackText = (max: number) => z.union([slackPlainText(max), slackMrkdwn(max)]);

export const slackBlockSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("header"), text: slackPlainText(SLACK_LIMITS.headerText) }).strict(),
  z
    .object({
      type: z.literal("section"),
      text: slackText(SLACK_LIMITS.sectionText).optional(),
      fields: z.array(slackText(SLACK_LIMITS.fieldText)).min(1).max(SLACK_LIMITS.fields).optional(),
    })
    .strict()
    .refine((block) => block.text !== undefined || block.fields !== undefined, "a section needs text or fields"),
  z.object({ type: z.literal("divider") }).strict(),
  z.object({ type: z.literal("context"), elements: z.array(slackText(SLACK_LIMITS.sectionText)).min(1).max(SLACK_LIMITS.contextElements) }).strict(),
  z
    .object({
      type: z.literal("actions"),
      elements: z
        .array(
          z
            .object({
              type: z.literal("button"),
              text: slackPlainText(SLACK_LIMITS.buttonText),
              url: z.url().max(SLACK_LIMITS.buttonUrl),
              action_id: z.string().min(1).max(255),
              style: z.enum(["primary", "danger"]).optional(),
            })
            .strict(),
        )
        .min(1)
        .max(SLACK_LIMITS.actionElements),
    })
    .strict(),
]);

export const slackMessageSchema = z
  .object({
    text: z.string().min(1).max(SLACK_LIMITS.text).describe("The notification's fallback text (mrkdwn)."),
    blocks: z.array(slackBlockSchema).min(1).max(SLACK_LIMITS.blocks),
  })
  .strict()
  .describe("The body of format slack: a Block Kit message for a Slack incoming webhook.");

export type SlackMessage = z.infer<typeof slackMessageSchema>;

// ---- Microsoft Teams (format "teams"): an Adaptive Card in a message ----

const teamsTextBlockSchema = z
  .object({
    type: z.literal("TextBlock"),
    text: z.string().min(1),
    wrap: z.literal(true),
    size: z.enum(["Small", "Default", "Medium", "Large"]).optional(),
    weight: z.enum(["Lighter", "Default", "Bolder"]).optional(),
    color: z.enum(["Default", "Good", "Warning", "Attention", "Accent"]).optional(),
    isSubtle: z.boolean().optional(),
    spacing: z.enum(["None", "Small", "Medium"]).optional(),
    separator: z.boolean().optional(),
  })
  .strict();

const teamsFactSetSchema = z
  .object({ type: z.literal("FactSet"), facts: z.array(z.object({ title: z.string(), value: z.string() }).strict()).min(1) })
  .strict();

/** A TextBlock, a FactSet, or a Container of TextBlocks (a digest's incident): the subset Benchtrack writes. */
export const teamsElementSchema = z.discriminatedUnion("type", [
  teamsTextBlockSchema,
  teamsFactSetSchema,
  z
    .object({ type: z.literal("Container"), items: z.array(teamsTextBlockSchema).min(1), separator: z.boolean().optional(), spacing: z.literal("Medium").optional() })
    .strict(),
]);

export const teamsMessageSchema = z
  .object({
    type: z.literal("message"),
    attachments: z
      .array(
        z
          .object({
            contentType: z.literal("application/vnd.microsoft.card.adaptive"),
            contentUrl: z.null(),
            content: z
              .object({
                $schema: z.literal("http://adaptivecards.io/schemas/adaptive-card.json"),
                type: z.literal("AdaptiveCard"),
                version: z.literal(ADAPTIVE_CARD_VERSION),
                fallbackText: z.string(),
                body: z.array(teamsElementSchema).min(1),
                actions: z.array(z.object({ type: z.literal("Action.OpenUrl"), title: z.string().min(1), url: z.url() }).strict()).max(6),
                msteams: z.object({ width: z.literal("Full") }).strict(),
              })
              .strict(),
          })
          .strict(),
      )
      .length(1),
  })
  .strict()
  .describe("The body of format teams: a message with one Adaptive Card, for a Teams Workflows (or incoming) webhook.");

export type TeamsMessage = z.infer<typeof teamsMessageSchema>;

// ---- Dashboard (tRPC) inputs ----

export const updateWebhookInputSchema = z
  .object({
    project: projectSlugSchema,
    url: webhookUrlSchema.nullable().optional(),
    format: webhookFormatSchema.optional(),
    digest: webhookDigestSchema.optional(),
  })
  .strict();

export const webhookDeliveryInputSchema = z.object({ project: projectSlugSchema, id: z.string().min(1).max(64) });
