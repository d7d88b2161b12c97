import { jsonOrMarkdown, otherMethods, projectRoute } from "@/server/http/route";
import { compareQuerySchema, compareRequestOf } from "@/server/schemas/compare";
import { compareProjectRuns } from "@/server/services/compare";

// GET /api/v1/projects/:project/compare?base=<selector>&head=<selector> — before/after comparison (JSON or Markdown)
export const GET = projectRoute({ access: "read", share: "compare" }, async ({ request, db, slug, readQuery, baseUrl }) => {
  const query = readQuery(compareQuerySchema);
  const result = await compareProjectRuns(db, slug, compareRequestOf(query), baseUrl);
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
