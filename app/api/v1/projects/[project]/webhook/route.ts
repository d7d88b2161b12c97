import { getDb } from "@/server/db";
import { authenticate, requireAdmin } from "@/server/http/auth";
import { ApiError } from "@/server/http/errors";
import { apiRoute, notFound } from "@/server/http/route";
import { parseProjectSlug } from "@/server/http/schemas";
import { putWebhookSchema } from "@/server/http/webhook-schema";
import { findProject } from "@/server/services/projects";
import { getWebhookSettings, setWebhookUrl } from "@/server/services/webhooks";

type Params = { project: string };

// GET /api/v1/projects/:project/webhook — the webhook URL and the last 50 deliveries (admin)
export const GET = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  requireAdmin(await authenticate(request, db));
  const project = await findProject(db, slug);
  if (!project) throw notFound(`Project "${slug}"`);
  return Response.json(await getWebhookSettings(db, project));
});

// PUT /api/v1/projects/:project/webhook — set the webhook URL, or turn webhooks off with null (admin)
export const PUT = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  requireAdmin(await authenticate(request, db));
  const project = await findProject(db, slug);
  if (!project) throw notFound(`Project "${slug}"`);
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw new ApiError("bad_request", "The body must be JSON", [{ path: "body", message: "not valid JSON" }]);
  }
  const input = putWebhookSchema.parse(body);
  const updated = await setWebhookUrl(db, project.id, input.url);
  return Response.json(await getWebhookSettings(db, updated));
});
