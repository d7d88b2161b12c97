import { otherMethods, projectRoute } from "@/server/http/route";
import { putWebhookSchema } from "@/server/schemas/webhooks";
import { getProjectWebhook, updateWebhookSettings } from "@/server/services/notifications";

// GET /api/v1/projects/:project/webhook — the webhook (URL, format, digest, signing secret) and the last 50 deliveries (admin)
export const GET = projectRoute({ access: "admin" }, async ({ db, slug }) => Response.json(await getProjectWebhook(db, slug)));

// PUT /api/v1/projects/:project/webhook — change the URL (null: off), format, digest or secret; fields left out stay (admin)
export const PUT = projectRoute({ access: "admin" }, async ({ db, principal, slug, readBody }) => {
  const changes = putWebhookSchema.parse(await readBody());
  return Response.json(await updateWebhookSettings(db, principal, slug, changes));
});

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PATCH, DELETE } = otherMethods("GET", "PUT");
