import { getDb } from "@/server/db";
import { requireRead } from "@/server/http/auth";
import { apiRoute, jsonOrMarkdown, otherMethods } from "@/server/http/route";
import { parseFailOn } from "@/server/domain/fail-on";
import { parseProjectSlug } from "@/server/schemas/projects";
import { publicBaseUrl } from "@/server/public-url";
import { getRunVerdict } from "@/server/services/run-verdict";

// GET /api/v1/projects/:project/runs/:id/verdict — the CI verdict of a stored run (?fail_on=regression,sla|none)
export const GET = apiRoute<{ project: string; id: string }>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  await requireRead(request, db);
  const failOn = parseFailOn(new URL(request.url).searchParams.get("fail_on"));
  return jsonOrMarkdown(request, await getRunVerdict(db, slug, params.id, failOn, publicBaseUrl(request.headers)));
});

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
