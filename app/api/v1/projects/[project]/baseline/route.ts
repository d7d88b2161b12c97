import { getDb } from "@/server/db";
import { authenticate, requireAdmin, requireRead } from "@/server/http/auth";
import { ApiError } from "@/server/http/errors";
import { apiRoute, notFound, readJsonBody, requireProject } from "@/server/http/route";
import { parseProjectSlug } from "@/server/http/schemas";
import { baselinePinSchema, listBaselinePins, pinBaseline, unpinBaseline } from "@/server/services/baselines";

type Params = { project: string };

// GET /api/v1/projects/:project/baseline — pinned baselines (none: each run is compared with its label's recent runs on the default branch)
export const GET = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  await requireRead(request, db);
  const project = await requireProject(db, slug);
  return Response.json({ defaultBranch: project.defaultBranch, pins: await listBaselinePins(db, project.id) });
});

// PUT /api/v1/projects/:project/baseline — pin runs or a label as the baseline of a label (admin)
export const PUT = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  requireAdmin(await authenticate(request, db));
  const project = await requireProject(db, slug);
  const body = await readJsonBody(request);
  const input = baselinePinSchema.parse(body);
  if (input.runIds) {
    const found = await db.run.count({ where: { projectId: project.id, id: { in: input.runIds } } });
    if (found !== new Set(input.runIds).size) {
      throw new ApiError("bad_request", "Some runs are not in this project", [{ path: "runIds", message: "unknown run id" }]);
    }
  }
  return Response.json(await pinBaseline(db, project.id, input));
});

// DELETE /api/v1/projects/:project/baseline?for_label=<label> — unpin (admin); without for_label, the pin for every label
export const DELETE = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  requireAdmin(await authenticate(request, db));
  const project = await requireProject(db, slug);
  const removed = await unpinBaseline(db, project.id, new URL(request.url).searchParams.get("for_label"));
  if (removed === 0) throw notFound("Pinned baseline");
  return new Response(null, { status: 204 });
});
