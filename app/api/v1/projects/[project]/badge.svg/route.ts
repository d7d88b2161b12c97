import { renderGateBadge } from "@/server/domain/gate/badge";
import { renderGradeBadge } from "@/server/domain/sla/badge";
import { otherMethods, projectRoute } from "@/server/http/route";
import { badgeQuerySchema } from "@/server/schemas/badges";
import { readsForAnyone } from "@/server/services/access";
import { getBadgeGrade, getGateBadge } from "@/server/services/projects";

// GET /api/v1/projects/:project/badge.svg?kind=sla|gate — the SLA grade (the default) or the CI gate and open incidents of the default branch (?label= narrows the run)
export const GET = projectRoute({ access: "read" }, async ({ db, slug, readQuery }) => {
  const { kind, label } = readQuery(badgeQuerySchema);
  const svg = kind === "gate" ? renderGateBadge(await getGateBadge(db, slug, label)) : renderGradeBadge(await getBadgeGrade(db, slug, label));
  return new Response(svg, {
    // A private project's badge is for the caller only: no shared cache may keep it.
    headers: { "Content-Type": "image/svg+xml; charset=utf-8", "Cache-Control": (await readsForAnyone(db, slug)) ? "public, max-age=60" : "private, no-store" },
  });
});

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
