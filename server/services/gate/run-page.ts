import type { ReadDb } from "../../db";
import { Prisma } from "../../generated/prisma/client";
import { summarizeStep } from "../../domain/incidents/summary";
import { loadProfileDifference } from "../../domain/compare/load-profile";
import { COMPARE_WITH_LAST_RUNS, toCompareLinks, toRunReport } from "../../domain/report/run-report";
import type { RunReport } from "../../domain/report/run-report";
import type { IncidentState } from "../../domain/incidents/state";
import { pinnedRunIds } from "./baselines";
import { requireProject } from "../projects";
import { effectiveFailOn } from "../../domain/fail-on";
import { renderRunMarkdown } from "../../domain/report/run-markdown";
import { budgetAnswer, describeBudget } from "../../domain/gate/budget";
import { withShareParam } from "../../domain/share";
import { toRunDocument } from "../runs";
import { findGateHead, judgeRun, keptOutcome } from "./run-gate";
import type { KeptOutcome, RunGateResult } from "./run-gate";

/**
 * The run report page's data: the stored run with its CI gate against its baseline as it stands now
 * (with the project's fail_on) and what its upload answered, graded against the project's SLA policy, its
 * annotations, whether it is a pinned baseline, what to compare it with, and the incidents that started
 * at it (a run judged while one is open on its series has it in its gate: baselines.ts). The shaping itself is
 * pure (server/domain/report/run-report.ts).
 */

/** How many labels the "compare with…" control offers. */
const COMPARE_LABELS = 12;
/** How many of the label's earlier runs are read to find COMPARE_WITH_LAST_RUNS of the same load profile. */
const COMPARE_SCAN = 30;

/**
 * The tool's other labels (every label when the run has none), in the database's order, the first
 * COMPARE_LABELS, each with its run count up to COMPARE_WITH_LAST_RUNS: all the "compare with the last
 * runs labelled …" links say. A loose index scan over the runs (project_id, tool, label, …) index: one
 * probe per label and at most COMPARE_WITH_LAST_RUNS entries counted, never a read of every run (a
 * GROUP BY label was a sequential scan of all the project's runs: 201 ms of 476,190).
 */
async function otherLabels(db: ReadDb, projectId: string, tool: string, label: string | null): Promise<{ label: string; runs: number }[]> {
  // The run's own label is skipped after the walk: in the walk's probe it would scan that label's runs.
  return db.$queryRaw<{ label: string; runs: number }[]>`
    WITH RECURSIVE walk(label) AS (
      (SELECT label FROM runs WHERE project_id = ${projectId} AND tool = ${tool} AND label IS NOT NULL ORDER BY label LIMIT 1)
      UNION ALL
      SELECT (SELECT r.label FROM runs r WHERE r.project_id = ${projectId} AND r.tool = ${tool} AND r.label > walk.label
               ORDER BY r.label LIMIT 1)
        FROM walk WHERE walk.label IS NOT NULL
    )
    SELECT w.label,
           (SELECT count(*) FROM (SELECT 1 FROM runs r WHERE r.project_id = ${projectId} AND r.tool = ${tool} AND r.label = w.label
                                   LIMIT ${COMPARE_WITH_LAST_RUNS}) capped)::int AS runs
      FROM walk w
     WHERE w.label IS NOT NULL ${label === null ? Prisma.empty : Prisma.sql`AND w.label <> ${label}`}
     LIMIT ${COMPARE_LABELS}`;
}

const configOf = (config: unknown) => (config ?? {}) as Readonly<Record<string, string | number | boolean>>;

/** An incident that started at this run (Incident.firstRunId): the run page's banner. */
export interface IncidentStartedHere {
  number: number;
  state: IncidentState;
  /** Its largest change, |Δ| first (null: an incident whose regressions were all removed). */
  largest: { endpoint: string | null; protocol: string | null; metric: string; deltaPct: number; before: number; after: number } | null;
  /** How many changes it holds, on how many endpoints (the aggregate counts as one). */
  changes: number;
  endpoints: number;
}

/** The incidents that started at a run, by number, each with its largest change. */
async function findIncidentsStartedAt(db: ReadDb, projectId: string, runId: string): Promise<IncidentStartedHere[]> {
  const rows = await db.incident.findMany({
    where: { projectId, firstRunId: runId },
    orderBy: { number: "asc" },
    select: {
      number: true,
      state: true,
      regressions: { select: { endpointId: true, metric: true, deltaPct: true, beforeValue: true, afterValue: true, endpoint: { select: { name: true, protocol: true } } } },
    },
  });
  return rows.map((row) => {
    const { largest, changes, endpoints } = summarizeStep(row.regressions);
    return {
      number: row.number,
      state: row.state,
      largest: largest
        ? {
            endpoint: largest.endpoint?.name ?? null,
            protocol: largest.endpoint?.protocol ?? null,
            metric: largest.metric,
            deltaPct: largest.deltaPct,
            before: largest.beforeValue,
            after: largest.afterValue,
          }
        : null,
      changes,
      endpoints,
    };
  });
}

/**
 * The report of one run; not_found for an unknown project, or a run that is not the project's. `baseUrl`
 * makes its absolute link and its Markdown (the PR comment's, as GET …/verdict gives it) for Copy link and
 * Copy Markdown; read through a share link (`share`, its token), both carry the token, and the Markdown
 * leaves out the comparison's link, which a run's share link does not open.
 */
export async function getRunReport(
  db: ReadDb,
  projectSlug: string,
  runId: string,
  baseUrl = "",
  options: { share: string | null } = { share: null },
): Promise<
  RunReport & {
    gate: Omit<RunGateResult, "run"> & { atUpload: KeptOutcome | null; budget: ReturnType<typeof budgetAnswer> };
    incidentsStarted: IncidentStartedHere[];
    share: { pageUrl: string; markdown: string };
  }
> {
  const project = await requireProject(db, projectSlug);
  const head = await findGateHead(db, project.id, runId);
  // The run is read once, with its baseline, by the gate result it opens with (the same as CI's).
  const { run: loaded, ...gate } = await judgeRun(db, project, head, effectiveFailOn(null, project.failOn));
  const { tool, label } = loaded.run;
  const [earlier, labels, annotations, pinned, incidentsStarted] = await Promise.all([
    // Only runs a comparison can judge this one against: the same tool (another is "not comparable"),
    // and for its own label the same branch and load profile.
    db.run.findMany({
      where: { projectId: project.id, tool, label, gitBranch: loaded.run.environment.git.branch, startedAt: { lt: loaded.stored.startedAt } },
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
      take: COMPARE_SCAN,
      select: { id: true, label: true, round: true, tool: true, config: true },
    }),
    otherLabels(db, project.id, tool, label),
    db.annotation.findMany({
      where: { projectId: project.id, runId: loaded.stored.id },
      orderBy: { createdAt: "asc" },
      select: { id: true, kind: true, text: true, createdAt: true },
    }),
    pinnedRunIds(db, project.id),
    findIncidentsStartedAt(db, project.id, loaded.stored.id),
  ]);
  const report = toRunReport(project, loaded.stored, loaded.run, {
    grade: gate.grade,
    compare: toCompareLinks(
      project.slug,
      { id: loaded.stored.id, tool, label, branch: loaded.run.environment.git.branch, protocol: loaded.run.aggregate.protocol },
      {
        earlier: earlier
          .filter((row) => loadProfileDifference(loaded.run.environment.config, configOf(row.config)) === null)
          .slice(0, COMPARE_WITH_LAST_RUNS),
        labels,
      },
    ),
    annotations: annotations.map((annotation) => ({ ...annotation, createdAt: annotation.createdAt.toISOString() })),
    isPinnedBaseline: pinned.has(loaded.stored.id),
  });
  const document = toRunDocument(project, loaded, gate.grade, baseUrl);
  const pageUrl = options.share === null ? document.url : withShareParam(document.url, options.share);
  const budget = loaded.stored.budget ? describeBudget(loaded.stored.budget) : null;
  const markdown = renderRunMarkdown({ ...document, url: pageUrl, budget }, gate, baseUrl, options.share === null ? undefined : null);
  // What the upload answered beside what the gate says now: both shown when they differ, never one for the other.
  return {
    ...report,
    gate: { ...gate, atUpload: keptOutcome(head), budget: budgetAnswer(loaded.stored.budget) },
    incidentsStarted,
    share: { pageUrl, markdown },
  };
}
