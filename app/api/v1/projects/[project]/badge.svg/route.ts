import { renderGradeBadge } from "@/server/domain/sla/badge";
import { otherMethods, projectRoute } from "@/server/http/route";
import { isPrivate } from "@/server/services/access";
import { getBadgeGrade } from "@/server/services/projects";

// GET /api/v1/projects/:project/badge.svg — SLA grade of the latest run on the default branch (?label= narrows it)
export const GET = projectRoute({ access: "read" }, async ({ db, slug, searchParams }) => {
  const grade = await getBadgeGrade(db, slug, searchParams.get("label") ?? undefined);
  return new Response(renderGradeBadge(grade), {
    // A private server's badge is for the caller only: no shared cache may keep it.
    headers: { "Content-Type": "image/svg+xml; charset=utf-8", "Cache-Control": isPrivate() ? "private, no-store" : "public, max-age=60" },
  });
});

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
