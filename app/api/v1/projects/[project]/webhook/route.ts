import { getDb } from "@/server/db";
import { authenticate } from "@/server/http/auth";
import { requireAdmin } from "@/server/services/auth";
import { apiRoute, otherMethods, readJsonBody } from "@/server/http/route";
import { requireProject } from "@/server/services/projects";
import { parseProjectSlug } from "@/server/schemas/projects";
import { putWebhookSchema } from "@/server/schemas/webhooks";
import { getWebhookSettings, setWebhookUrl } from "@/server/services/webhook-settings";

type Params = { project: string };

// GET /api/v1/projects/:project/webhook — the webhook URL and the last 50 deliveries (admin)
export const GET = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  requireAdmin(await authenticate(request, db));
  const project = await requireProject(db, slug);
  return Response.json(await getWebhookSettings(db, project));
});

// PUT /api/v1/projects/:project/webhook — set the webhook URL, or turn webhooks off with null (admin)
export const PUT = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  requireAdmin(await authenticate(request, db));
  const project = await requireProject(db, slug);
  const body = await readJsonBody(request);
  const input = putWebhookSchema.parse(body);
  const updated = await setWebhookUrl(db, project.id, input.url);
  return Response.json(await getWebhookSettings(db, updated));
});

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PATCH, DELETE } = otherMethods("GET", "PUT");
