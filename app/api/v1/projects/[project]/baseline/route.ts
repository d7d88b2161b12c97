import { getDb } from "@/server/db";
import { authenticate, requireRead } from "@/server/http/auth";
import { apiRoute, otherMethods, readJsonBody } from "@/server/http/route";
import { parseProjectSlug } from "@/server/schemas/projects";
import { listBaselinePins, pinBaseline, unpinBaseline } from "@/server/services/baselines";

type Params = { project: string };

// GET /api/v1/projects/:project/baseline — pinned baselines (none: each run is compared with its label's recent runs on the default branch)
export const GET = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  await requireRead(request, db);
  return Response.json(await listBaselinePins(db, slug));
});

// PUT /api/v1/projects/:project/baseline — pin runs or a label as the baseline of a label (admin)
export const PUT = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  const principal = await authenticate(request, db);
  const body = await readJsonBody(request);
  return Response.json(await pinBaseline(db, principal, slug, body));
});

// DELETE /api/v1/projects/:project/baseline?for_label=<label> — unpin (admin); without for_label, the pin for every label
export const DELETE = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  const principal = await authenticate(request, db);
  await unpinBaseline(db, principal, slug, new URL(request.url).searchParams.get("for_label"));
  return new Response(null, { status: 204 });
});

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PATCH } = otherMethods("GET", "PUT", "DELETE");
