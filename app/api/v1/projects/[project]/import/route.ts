import { getEnv } from "@/server/env";
import { importLimitsOf, readImportLines } from "@/server/http/ndjson-lines";
import { otherMethods, projectRoute } from "@/server/http/route";
import { importProject } from "@/server/services/transfer";

// POST /api/v1/projects/:project/import — a project's export read back into this project (admin): every line
// validated, all written in one transaction or nothing; a file imported twice creates nothing new.
export const POST = projectRoute({ access: "admin" }, async ({ db, principal, request, slug }) => {
  const answer = await importProject(db, principal, slug, readImportLines(request, importLimitsOf(getEnv())));
  return Response.json(answer, { status: 200 });
});

// Any other method: 405 in the error envelope, with Allow.
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
