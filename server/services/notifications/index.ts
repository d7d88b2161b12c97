/**
 * Notifications: webhook targets (checked and pinned), their settings, deliveries and digests.
 *
 * The module's public face: code outside server/services/notifications/ imports from here, never from its files
 * (eslint.config.js holds that line and which modules this one may use).
 */
export { queueWebhookDigests } from "./webhook-digest";
export { getProjectWebhook, getWebhookDelivery, rotateWebhookSecret, updateWebhookSettings } from "./webhook-settings";
export { attemptWebhookDelivery, queueIncidentNotifications } from "./webhooks";
export type { WebhookAttemptOptions } from "./webhooks";
