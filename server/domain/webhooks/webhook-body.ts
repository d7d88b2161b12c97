import type { NotificationMessage, WebhookFormat } from "./incident-message";
import { buildJsonPayload } from "./json-payload";
import { buildSlackMessage } from "./slack-message";
import { buildTeamsMessage } from "./teams-message";

/** The body of a message in a project's format: Benchtrack's JSON, a Slack Block Kit message, or a Teams card. */
export function buildWebhookBody(format: WebhookFormat, message: NotificationMessage, baseUrl: string) {
  if (format === "slack") return buildSlackMessage(message, baseUrl);
  if (format === "teams") return buildTeamsMessage(message, baseUrl);
  return buildJsonPayload(message, baseUrl);
}
