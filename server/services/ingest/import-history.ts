/**
 * Importing a benchmark history kept by another tool (docs/uploading.md, "Importing history from
 * github-action-benchmark and Bencher"): github-action-benchmark's gh-pages data.js (or data.json), or a
 * Bencher history (NDJSON lines of BMF runs). Each entry becomes one run with its commit and its own date
 * as its start, stored as an upload stores a run (store-run.ts), all in ONE transaction: the whole file or
 * nothing.
 *
 * - Idempotent: each run's idempotency key is the source with a hash of what identifies the entry (the suite,
 *   commit and date; for Bencher the branch, testbed, commit and date), so importing the file again, or a
 *   longer version of it, stores only the entries not imported before (`skipped` counts the others).
 * - Not judged: an imported run has no CI gate outcome (as runs stored before outcomes were kept); it joins
 *   the baselines of later uploads as any run of its series does.
 * - Seen as if uploaded in date order: the runs are stored oldest first with their own start times, their
 *   weeks marked for the trend rollups (the refresh-rollups job, as an upload queues it), and for each series
 *   on the default branch one detection job from its oldest imported run, so every window over the imported
 *   runs is examined. That job records regressions and incidents but queues NO webhook (`notify: false`):
 *   an import announces nothing old.
 */
import type { HistoryEntry } from "../../domain/parsers/history-entries";
import type { PrismaClient } from "../../generated/prisma/client";
import { Prisma } from "../../generated/prisma/client";
import type { HistorySource, ImportAnswer } from "../../schemas/imports";
import type { Principal } from "../access";
import { requireProjectAccess } from "../access";
import { jobQueueFor, notFound, readHistoryInPool, ServiceError } from "../platform";
import type { CoalescedJob } from "../platform";
import { defaultBranchSeriesKey, newRunId, runPageUrl } from "../runs";
import type { IngestProject } from "./ingest-run";
import { readProjectCountingUpload } from "./upload-run";
import { storeRun } from "./store-run";
import { actorOf, recordAudit } from "../audit";

export interface ImportHistoryRequest {
  /** The project as authorizeImport read it. */
  project: IngestProject;
  /** Who imports (the `history.import` audit entry names them). */
  principal: Principal;
  source: HistorySource;
  /** The file as sent (data.js with or without its `window.BENCHMARK_DATA = ` prefix; Bencher's NDJSON). */
  text: string;
  /** The branch every run is on (default: the project's default branch; a Bencher line's own branch wins). */
  branch: string | null;
  /** The testbed of every run (a Bencher line's own testbed wins). */
  testbed: string | null;
  /** The label of a Bencher history's runs (github-action-benchmark's runs are labelled by their suite). */
  label: string | null;
  baseUrl: string;
  /** The request's: reading the file stops when the client leaves. */
  signal?: AbortSignal;
}

type ImportedRun = ImportAnswer["runs"][number];

const NOT_JUDGED = { outcome: null, outcomeReasons: [], regressed: null, gateChanges: [] };

/**
 * Who may import, settled before the body is read: the admin token or a token of this project (a read
 * token, another project's token: 403), counted against the upload limits of the token and the client's
 * address as an upload is. The project must exist (404): an import never creates one.
 */
export async function authorizeImport(db: PrismaClient, principal: Principal, projectSlug: string, address: string | null): Promise<IngestProject> {
  const project = await readProjectCountingUpload(db, principal, projectSlug, address);
  if (!project) throw notFound(`Project "${projectSlug}"`);
  await requireProjectAccess(db, principal, project, "upload");
  return project;
}

/**
 * Reads the file whole (the route read it within the body cap) and stores every entry not imported
 * before, oldest first, in one transaction with the jobs that make trends and change-point detection see
 * them; a refused entry refuses the file (nothing is stored).
 */
export async function importHistory(db: PrismaClient, request: ImportHistoryRequest): Promise<ImportAnswer> {
  const { project } = request;
  // Read in a CPU thread when large (a 50 MB data.js takes seconds), oldest first.
  const entries = await readHistoryInPool(
    { source: request.source, text: request.text, branch: request.branch ?? project.defaultBranch, testbed: request.testbed, label: request.label },
    request.signal,
  );
  const keys = [...new Set(entries.map((entry) => entry.idempotencyKey))];
  const known = new Map(
    (
      await db.run.findMany({
        where: { projectId: project.id, idempotencyKey: { in: keys } },
        select: { id: true, idempotencyKey: true },
      })
    ).map((run) => [run.idempotencyKey!, run.id]),
  );
  const queue = await jobQueueFor(db);
  const now = new Date();
  const runs: ImportedRun[] = [];
  const toStore: (HistoryEntry & { id: string })[] = [];
  for (const entry of entries) {
    // The same entry twice in one file (or imported before) is stored once.
    const existing = known.get(entry.idempotencyKey);
    const id = existing ?? newRunId();
    if (existing === undefined) {
      known.set(entry.idempotencyKey, id);
      toStore.push({ ...entry, id });
    }
    runs.push({
      path: entry.path,
      id,
      url: runPageUrl(request.baseUrl, project.slug, id),
      label: entry.run.label,
      commit: entry.run.environment.git.commit,
      startedAt: entry.startedAt.toISOString(),
      status: existing === undefined ? "created" : "skipped",
    });
  }

  if (toStore.length > 0) {
    try {
      await db.$transaction(
        async (tx) => {
          const oldestOfSeries = new Map<string, { tool: string; label: string | null; testbed: string | null; runId: string }>();
          for (const entry of toStore) {
            const stored = await storeRun(
              tx,
              project.id,
              { run: entry.run, format: entry.run.format, sha256: entry.idempotencyKey.slice(-64), rawFiles: [], base: { commit: null, branch: null, time: null }, ab: null, budget: null },
              { id: entry.id, uploadedAt: now, startedAt: entry.startedAt, idempotencyKey: entry.idempotencyKey, gate: NOT_JUDGED },
            );
            if (stored.gitBranch !== project.defaultBranch) continue;
            const series = { projectId: project.id, tool: stored.tool, label: stored.label, testbed: stored.testbed };
            const key = defaultBranchSeriesKey(series);
            if (!oldestOfSeries.has(key)) oldestOfSeries.set(key, { tool: stored.tool, label: stored.label, testbed: stored.testbed, runId: stored.id });
          }
          const jobs: CoalescedJob[] = [{ name: "refresh-rollups", data: { projectId: project.id }, singletonKey: project.id }];
          for (const [key, series] of oldestOfSeries) {
            jobs.push({ name: "detect-regressions", data: { projectId: project.id, ...series, baseUrl: request.baseUrl, notify: false }, singletonKey: key });
          }
          await queue.sendCoalescedMany(jobs, tx);
          await recordAudit(tx, {
            ...actorOf(request.principal),
            action: "history.import",
            projectSlug: project.slug,
            targetId: null,
            detail: { source: request.source, created: toStore.length, skipped: runs.length - toStore.length },
          });
        },
        // A few thousand runs are a few thousand statements: more than an upload's minute on a slow disk.
        { timeout: 10 * 60_000, maxWait: 30_000 },
      );
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ServiceError("conflict", "Another import of the same history was stored meanwhile: send the file again to import what is left", [
          { path: "body", message: "imported concurrently" },
        ]);
      }
      throw error;
    }
  }
  return { project: project.slug, source: request.source, created: toStore.length, skipped: runs.length - toStore.length, runs };
}

function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  return error.code === "P2002" || (error.code === "P2010" && `${JSON.stringify(error.meta ?? {})} ${error.message}`.includes("UniqueConstraintViolation"));
}
