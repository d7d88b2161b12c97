import { getDb } from "@/server/db";
import { getEnv } from "@/server/env";
import { authenticate, requireRead, takeUploadLimit } from "@/server/http/auth";
import { apiRoute, jsonOrMarkdown, otherMethods } from "@/server/http/route";
import { listRunsQuerySchema, parseUploadQuery } from "@/server/schemas/runs";
import { parseProjectSlug } from "@/server/schemas/projects";
import { readUpload } from "@/server/http/upload-body";
import { publicBaseUrl } from "@/server/public-url";
import { runPageUrl } from "@/server/services/run-document";
import { decodeCursor } from "@/server/domain/run-cursor";
import { listRuns } from "@/server/services/runs";
import { ServiceError } from "@/server/services/errors";
import { requireProject } from "@/server/services/projects";
import { authorizeUpload, uploadRun } from "@/server/services/upload-run";

type Params = { project: string };

// POST /api/v1/projects/:project/runs — upload a run (a tool's raw output, the Benchtrack format, or a wrapper)
export const POST = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  const principal = await authenticate(request, db);
  await takeUploadLimit(request, db, principal);
  // Who may upload is settled before a byte of the body is read.
  const target = await authorizeUpload(db, principal, slug);
  const query = parseUploadQuery(new URL(request.url).searchParams, request.headers);
  const env = getEnv();
  const upload = await readUpload(
    request,
    {
      maxBodyBytes: env.BENCHTRACK_MAX_BODY_BYTES,
      maxDecompressedBytes: env.BENCHTRACK_MAX_DECOMPRESSED_BYTES,
      maxDocumentBytes: env.BENCHTRACK_MAX_BODY_BYTES,
      maxLineChars: env.BENCHTRACK_MAX_NDJSON_LINE_CHARS,
    },
    query.format,
  );
  const answer = await uploadRun(db, { target, upload, query, baseUrl: publicBaseUrl(request.headers), signal: request.signal });
  return jsonOrMarkdown(request, answer, answer.created ? 201 : 200);
});

// GET /api/v1/projects/:project/runs — list runs, newest first (filters: label, branch, tool; cursor pagination)
export const GET = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  await requireRead(request, db);
  const project = await requireProject(db, slug);
  const query = listRunsQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const cursor = query.cursor ? decodeCursor(query.cursor) : null;
  if (query.cursor && !cursor) throw new ServiceError("bad_request", "The cursor is not valid", [{ path: "query.cursor", message: "use nextCursor as given" }]);
  const page = await listRuns(db, project.id, { ...query, cursor });
  const baseUrl = publicBaseUrl(request.headers);
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
