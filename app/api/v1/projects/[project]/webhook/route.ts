import { otherMethods, projectRoute } from "@/server/http/route";
import { putWebhookSchema } from "@/server/schemas/webhooks";
import { requireProject } from "@/server/services/projects";
import { getWebhookSettings, setWebhookUrl } from "@/server/services/webhook-settings";

// GET /api/v1/projects/:project/webhook — the webhook URL and the last 50 deliveries (admin)
export const GET = projectRoute({ access: "admin" }, async ({ db, slug }) =>
  Response.json(await getWebhookSettings(db, await requireProject(db, slug))),
);

// PUT /api/v1/projects/:project/webhook — set the webhook URL, or turn webhooks off with null (admin)
export const PUT = projectRoute({ access: "admin" }, async ({ db, slug, readBody }) => {
  const project = await requireProject(db, slug);
  const { url } = putWebhookSchema.parse(await readBody());
  return Response.json(await getWebhookSettings(db, await setWebhookUrl(db, project.id, url)));
});

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PATCH, DELETE } = otherMethods("GET", "PUT");
