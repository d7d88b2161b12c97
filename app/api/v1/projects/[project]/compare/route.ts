import { getDb } from "@/server/db";
import { requireRead } from "@/server/http/auth";
import { apiRoute, jsonOrMarkdown, otherMethods } from "@/server/http/route";
import { publicBaseUrl } from "@/server/public-url";
import { compareQuerySchema } from "@/server/schemas/compare";
import { parseProjectSlug } from "@/server/schemas/projects";
import { compareProjectRuns } from "@/server/services/compare-runs";

// GET /api/v1/projects/:project/compare?base=<selector>&head=<selector> — before/after comparison (JSON or Markdown)
export const GET = apiRoute<{ project: string }>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  await requireRead(request, db);
  const query = compareQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const result = await compareProjectRuns(
    db,
    slug,
    { base: query.base, head: query.head, last: query.last ?? null, test: query.test, tool: query.tool ?? null },
    publicBaseUrl(request.headers),
  );
  return jsonOrMarkdown(
    request,
    {
      json: {
        url: result.links.page,
        base: result.base,
        head: result.head,
        verdict: result.comparison.verdict,
        counts: result.comparison.counts,
        kind: result.comparison.kind,
        options: result.options,
        endpoints: result.comparison.endpoints,
        aggregate: result.comparison.aggregate,
        warnings: result.comparison.warnings,
        environment: result.comparison.environment,
        rounds: result.comparison.rounds,
        notComparable: result.comparison.notComparable,
        tools: result.links.perTool,
      },
      markdown: () => result.markdown,
    },
    200,
    query.format === "markdown",
  );
});

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
