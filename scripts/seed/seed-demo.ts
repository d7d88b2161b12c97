import { runMetadataSchema } from "../../server/domain/parsers";
import type { PrismaClient } from "../../server/generated/prisma/client";
import { deleteProject } from "../../server/services/deletion";
import { findProject } from "../../server/services/projects";
import { uploadRun } from "../../server/services/ingest";
import { readFixtureUpload } from "./fixture-uploads";
import { GRPC_PROJECT, HTTP_PROJECT, MICRO_PROJECT, planDemoRuns } from "./plan";
import type { DemoPlan } from "./plan";
import { runQueuedJobs } from "../../server/jobs/worker";
import { jobQueueFor } from "../../server/services/platform";

/**
 * Loads the demo history into a migrated database through the upload use case (`uploadRun`, as
 * `POST …/runs` does: stored, then change-point detection, so main's slowdown opens regressions in
 * the inbox and marks the trend charts), then marks what it wrote as demo data. Safe to run again: each planned run has a
 * fixed idempotency key, so a second seed finds every run by it and writes nothing new.
 */
const IDEMPOTENCY_PREFIX = "seed-demo:v1:";
const REPO_URL = "https://github.com/example/listings";
const DESCRIPTION_TAIL =
  "Demo data loaded by `npm run seed:demo` from the bundled fixtures: real tool outputs recorded against a " +
  "synthetic listings service. The numbers are the files' own; dates, branches, commits and labels are made up.";

const DEMO_PROJECTS = [
  {
    slug: HTTP_PROJECT,
    name: "Listings API (demo)",
    description: `HTTP load tests (k6 summaries, Locust CSV sets). ${DESCRIPTION_TAIL}`,
    repoUrl: REPO_URL,
  },
  {
    slug: GRPC_PROJECT,
    name: "Listings gRPC (demo)",
    description: `gRPC load tests (ghz, one report per method, five per run; the tags the fixtures were recorded with are left out). ${DESCRIPTION_TAIL}`,
    repoUrl: REPO_URL,
  },
  {
    slug: MICRO_PROJECT,
    name: "Microbenchmarks (demo)",
    description:
      "Go microbenchmarks (go test -bench -benchmem -count 5, piped to curl): a nightly on main and one pull request. " +
      "Demo data loaded by `npm run seed:demo` from real go test runs of a small Go package (scripts/seed/go-bench), " +
      "the last ones after a real change made JoinInts slower. The numbers are the runs' own; dates, branches and commits are made up.",
    repoUrl: "https://github.com/example/microbench",
  },
] as const;

/** The COMPARISON_DAY rounds of one project, as a comparison page would take them. */
export interface DemoComparison {
  projectSlug: string;
  baseRunIds: string[];
  headRunIds: string[];
}

export interface SeedSummary {
  projects: string[];
  comparisons: DemoComparison[];
  runs: number;
  created: number;
  replayed: number;
  plan: Omit<DemoPlan, "runs">;
}

export class NotADemoProjectError extends Error {
  constructor(readonly slug: string) {
    super(`Project "${slug}" exists and is not a demo project; the demo seed leaves it alone`);
    this.name = "NotADemoProjectError";
  }
}

export async function seedDemo(
  db: PrismaClient,
  options: { now?: Date; baseUrl?: string; onProgress?: (done: number, total: number) => void } = {},
): Promise<SeedSummary> {
  const baseUrl = options.baseUrl ?? "http://localhost:3000";
  const { runs, ...plan } = planDemoRuns(options.now ?? new Date());
  for (const project of DEMO_PROJECTS) await prepareProject(db, project);

  const runIds: string[] = [];
  const comparisons = new Map<string, DemoComparison>();
  let created = 0;
  for (const [index, run] of runs.entries()) {
    const idempotencyKey = `${IDEMPOTENCY_PREFIX}${run.key}`;
    // Seeded before (its dates then were another day's): found by its key, kept as it is. Re-uploading
    // it would be a 409, since idempotency compares metadata (started_at) as well as content.
    const project = await findProject(db, run.projectSlug);
    const seeded = project
      ? await db.run.findUnique({ where: { projectId_idempotencyKey: { projectId: project.id, idempotencyKey } }, select: { id: true } })
      : null;
    const outcome = seeded ? { runId: seeded.id, created: false } : await uploadRun(db, {
      target: { projectSlug: run.projectSlug, project, mayCreateProject: true },
      upload: readFixtureUpload(run.fixture),
      query: {
        format: null,
        metadata: runMetadataSchema.parse(run.metadata),
        idempotencyKey,
        failOn: null,
      },
      baseUrl,
    });
    runIds.push(outcome.runId);
    if (run.comparisonSide) {
      const comparison = comparisons.get(run.projectSlug) ?? {
        projectSlug: run.projectSlug,
        baseRunIds: [],
        headRunIds: [],
      };
      (run.comparisonSide === "base" ? comparison.baseRunIds : comparison.headRunIds).push(outcome.runId);
      comparisons.set(run.projectSlug, comparison);
    }
    if (outcome.created) created++;
    options.onProgress?.(index + 1, runs.length);
  }
  // Only the runs the seed wrote (or found again): an upload someone added by hand stays as it is.
  await db.run.updateMany({ where: { id: { in: runIds }, isDemo: false }, data: { isDemo: true } });
  // Change-point detection runs as a job after uploads on main (one per series): run them now, so
  // the demo's inbox is filled when the seed ends (a running server's workers would do the same).
  const jobs = await runQueuedJobs({ db, queue: await jobQueueFor(db) });
  if (jobs.failed > 0) throw new Error(`Seeding: ${jobs.failed} background job(s) failed (see the log above)`);

  return {
    projects: DEMO_PROJECTS.map((project) => project.slug),
    comparisons: [...comparisons.values()],
    runs: runs.length,
    created,
    replayed: runs.length - created,
    plan,
  };
}

/**
 * Creates the project as demo data before any run goes in, so an interrupted seed leaves nothing that
 * looks real; refuses a project of the same slug that a user made.
 */
async function prepareProject(db: PrismaClient, project: (typeof DEMO_PROJECTS)[number]): Promise<void> {
  const existing = await db.project.findUnique({ where: { slug: project.slug }, select: { isDemo: true } });
  if (existing && !existing.isDemo) throw new NotADemoProjectError(project.slug);
  const details = { name: project.name, description: project.description, repoUrl: project.repoUrl, isDemo: true };
  await db.project.upsert({
    where: { slug: project.slug },
    create: { slug: project.slug, ...details },
    update: details,
    select: { id: true },
  });
}

/** What `npm run seed:demo -- --remove` did with each demo project. */
export interface RemoveSummary {
  removed: { slug: string; runs: number }[];
  /** Demo slugs held by a project a user made: left alone. */
  kept: string[];
}

/**
 * Takes away what seedDemo made: each demo project (only one marked as demo data; a user's project of
 * the same slug is left alone) with everything of it, through the same deletion as
 * DELETE /api/v1/projects/:project, with its audit entry. Running it again removes nothing more.
 */
export async function removeDemo(db: PrismaClient): Promise<RemoveSummary> {
  const summary: RemoveSummary = { removed: [], kept: [] };
  for (const project of DEMO_PROJECTS) {
    const existing = await db.project.findUnique({ where: { slug: project.slug }, select: { isDemo: true } });
    if (!existing) continue;
    if (!existing.isDemo) {
      summary.kept.push(project.slug);
      continue;
    }
    const deleted = await deleteProject(db, { kind: "admin" }, project.slug, { viaSession: false, actor: "npm run seed:demo -- --remove" });
    summary.removed.push({ slug: project.slug, runs: deleted.deleted.runs });
  }
  return summary;
}
