import { parseFailOn } from "@/server/domain/fail-on";
import { jsonOrMarkdown, otherMethods, projectRoute } from "@/server/http/route";
import { getRunGate } from "@/server/services/gate";

// GET /api/v1/projects/:project/runs/:id/verdict — the CI gate's outcome of a stored run (?fail_on=regression,sla|none);
// the path keeps the outcome's older public name
export const GET = projectRoute<{ project: string; id: string }, "read">({ access: "read", share: "run" }, async ({ request, db, primary, slug, params, searchParams, baseUrl }) => {
  const failOn = parseFailOn(searchParams.get("fail_on"));
  return jsonOrMarkdown(request, await getRunGate(db, primary, slug, params.id, failOn, baseUrl));
});

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
