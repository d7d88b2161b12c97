import type { ReadDb } from "../../db";
import { Prisma } from "../../generated/prisma/client";
import { GATE_RUNS_READ, findFailingStreak, summarizeSeriesGate } from "../../domain/series/gate-status";
import type { SeriesGate, SeriesGateRun } from "../../domain/series/gate-status";
import { NOT_AB_BASE, notAbBaseSql, seriesRunsSql } from "../runs";
import type { SeriesOfRuns } from "../runs";

/**
 * What the CI gate last said about each series on a project's default branch (domain/series/gate-status.ts):
 * the overview's trend column and banner, the home page's cards. From what each run kept of its upload's
 * answer (runs.outcome, outcome_reasons, gate_changes), never judged again.
 *
 * Query strategy, two statements for any number of projects:
 * 1. The series: the distinct (tool, label, testbed) of each project's last SERIES_SCAN runs on its default
 *    branch, a LATERAL bounded range of the (project_id, git_branch, started_at DESC) index per project. A
 *    series not run on the default branch among those is not current there, and is not shown.
 * 2. Their latest GATE_RUNS_READ runs each: one UNION ALL of bounded range scans of the series index
 *    (project_id, tool, label, git_branch, testbed, started_at DESC), `=` or `IS NULL` per column (the
 *    index serves both; IS NOT DISTINCT FROM it does not), reading the outcome of each and the reasons and
 *    gate changes of the newest only.
 * A streak of failed runs longer than the runs read (rare: a step nobody triaged for 30 runs) is completed
 * by three more index range reads of that series: the last run that did not fail, the first after it, the
 * count since.
 */

/** Runs of the default branch read per project to find its series. */
const SERIES_SCAN = 100;

/** Each project's series on its default branch (A/B jobs' base-side runs are no series' history). */
export async function findSeriesOfRuns(db: ReadDb, projects: readonly { id: string; defaultBranch: string }[]): Promise<SeriesOfRuns[]> {
  if (projects.length === 0) return [];
  const branches = new Map(projects.map((project) => [project.id, project.defaultBranch]));
  const rows = await db.$queryRaw<{ projectId: string; tool: string; label: string | null; testbed: string | null }[]>`
    SELECT DISTINCT p.id AS "projectId", r.tool, r.label, r.testbed
      FROM projects p
      CROSS JOIN LATERAL (
        SELECT tool, label, testbed FROM runs
         WHERE project_id = p.id AND git_branch = p.default_branch AND ${notAbBaseSql("")}
         ORDER BY started_at DESC
         LIMIT ${SERIES_SCAN}
      ) r
     WHERE p.id IN (${Prisma.join(projects.map((project) => project.id))})`;
  return rows.map((row) => ({ ...row, branch: branches.get(row.projectId)! }));
}

function seriesCondition(series: SeriesOfRuns): Prisma.Sql {
  return Prisma.sql`${seriesRunsSql("", series)} AND ${notAbBaseSql("")}`;
}

interface GateRunRow {
  series: number;
  id: string;
  startedAt: Date;
  uploadedAt: Date;
  gitCommit: string | null;
  outcome: string | null;
  reasons: string[] | null;
  changes: unknown;
}

/**
 * Index order of a series' runs, newest first: the series index's own columns first. They are one value each
 * within a series, but with `label IS NULL` or `testbed IS NULL` the planner does not know it (IS NULL is no
 * equality to it), and ordering by started_at alone it would sort the series' whole history, or walk the
 * branch index instead.
 */
const SERIES_ORDER = Prisma.sql`project_id, tool, label, git_branch, testbed, started_at DESC, id DESC`;

/** The series' latest GATE_RUNS_READ runs, newest first, in one statement; the newest of each with its reasons and gate changes. */
async function readLatestRuns(db: ReadDb, series: readonly SeriesOfRuns[]): Promise<GateRunRow[]> {
  const parts = series.map(
    (one, index) => Prisma.sql`(
      SELECT ${index}::int AS series, id, "startedAt", "uploadedAt", "gitCommit", outcome,
             CASE WHEN row_number() OVER newest = 1 THEN reasons END AS reasons,
             CASE WHEN row_number() OVER newest = 1 THEN changes END AS changes
        FROM (
          SELECT id, started_at AS "startedAt", uploaded_at AS "uploadedAt", git_commit AS "gitCommit", outcome,
                 outcome_reasons AS reasons, gate_changes AS changes
            FROM runs
           WHERE ${seriesCondition(one)}
           ORDER BY ${SERIES_ORDER}
           LIMIT ${GATE_RUNS_READ}
        ) latest
      WINDOW newest AS (ORDER BY "startedAt" DESC, id DESC))`,
  );
  return db.$queryRaw<GateRunRow[]>`${Prisma.join(parts, " UNION ALL ")}`;
}

/**
 * SERIES_ORDER's prefix for Prisma: "asc" with the newest first (the index's order), "desc" with the oldest
 * first (its order backwards: DESC puts nulls first, the reverse of ASC's nulls last).
 */
const seriesPrefixOrder = (direction: "asc" | "desc") =>
  (["projectId", "tool", "label", "gitBranch", "testbed"] as const).map((column) => ({ [column]: direction }));

/** A streak longer than the runs read: its first run (the one after the last that did not fail) and its length. */
async function lookUpLongStreak(db: ReadDb, series: SeriesOfRuns, oldestRead: SeriesGateRun): Promise<{ first: SeriesGateRun; runs: number } | null> {
  const where = {
    projectId: series.projectId,
    tool: series.tool,
    label: series.label,
    gitBranch: series.branch,
    testbed: series.testbed,
    ...NOT_AB_BASE,
  };
  const select = { id: true, startedAt: true, gitCommit: true, outcome: true } as const;
  const lastNotFailed = await db.run.findFirst({
    where: {
      ...where,
      AND: [
        { OR: [{ outcome: null }, { outcome: { not: "fail" } }] },
        { OR: [{ startedAt: { lt: oldestRead.startedAt } }, { startedAt: oldestRead.startedAt, id: { lt: oldestRead.id } }] },
      ],
    },
    orderBy: [...seriesPrefixOrder("asc"), { startedAt: "desc" }, { id: "desc" }],
    select: { id: true, startedAt: true },
  });
  const after = lastNotFailed
    ? { OR: [{ startedAt: { gt: lastNotFailed.startedAt } }, { startedAt: lastNotFailed.startedAt, id: { gt: lastNotFailed.id } }] }
    : {};
  const [first, runs] = await Promise.all([
    db.run.findFirst({ where: { ...where, AND: [after] }, orderBy: [...seriesPrefixOrder("desc"), { startedAt: "asc" }, { id: "asc" }], select }),
    db.run.count({ where: { ...where, AND: [after] } }),
  ]);
  return first ? { first, runs } : null;
}

/** The gate's status of each series given, by project; series without a run are left out. */
export async function readSeriesGates(db: ReadDb, series: readonly SeriesOfRuns[]): Promise<Map<string, SeriesGate[]>> {
  const byProject = new Map<string, SeriesGate[]>();
  if (series.length === 0) return byProject;
  const rows = await readLatestRuns(db, series);
  const runsOf = series.map((): GateRunRow[] => []);
  for (const row of rows) runsOf[row.series]?.push({ ...row, startedAt: new Date(row.startedAt), uploadedAt: new Date(row.uploadedAt) });
  const gates = await Promise.all(
    series.map(async (one, index) => {
      // UNION ALL keeps no order: newest first again, as each part read them.
      const newestFirst = runsOf[index]!.sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime() || (a.id < b.id ? 1 : -1));
      const streak = findFailingStreak(newestFirst);
      const streakBeyond = streak !== null && !streak.complete ? await lookUpLongStreak(db, one, newestFirst.at(-1)!) : null;
      const latest = newestFirst[0];
      return summarizeSeriesGate({
        ...one,
        newestFirst,
        latestReasons: latest?.reasons ?? [],
        latestChanges: latest?.changes ?? [],
        streakBeyond,
      });
    }),
  );
  for (const [index, gate] of gates.entries()) {
    if (gate === null) continue;
    const projectId = series[index]!.projectId;
    byProject.set(projectId, [...(byProject.get(projectId) ?? []), gate]);
  }
  return byProject;
}

/** The gate's status of every series on the default branch of each project, by project id. */
export async function findSeriesGates(db: ReadDb, projects: readonly { id: string; defaultBranch: string }[]): Promise<Map<string, SeriesGate[]>> {
  return readSeriesGates(db, await findSeriesOfRuns(db, projects));
}
