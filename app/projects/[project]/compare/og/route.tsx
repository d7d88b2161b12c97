import { ImageResponse } from "next/og";
import { comparisonImageContent } from "@/server/domain/report/comparison-image";
import { projectRoute } from "@/server/http/route";
import { compareQuerySchema, compareRequestOf } from "@/server/schemas/compare";
import { compareProjectRuns } from "@/server/services/compare";

const VERDICT_COLOUR = { regressed: "#dc2626", improved: "#16a34a", unchanged: "#64748b", inconclusive: "#d97706" } as const;
const TONE_COLOUR = { bad: "#f87171", good: "#4ade80", muted: "#94a3b8" } as const;

// GET /projects/:project/compare/og?base=&head= — the Open Graph preview of a comparison link
export const GET = projectRoute({ access: "read", share: "compare" }, async ({ db, slug, readQuery, baseUrl }) => {
  const result = await compareProjectRuns(db, slug, compareRequestOf(readQuery(compareQuerySchema)), baseUrl);
  const content = comparisonImageContent(result.comparison, result.base.runs, result.head.runs);
  const muted = "#94a3b8";

  return new ImageResponse(
    (
      <div style={{ display: "flex", flexDirection: "column", width: "100%", height: "100%", padding: 64, background: "#0b1120", color: "#e2e8f0", fontSize: 32 }}>
        <div style={{ display: "flex", alignItems: "center", gap: 16, fontSize: 30, color: muted }}>
          <div style={{ width: 28, height: 28, borderRadius: 6, background: "#818cf8" }} />
          Benchtrack · {result.project.name}
        </div>
        <div style={{ display: "flex", marginTop: 28, fontSize: 76, fontWeight: 700, color: VERDICT_COLOUR[content.verdict], textTransform: "capitalize" }}>
          {content.verdict}
        </div>
        <div style={{ display: "flex", marginTop: 4, fontSize: 34 }}>{content.sides}</div>
        {content.reason !== null && (
          <div style={{ display: "flex", marginTop: 18, fontSize: 28, color: "#fcd34d", lineHeight: 1.3 }}>{content.reason}</div>
        )}
        <div style={{ display: "flex", flexDirection: "column", marginTop: 22, gap: 8 }}>
          {content.changesHeading !== null && <div style={{ display: "flex", fontSize: 26, color: muted }}>{content.changesHeading}</div>}
          {content.changes.map((change) => (
            <div key={change.label} style={{ display: "flex", gap: 20 }}>
              <span style={{ color: TONE_COLOUR[change.tone] }}>{change.delta}</span>
              <span>{change.label}</span>
              {!change.isJudged && <span style={{ color: "#fbbf24" }}>not judged</span>}
            </div>
          ))}
          {content.footnote !== null && <div style={{ display: "flex", fontSize: 26, color: muted }}>{content.footnote}</div>}
        </div>
      </div>
    ),
    { width: 1200, height: 630, headers: { "Cache-Control": "public, max-age=300" } },
  );
});
