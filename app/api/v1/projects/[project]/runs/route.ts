import { InputError } from "@/server/domain/input-error";
import { parseMetadataQuery } from "@/server/domain/parsers";
import { getDb } from "@/server/db";
import { getEnv } from "@/server/env";
import { authenticate, requireRead, requireUploadTo } from "@/server/http/auth";
import { ApiError } from "@/server/http/errors";
import { apiRoute, notFound, requireProject } from "@/server/http/route";
import { listRunsQuerySchema, parseProjectSlug } from "@/server/http/schemas";
import { readUpload } from "@/server/http/upload-body";
import { publicBaseUrl } from "@/server/public-url";
import { IdempotencyConflictError, ProjectNotFoundError, ingestRun } from "@/server/services/ingest-run";
import { findProject } from "@/server/services/projects";
import { runPageUrl, toRunDocument } from "@/server/services/run-document";
import { renderRunMarkdown } from "@/server/services/run-markdown";
import { computeRunVerdict, parseFailOn, verdictComparison } from "@/server/services/run-verdict";
import { detectRegressionsAfterRun } from "@/server/services/regression-detection";
import { deliverRegressionWebhooks } from "@/server/services/webhooks";
import { decodeCursor, listRuns } from "@/server/services/runs";

type Params = { project: string };

// POST /api/v1/projects/:project/runs — upload a run (a tool's raw output, the Benchtrack format, or a wrapper)
export const POST = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  const principal = await authenticate(request, db);
  const project = await findProject(db, slug);
  if (principal.kind !== "admin") {
    requireUploadTo(principal, project?.id ?? null);
  }
  const url = new URL(request.url);
  const format = url.searchParams.get("format");
  const metadata = parseMetadataQuery(url.searchParams);
  const idempotencyKey = request.headers.get("idempotency-key") ?? url.searchParams.get("idempotency_key");
  if (idempotencyKey !== null && (idempotencyKey.length === 0 || idempotencyKey.length > 255)) {
    throw new InputError("malformed", "The idempotency key must be 1 to 255 characters", [
      { path: "header.idempotency-key", message: "bad length" },
    ]);
  }
  const failOn = parseFailOn(url.searchParams.get("fail_on"), project?.failOn ?? ["regression", "sla"]);
  if ("error" in failOn) throw new InputError("malformed", failOn.error, [{ path: "query.fail_on", message: failOn.error }]);
  const env = getEnv();
  const upload = await readUpload(
    request,
    {
      maxBodyBytes: env.BENCHTRACK_MAX_BODY_BYTES,
      maxDecompressedBytes: env.BENCHTRACK_MAX_DECOMPRESSED_BYTES,
      maxDocumentBytes: env.BENCHTRACK_MAX_BODY_BYTES,
    },
    format,
  );

  let outcome;
  try {
    outcome = await ingestRun(db, {
      projectSlug: slug,
      createProjectIfMissing: principal.kind === "admin",
      upload,
      format,
      metadata,
      idempotencyKey,
    });
  } catch (error) {
    if (error instanceof ProjectNotFoundError) throw notFound(`Project "${slug}"`);
    if (error instanceof IdempotencyConflictError) {
      throw new ApiError("conflict", error.message, [{ path: "header.idempotency-key", message: `first used by run ${error.runId}` }]);
    }
    throw error;
  }

  const baseUrl = publicBaseUrl(request.headers);
  // Read again only when this upload created the project.
  const stored = project ?? (await findProject(db, slug));
  if (!stored) throw new ApiError("internal", "The project could not be read back");
  if (outcome.status === "created") {
    const detected = await detectRegressionsAfterRun(db, stored, outcome.runId);
    // Webhooks never hold up or fail an upload: delivery (with retries) continues after the answer.
    if (detected.opened.length > 0) void deliverRegressionWebhooks(db, detected.opened, baseUrl);
  }
  const verdict = await computeRunVerdict(db, stored, outcome.runId, failOn);
  if (!verdict) throw new ApiError("internal", "The stored run could not be read back");
  const run = toRunDocument(stored, verdict.run, verdict.grade, baseUrl);
  const status = outcome.status === "created" ? 201 : 200;
  if (/text\/markdown/i.test(request.headers.get("accept") ?? "")) {
    return new Response(renderRunMarkdown(run, verdict, baseUrl), {
      status,
      headers: { "Content-Type": "text/markdown; charset=utf-8" },
    });
  }
  return Response.json(
    {
      id: outcome.runId,
      url: runPageUrl(baseUrl, slug, outcome.runId),
      project: slug,
      format: outcome.format,
      endpoints: outcome.endpoints,
      verdict: verdict.verdict,
      reasons: verdict.reasons,
      failOn: verdict.failOn,
      comparison: verdictComparison(verdict, baseUrl, slug),
      grade: run.grade,
      run,
    },
    { status },
  );
});

// GET /api/v1/projects/:project/runs — list runs, newest first (filters: label, branch, tool; cursor pagination)
export const GET = apiRoute<Params>(async (request, params) => {
  const slug = parseProjectSlug(params.project);
  const db = await getDb();
  await requireRead(request, db);
  const project = await requireProject(db, slug);
  const query = listRunsQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const cursor = query.cursor ? decodeCursor(query.cursor) : null;
  if (query.cursor && !cursor) throw new ApiError("bad_request", "The cursor is not valid", [{ path: "query.cursor", message: "use nextCursor as given" }]);
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
