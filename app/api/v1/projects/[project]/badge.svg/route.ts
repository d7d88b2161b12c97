import { getDb } from "@/server/db";
import { renderGradeBadge } from "@/server/domain/sla/badge";
import { requireRead } from "@/server/http/auth";
import { apiRoute, otherMethods } from "@/server/http/route";
import { isPrivate } from "@/server/services/auth";
import { requireProject } from "@/server/services/projects";
import { parseProjectSlug } from "@/server/schemas/projects";
import { gradeParsedRun, getSlaPolicy } from "@/server/services/sla";
import { loadParsedRun } from "@/server/services/stored-runs";

// GET /api/v1/projects/:project/badge.svg — SLA grade of the latest run on the default branch (?label= narrows it)
export const GET = apiRoute<{ project: string }>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  await requireRead(request, db);
  const project = await requireProject(db, slug);
  const label = new URL(request.url).searchParams.get("label") ?? undefined;
  const latest =
    (await db.run.findFirst({
      where: { projectId: project.id, gitBranch: project.defaultBranch, label },
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
      select: { id: true },
    })) ??
    (await db.run.findFirst({
      where: { projectId: project.id, label },
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
      select: { id: true },
    }));
  const loaded = latest ? await loadParsedRun(db, project.id, latest.id) : null;
  const grade = loaded ? gradeParsedRun(await getSlaPolicy(db, project.id), loaded.run) : undefined;
  return new Response(renderGradeBadge(grade), {
    // A private server's badge is for the caller only: no shared cache may keep it.
    headers: { "Content-Type": "image/svg+xml; charset=utf-8", "Cache-Control": isPrivate() ? "private, no-store" : "public, max-age=60" },
  });
});

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
