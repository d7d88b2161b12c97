import { InputError } from "@/server/domain/input-error";
import { getDb } from "@/server/db";
import { requireRead } from "@/server/http/auth";
import { apiRoute, notFound, requireProject } from "@/server/http/route";
import { parseProjectSlug } from "@/server/http/schemas";
import { publicBaseUrl } from "@/server/public-url";
import { toRunDocument } from "@/server/services/run-document";
import { renderRunMarkdown } from "@/server/services/run-markdown";
import { computeRunVerdict, parseFailOn, verdictComparison } from "@/server/services/run-verdict";

// GET /api/v1/projects/:project/runs/:id/verdict — the CI verdict of a stored run (?fail_on=regression,sla|none)
export const GET = apiRoute<{ project: string; id: string }>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  await requireRead(request, db);
  const project = await requireProject(db, slug);
  const failOn = parseFailOn(new URL(request.url).searchParams.get("fail_on"), project.failOn);
  if ("error" in failOn) throw new InputError("malformed", failOn.error, [{ path: "query.fail_on", message: failOn.error }]);
  const baseUrl = publicBaseUrl(request.headers);
  const verdict = await computeRunVerdict(db, project, params.id, failOn);
  if (!verdict) throw notFound(`Run "${params.id}"`);
  if (/text\/markdown/i.test(request.headers.get("accept") ?? "")) {
    const run = toRunDocument(project, verdict.run, verdict.grade, baseUrl);
    return new Response(renderRunMarkdown(run, verdict, baseUrl), { headers: { "Content-Type": "text/markdown; charset=utf-8" } });
  }
  return Response.json({
    id: params.id,
    verdict: verdict.verdict,
    reasons: verdict.reasons,
    failOn: verdict.failOn,
    comparison: verdictComparison(verdict, baseUrl, slug),
    grade: verdict.grade,
  });
});
