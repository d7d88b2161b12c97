import { effectiveFailOn } from "../domain/fail-on";
import type { PrismaClient } from "../generated/prisma/client";
import type { UploadQuery } from "../schemas/runs";
import type { Principal } from "./auth";
import { requireUploadTo } from "./auth";
import { ServiceError } from "./errors";
import { ingestRun } from "./ingest-run";
import { findProject } from "./projects";
import type { ReceivedUpload } from "./received-upload";
import { runPageUrl } from "./run-document";
import { judgeRun, verdictAnswer } from "./run-verdict";

/**
 * The upload use case, the one path every run takes in (the REST upload, the demo seed): store the
 * run whole (with, in the same transaction, the job that looks for regressions in its series' history
 * and notifies the project's webhook: server/services/job-queue.ts), and judge the run against its
 * baseline and SLA for CI. See docs/architecture.md.
 */

/** Who may upload where, decided before the body is read: the project (null: an admin creates it). */
export interface UploadTarget {
  projectSlug: string;
  project: Awaited<ReturnType<typeof findProject>>;
  /** Only the admin token creates a project by uploading to it. */
  mayCreateProject: boolean;
}

export async function authorizeUpload(db: PrismaClient, principal: Principal, projectSlug: string): Promise<UploadTarget> {
  const project = await findProject(db, projectSlug);
  requireUploadTo(principal, project?.id ?? null);
  return { projectSlug, project, mayCreateProject: principal.kind === "admin" };
}

export interface UploadRunRequest {
  target: UploadTarget;
  upload: ReceivedUpload;
  query: UploadQuery;
  /** The public base URL the answer's links start with. */
  baseUrl: string;
  /** The request's: aborted when the client goes away (ingest-run.ts stops before storing). */
  signal?: AbortSignal;
}

export async function uploadRun(db: PrismaClient, { target, upload, query, baseUrl, signal }: UploadRunRequest) {
  const outcome = await ingestRun(db, {
    projectSlug: target.projectSlug,
    createProjectIfMissing: target.mayCreateProject,
    upload,
    format: query.format,
    metadata: query.metadata,
    idempotencyKey: query.idempotencyKey,
    signal,
    baseUrl,
  });
  // Read again only when this upload created the project.
  const project = target.project ?? (await findProject(db, target.projectSlug));
  if (!project) throw new ServiceError("internal", "The project could not be read back");

  const verdict = await judgeRun(db, project, outcome.run, effectiveFailOn(query.failOn, project.failOn));
  if (outcome.status === "created") {
    // What CI was told, kept with the run: the history's outcome column, and whether its gate found a
    // regression (such a run stays out of later baselines until triaged: domain/gate/baseline-window.ts).
    await db.run.update({
      where: { id: outcome.run.id },
      data: { outcome: verdict.outcome, outcomeReasons: verdict.reasons, regressed: verdict.comparison.regressions.length > 0 },
    });
  }
  const answer = await verdictAnswer(project, verdict, baseUrl);
  return {
    created: outcome.status === "created",
    runId: outcome.run.id,
    json: {
      id: outcome.run.id,
      url: runPageUrl(baseUrl, project.slug, outcome.run.id),
      project: project.slug,
      format: outcome.format,
      endpoints: outcome.endpoints,
      ...answer.fields,
      run: answer.run,
    },
    markdown: answer.markdown,
  };
}
