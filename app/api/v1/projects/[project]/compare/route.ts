import { parseRunSelector } from "@/server/domain/compare/selector";
import { getDb } from "@/server/db";
import { requireRead } from "@/server/http/auth";
import { ApiError } from "@/server/http/errors";
import { apiRoute, requireProject } from "@/server/http/route";
import { compareQuerySchema, parseProjectSlug } from "@/server/http/schemas";
import { publicBaseUrl } from "@/server/public-url";
import { compareSelections } from "@/server/services/compare-runs";
import { renderComparisonMarkdown } from "@/server/services/compare-markdown";
import { runPageUrl } from "@/server/services/run-document";

// GET /api/v1/projects/:project/compare?base=<selector>&head=<selector> — before/after comparison (JSON or Markdown)
export const GET = apiRoute<{ project: string }>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  await requireRead(request, db);
  const project = await requireProject(db, slug);
  const url = new URL(request.url);
  const query = compareQuerySchema.parse(Object.fromEntries(url.searchParams));
  const result = await compareSelections(db, project, {
    base: parseRunSelector(query.base, "query.base"),
    head: parseRunSelector(query.head, "query.head"),
    last: query.last ?? null,
    test: query.test,
  });
  for (const side of ["base", "head"] as const) {
    if (result[side].runs.length === 0) {
      throw new ApiError("not_found", `No runs match the ${side} selector "${query[side]}"`, [
        { path: `query.${side}`, message: "matches no run of this project" },
      ]);
    }
  }
  const baseUrl = publicBaseUrl(request.headers);
  const pageUrl = `${baseUrl}/projects/${encodeURIComponent(slug)}/compare?${new URLSearchParams(
    Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined).map(([key, value]) => [key, String(value)])),
  )}`;
  if (wantsMarkdown(request)) {
    return new Response(renderComparisonMarkdown(result, pageUrl), {
      headers: { "Content-Type": "text/markdown; charset=utf-8" },
    });
  }
  const runLinks = (side: typeof result.base) => ({
    selector: side.selector,
    runs: side.runs.map((run) => ({ ...run, startedAt: run.startedAt.toISOString(), url: runPageUrl(baseUrl, slug, run.id) })),
  });
  return Response.json({
    url: pageUrl,
    base: runLinks(result.base),
    head: runLinks(result.head),
    verdict: result.comparison.verdict,
    counts: result.comparison.counts,
    kind: result.comparison.kind,
    options: result.options,
    endpoints: result.comparison.endpoints,
    aggregate: result.comparison.aggregate,
    warnings: result.comparison.warnings,
  });
});

function wantsMarkdown(request: Request): boolean {
  const accept = request.headers.get("accept") ?? "";
  return /text\/markdown/i.test(accept) || new URL(request.url).searchParams.get("format") === "markdown";
}

