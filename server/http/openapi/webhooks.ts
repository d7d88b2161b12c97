import { putWebhookSchema, regressionWebhookPayloadSchema, webhookSettingsSchema } from "../../schemas/webhooks";
import type { ApiResource } from "./building-blocks";
import { answer, errorResponses, jsonContent, projectParameter, ref, request, SECURITY_BEARER } from "./building-blocks";

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
      get: {
        operationId: "getWebhook",
        tags: ["projects"],
        summary: "The webhook URL and the last 50 deliveries, newest first (admin)",
        description:
          "For each regression an upload opens, Benchtrack POSTs a RegressionWebhookPayload to the project's webhook URL " +
          "(5 s timeout; network errors, timeouts and 5xx answers are retried twice, after 0.5 s and 2 s; 3xx and 4xx are final). " +
          "Every delivery is logged here with its attempts.",
        security: SECURITY_BEARER,
        responses: {
          "200": { description: "The webhook settings.", content: jsonContent(ref("schemas", "WebhookSettings")) },
          ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "NotFound"),
        },
      },
      put: {
        operationId: "putWebhook",
        tags: ["projects"],
        summary: "Set the webhook URL (http or https), or turn webhooks off with null (admin)",
        security: SECURITY_BEARER,
        requestBody: { required: true, content: jsonContent(ref("schemas", "PutWebhook")) },
        responses: {
          "200": { description: "The webhook settings.", content: jsonContent(ref("schemas", "WebhookSettings")) },
          ...errorResponses("BadRequest", "Unauthorized", "Forbidden", "NotFound"),
        },
      },
    },
  },
};
