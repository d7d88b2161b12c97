import { putWebhookSchema, regressionWebhookPayloadSchema, webhookSettingsSchema } from "../../schemas/webhooks";
import type { ApiResource } from "./building-blocks";
import { answer, operation, projectParameter, request, success } from "./building-blocks";

/** The project's regression webhook and its delivery log. */
export const webhooksResource: ApiResource = {
  schemas: {
    PutWebhook: request(putWebhookSchema),
    WebhookSettings: answer(webhookSettingsSchema),
    RegressionWebhookPayload: answer(regressionWebhookPayloadSchema),
  },
  paths: {
    "/api/v1/projects/{project}/webhook": {
      parameters: [projectParameter],
      get: operation({
        operationId: "getWebhook",
        tag: "projects",
        summary: "The webhook URL and the last 50 deliveries, newest first (admin)",
        description:
          "For each regression an upload opens, Benchtrack POSTs a RegressionWebhookPayload to the project's webhook URL " +
          "(5 s timeout; network errors, timeouts and 5xx answers are retried twice, after 0.5 s and 2 s; 3xx and 4xx are final). " +
          "Every delivery is logged here with its attempts.",
        security: "token",
        responses: { "200": success("The webhook settings.", "WebhookSettings") },
      }),
      put: operation({
        operationId: "putWebhook",
        tag: "projects",
        summary: "Set the webhook URL (http or https), or turn webhooks off with null (admin)",
        security: "token",
        body: "PutWebhook",
        responses: { "200": success("The webhook settings.", "WebhookSettings") },
      }),
    },
  },
};
