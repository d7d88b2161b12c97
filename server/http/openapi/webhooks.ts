import { putWebhookSchema, slackMessageSchema, teamsMessageSchema, webhookPayloadSchema, webhookSettingsSchema } from "../../schemas/webhooks";
import type { ApiResource } from "./building-blocks";
import { answer, operation, projectParameter, request, success } from "./building-blocks";

/** The project's webhook (incident notifications), its delivery log, and the bodies it sends. */
export const webhooksResource: ApiResource = {
  schemas: {
    PutWebhook: request(putWebhookSchema),
    WebhookSettings: answer(webhookSettingsSchema),
    WebhookPayload: answer(webhookPayloadSchema),
    SlackWebhookMessage: answer(slackMessageSchema),
    TeamsWebhookMessage: answer(teamsMessageSchema),
  },
  paths: {
    "/api/v1/projects/{project}/webhook": {
      parameters: [projectParameter],
      get: operation({
        operationId: "getWebhook",
        tag: "projects",
        summary: "The webhook (URL, format, digest, signing secret) and the last 50 deliveries, newest first (its maintainers)",
        description:
          "When an incident opens or changes state (or once a day, with digest \"daily\"), Benchtrack POSTs one message to the project's webhook URL " +
          "in its format: a WebhookPayload (json), a SlackWebhookMessage (slack) or a TeamsWebhookMessage (teams). Every call is signed: " +
          "X-Benchtrack-Timestamp: <unix seconds> and X-Benchtrack-Signature: sha256=<hex HMAC-SHA256 of \"<timestamp>.<raw body>\"> with the " +
          "project's secret; X-Benchtrack-Delivery names the delivery (a repeat has the same) and X-Benchtrack-Event the event. " +
          "5 s timeout; network errors, timeouts and 5xx answers are retried 8 times with backoff (about 42–85 minutes in all); 3xx and 4xx are final. " +
          "Every delivery is logged here with its attempts (docs/notifications.md).",
        security: "token",
        responses: { "200": success("The webhook settings.", "WebhookSettings") },
      }),
      put: operation({
        operationId: "putWebhook",
        tag: "projects",
        summary: "Change the webhook's URL (null turns it off), format, digest or signing secret; fields left out stay (its maintainers)",
        description: "A webhook set without a secret gets one (whsec_ and 64 hex digits); give `secret` to use your own.",
        security: "token",
        body: "PutWebhook",
        responses: { "200": success("The webhook settings.", "WebhookSettings") },
      }),
    },
  },
};
