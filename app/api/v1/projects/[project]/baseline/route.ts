import { otherMethods, projectRoute } from "@/server/http/route";
import { listBaselinePins, pinBaseline, unpinBaseline } from "@/server/services/gate";

// GET /api/v1/projects/:project/baseline — pinned baselines (none: each run is compared with its label's recent runs on the default branch)
export const GET = projectRoute({ access: "read" }, async ({ db, slug }) => Response.json(await listBaselinePins(db, slug)));

// PUT /api/v1/projects/:project/baseline — pin runs or a label as the baseline of a label (its maintainers)
export const PUT = projectRoute({ access: "write" }, async ({ db, principal, slug, readBody }) =>
  Response.json(await pinBaseline(db, principal, slug, await readBody())),
);

// DELETE /api/v1/projects/:project/baseline?for_label=<label> — unpin (its maintainers); without for_label, the pin for every label
export const DELETE = projectRoute({ access: "write" }, async ({ db, principal, slug, searchParams }) => {
  await unpinBaseline(db, principal, slug, searchParams.get("for_label"));
  return new Response(null, { status: 204 });
});

// Any other method: 405 in the error envelope, with Allow.
export const { POST, PATCH } = otherMethods("GET", "PUT", "DELETE");
