import { effectiveFailOn } from "../../domain/fail-on";
import type { PrismaClient } from "../../generated/prisma/client";
import type { UploadQuery } from "../../schemas/runs";
import type { Principal } from "../access";
import { isServerAdmin, requireAdmin, requireProjectAccess } from "../access";
import type { IngestProject, JudgeUpload } from "./ingest-run";
import { ingestRun } from "./ingest-run";
import { projectBySlugSql } from "../projects";
import { ServiceError, recordGateOutcome, recordUpload, takeRateLimitWithRead, trackUpload } from "../platform";
import type { ReceivedUpload } from "./received-upload";
import { runPageUrl } from "../runs";
import type { RunIdentity } from "../runs";
import type { RunGateResult } from "../gate";
import { findGateHead, judgeRun, judgeWithHistoryOffThread, readGateHistory, gateAnswer } from "../gate";
import type { GateHead } from "../gate";
import { keptGateChanges } from "../../domain/gate/judge";

/**
 * The upload use case, the one path every run takes in (the REST upload, the demo seed), in one pass:
 * the project read once (before the body: authorizeUpload), the run parsed and judged against its
 * baseline and SLA for CI from memory, then stored whole with its gate result and the job that looks for
 * regressions in its series' history (server/services/platform/job-queue.ts), in one transaction (ingest-run.ts).
 * See docs/architecture.md.
 */

/** Who may upload where, decided before the body is read: the project (null: an admin creates it). */
export interface UploadTarget {
  projectSlug: string;
  project: IngestProject | null;
  /** Only the admin token creates a project by uploading to it. */
  mayCreateProject: boolean;
}

/**
 * The project (null: none of that slug), read in the one statement that counts an upload against the
 * limits of the caller's token and of its address (no address: not counted). Uploads and history imports.
 */
export async function readProjectCountingUpload(db: PrismaClient, principal: Principal, projectSlug: string, address: string | null): Promise<IngestProject | null> {
  const subjects = address === null ? [] : [principal.kind === "project-token" ? `token:${principal.tokenId}` : `principal:${principal.kind}`, address];
  const [project = null] = await takeRateLimitWithRead<IngestProject>(db, "upload", subjects, projectBySlugSql(projectSlug));
  return project;
}

/**
 * The upload's admission after its caller is known (server/http/auth.ts admit): counted against the
 * upload limits of its token and of `address` (the client's; null, an in-process call, is not limited:
 * 429 over either), and the project read, in one statement; then whether this principal may upload there.
 */
export async function authorizeUpload(db: PrismaClient, principal: Principal, projectSlug: string, address: string | null = null): Promise<UploadTarget> {
  const project = await readProjectCountingUpload(db, principal, projectSlug, address);
  // An unknown project: only a server admin creates one by uploading to it.
  if (project === null) requireCreateOnUpload(principal);
  else await requireProjectAccess(db, principal, project, "upload");
  return { projectSlug, project, mayCreateProject: isServerAdmin(principal) };
}

/** Creating a project by uploading to it is a server-wide act: a server admin's; a project token hears it is of another project. */
function requireCreateOnUpload(principal: Principal): void {
  if (principal.kind === "project-token") throw new ServiceError("forbidden", "This token belongs to another project");
  requireAdmin(principal);
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

/**
 * An upload, whole: read, judged, stored and answered. While it runs, this process's coalescing job
 * queues wait for a lull (platform/upload-activity.ts).
 */
export function uploadRun(db: PrismaClient, request: UploadRunRequest) {
  return trackUpload(() => uploadRunNow(db, request));
}

async function uploadRunNow(db: PrismaClient, { target, upload, query, baseUrl, signal }: UploadRunRequest) {
  const failOnOf = (project: IngestProject) => effectiveFailOn(query.failOn, project.failOn);
  // The history read here, the judgement in its thread; the run is stored with it (ingest-run.ts).
  const judge: JudgeUpload<RunGateResult> = async (client, project, head) => {
    const history = await readGateHistory(client, project, head.forBaseline);
    const gate = await judgeWithHistoryOffThread(project, history, head.loaded, failOnOf(project), signal);
    return {
      gate,
      kept: {
        outcome: gate.outcome,
        outcomeReasons: gate.reasons,
        regressed: gate.comparison.regressions.length > 0,
        gateChanges: keptGateChanges(gate.comparison.changes),
      },
    };
  };
  const ingested = await ingestRun(db, {
    projectSlug: target.projectSlug,
    project: target.project,
    createProjectIfMissing: target.mayCreateProject,
    upload,
    format: query.format,
    metadata: query.metadata,
    budget: query.budget,
    idempotencyKey: query.idempotencyKey,
    signal,
    baseUrl,
    judge,
  });
  const { project } = ingested;
  recordUpload(ingested.format, ingested.status === "created" ? "stored" : "replayed", ingested.status === "created" ? 201 : 200);
  if (ingested.status === "created" && ingested.gate) recordGateOutcome(ingested.gate.outcome);
  // A replay answers as the first upload would now: the stored run, judged again.
  const gate = (ingested.status === "created" ? ingested.gate : null) ?? (await judgeRun(db, project, ingested.run, failOnOf(project)));
  const own = await gateAnswer(db, project, gate, baseUrl);
  // An A/B job's base run answers as the job stands, told from its latest head run (the PR comment shows
  // the head's table and links the head's page), with this run's place in the job.
  const jobHead = await latestAbHead(db, project.id, ingested.run);
  const answer = jobHead ? await gateAnswer(db, project, await judgeRun(db, project, jobHead, failOnOf(project)), baseUrl) : own;
  const ab = jobHead && answer.fields.ab && gate.ab ? { ...answer.fields.ab, side: gate.ab.side, pair: gate.ab.pair } : answer.fields.ab;
  return {
    created: ingested.status === "created",
    runId: ingested.run.id,
    json: {
      id: ingested.run.id,
      url: runPageUrl(baseUrl, project.slug, ingested.run.id),
      project: project.slug,
      format: ingested.format,
      endpoints: ingested.endpoints,
      ...answer.fields,
      ab,
      run: own.run,
    },
    markdown: answer.markdown,
  };
}

/** The newest head run of the A/B job a base run belongs to (same tool, label and testbed); null for any other run, or before the job has one. */
async function latestAbHead(db: PrismaClient, projectId: string, run: RunIdentity): Promise<GateHead | null> {
  if (run.abJob === null || run.abSide !== "base") return null;
  const head = await db.run.findFirst({
    where: { projectId, abJob: run.abJob, abSide: "head", tool: run.tool, label: run.label, testbed: run.testbed },
    orderBy: [{ abPair: "desc" }, { startedAt: "desc" }, { id: "desc" }],
    select: { id: true },
  });
  return head ? findGateHead(db, projectId, head.id) : null;
}
