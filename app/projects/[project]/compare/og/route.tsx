import { ImageResponse } from "next/og";
import { formatDeltaPct } from "@/server/domain/format";
import { describeRunSet } from "@/server/domain/compare/run-names";
import { endpointDisplayName } from "@/server/domain/run";
import { getDb } from "@/server/db";
import { requireRead } from "@/server/http/auth";
import { apiRoute } from "@/server/http/route";
import { publicBaseUrl } from "@/server/public-url";
import { compareQuerySchema } from "@/server/schemas/compare";
import { parseProjectSlug } from "@/server/schemas/projects";
import { compareProjectRuns } from "@/server/services/compare-runs";

const VERDICT_COLOUR = { regressed: "#dc2626", improved: "#16a34a", unchanged: "#64748b", inconclusive: "#d97706" } as const;

// GET /projects/:project/compare/og?base=&head= — the Open Graph preview of a comparison link
export const GET = apiRoute<{ project: string }>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const query = compareQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const db = await getDb();
  await requireRead(request, db, { kind: "compare", project: slug, base: query.base, head: query.head, tool: query.tool ?? null });
  const result = await compareProjectRuns(
    db,
    slug,
    { base: query.base, head: query.head, last: query.last ?? null, test: query.test, tool: query.tool ?? null },
    publicBaseUrl(request.headers),
  );
  const { comparison, project } = result;
  const changes = [...comparison.endpoints, comparison.aggregate]
    .flatMap((endpoint) =>
      endpoint.metrics
        .filter((metric) => metric.verdict === "regressed" || metric.verdict === "improved")
        .map((metric) => ({ endpoint: endpointDisplayName(endpoint.name), metric })),
    )
    .sort((a, b) => Math.abs(b.metric.deltaPct ?? 0) - Math.abs(a.metric.deltaPct ?? 0))
    .slice(0, 4);
  const colour = VERDICT_COLOUR[comparison.verdict];

  return new ImageResponse(
    (
      <div style={{ display: "flex", flexDirection: "column", width: "100%", height: "100%", padding: 64, background: "#0b1120", color: "#e2e8f0", fontSize: 32 }}>
        <div style={{ display: "flex", alignItems: "center", gap: 16, fontSize: 30, color: "#94a3b8" }}>
          <div style={{ width: 28, height: 28, borderRadius: 6, background: "#818cf8" }} />
          Benchtrack · {project.name}
        </div>
        <div style={{ display: "flex", marginTop: 40, fontSize: 80, fontWeight: 700, color: colour, textTransform: "capitalize" }}>
          {comparison.verdict}
        </div>
        <div style={{ display: "flex", marginTop: 12, fontSize: 34 }}>
          {`${describeRunSet(result.base.runs)} → ${describeRunSet(result.head.runs)}`}
        </div>
        <div style={{ display: "flex", flexDirection: "column", marginTop: 36, gap: 10 }}>
          {changes.length === 0 ? (
            <div style={{ display: "flex", color: "#94a3b8" }}>No metric changed beyond the noise.</div>
          ) : (
            changes.map(({ endpoint, metric }) => (
              <div key={`${endpoint}-${metric.metric}`} style={{ display: "flex", gap: 20 }}>
                <span style={{ color: metric.verdict === "regressed" ? "#f87171" : "#4ade80" }}>
                  {formatDeltaPct(metric.deltaPct)}
                </span>
                <span>{`${endpoint} ${metric.metric}`}</span>
              </div>
            ))
          )}
        </div>
      </div>
    ),
    { width: 1200, height: 630, headers: { "Cache-Control": "public, max-age=300" } },
  );
});
