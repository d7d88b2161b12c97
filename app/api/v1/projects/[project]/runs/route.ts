import { decodeCursor } from "@/server/domain/run-cursor";
import { getEnv } from "@/server/env";
import { clientAddress } from "@/server/http/auth";
import { countingRefusedUploads } from "@/server/http/observe";
import { jsonOrMarkdown, otherMethods, projectRoute } from "@/server/http/route";
import { readUpload, uploadLimitsOf } from "@/server/http/upload-body";
import { listRunsQuerySchema, parseUploadQuery } from "@/server/schemas/runs";
import { ServiceError } from "@/server/services/platform";
import { requireProject } from "@/server/services/projects";
import { runPageUrl } from "@/server/services/runs";
import { listRuns } from "@/server/services/runs";
import { authorizeUpload, uploadRun } from "@/server/services/ingest";

// POST /api/v1/projects/:project/runs — upload a run (a tool's raw output, the Benchtrack format, or a wrapper)
export const POST = countingRefusedUploads(projectRoute({ access: "upload" }, async ({ request, db, principal, slug, searchParams, baseUrl }) => {
  // Who may upload is settled before a byte of the body is read.
  const target = await authorizeUpload(db, principal, slug, clientAddress(request));
  const query = parseUploadQuery(searchParams, request.headers);
  const upload = await readUpload(request, uploadLimitsOf(getEnv()), query.format);
  const answer = await uploadRun(db, { target, upload, query, baseUrl, signal: request.signal });
  return jsonOrMarkdown(request, answer, answer.created ? 201 : 200);
}));

// GET /api/v1/projects/:project/runs — list runs, newest first (filters: label, branch, tool; cursor pagination)
export const GET = projectRoute({ access: "read" }, async ({ db, slug, readQuery, baseUrl }) => {
  const project = await requireProject(db, slug);
  const query = readQuery(listRunsQuerySchema);
  const cursor = query.cursor ? decodeCursor(query.cursor) : null;
  if (query.cursor && !cursor) throw new ServiceError("bad_request", "The cursor is not valid", [{ path: "query.cursor", message: "use nextCursor as given" }]);
  const page = await listRuns(db, project.id, { ...query, cursor });
  return Response.json({
    runs: page.runs.map((run) => ({
      id: run.id,
      url: runPageUrl(baseUrl, slug, run.id),
      label: run.label,
      round: run.round,
      tool: run.tool,
      format: run.format,
      startedAt: run.startedAt.toISOString(),
      durationSeconds: run.durationSeconds,
      git: { branch: run.gitBranch, commit: run.gitCommit, pullRequest: run.pullRequest },
      aggregate: run.aggregate,
    })),
    nextCursor: page.nextCursor,
  });
});

// Any other method: 405 in the error envelope, with Allow.
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");
