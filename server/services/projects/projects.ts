import type { ReadDb } from "../../db";
import { Prisma } from "../../generated/prisma/client";
import { gradeRuns, gradeSummary } from "../runs";
import { notFound } from "../platform";
import { BENCHMARK_PROTOCOL } from "../../domain/run";
import { summarizeCardGate } from "../../domain/series/gate-status";
import { findSeriesGates } from "./series-gates";

/** The home page's sparkline: p95 of the run aggregate over this many most recent runs. */
export const CARD_SERIES_LENGTH = 30;

/** Projects for the home page, most recently active first, with their run counts. */
export async function listProjects(db: ReadDb) {
  const projects = await readProjectRows(db);
  return projects.map(({ defaultBranch: _branch, ...project }) => project);
}

async function readProjectRows(db: ReadDb) {
  const projects = await db.project.findMany({
    select: {
      id: true,
      slug: true,
      name: true,
      description: true,
      isDemo: true,
      createdAt: true,
      defaultBranch: true,
      _count: { select: { runs: true } },
    },
    orderBy: [{ updatedAt: "desc" }, { slug: "asc" }],
  });
  return projects.map(({ _count, ...project }) => ({ ...project, runCount: _count.runs }));
}

interface RecentRunRow {
  projectId: string;
  runId: string;
  startedAt: Date;
  label: string | null;
  gitBranch: string | null;
  p95Ms: number | null;
}

export interface ProjectLastRun {
  id: string;
  startedAt: Date;
  label: string | null;
  gitBranch: string | null;
}

/**
 * Projects as the home page's cards: the list (one query, with run counts) plus, in ONE more query
 * for all projects, each project's last CARD_SERIES_LENGTH runs with their aggregate p95 — a LATERAL
 * join bounded by the (project_id, started_at DESC, id) index, so it reads projects × 30 rows, never
 * the whole history, and no query runs per project.
 * `sparkline` is oldest → newest (x = start time in epoch ms, y = aggregate p95 in ms or null).
 * Beside it, the CI gate's status of each series on each project's default branch, from the outcomes the
 * runs kept (two more statements for all projects: services/projects/series-gates.ts).
 */
export async function listProjectCards(db: ReadDb) {
  const projects = await readProjectRows(db);
  const [rows, gates] = await Promise.all([
    projects.length === 0 ? [] : findRecentRuns(db, projects.map((project) => project.id)),
    findSeriesGates(db, projects),
  ]);
  const byProject = new Map<string, RecentRunRow[]>();
  for (const row of rows) {
    const list = byProject.get(row.projectId) ?? [];
    list.push(row);
    byProject.set(row.projectId, list);
  }
  const cards = projects.map((project) => {
    const recent = (byProject.get(project.id) ?? []).sort(
      (a, b) => b.startedAt.getTime() - a.startedAt.getTime() || (a.runId < b.runId ? 1 : -1),
    );
    const last = recent[0];
    const lastRun: ProjectLastRun | null = last
      ? { id: last.runId, startedAt: last.startedAt, label: last.label, gitBranch: last.gitBranch }
      : null;
    return {
      ...project,
      lastRun,
      sparkline: recent.map((row) => ({ x: row.startedAt.getTime(), y: row.p95Ms })).reverse(),
    };
  });
  const [grades, activeIncidents] = await Promise.all([
    Promise.all(
      cards.map(async (card) => (card.lastRun ? (await gradeRuns(db, card.id, [card.lastRun.id])).get(card.lastRun.id) : undefined)),
    ),
    db.incident.groupBy({ by: ["projectId"], where: { state: { in: ["open", "investigating"] } }, _count: true }),
  ]);
  const activeCount = new Map(activeIncidents.map((row) => [row.projectId, row._count]));
  const withGrades = cards.map((card, index) => ({
    ...card,
    /** The last run's SLA grade; null when the project has no SLA policy or no runs. */
    grade: gradeSummary(grades[index]),
    /** Incidents open or investigating (as the inbox counts them). */
    activeIncidents: activeCount.get(card.id) ?? 0,
    /** What the CI gate last said about each series on the default branch: failing first, with the streak's start. */
    gate: summarizeCardGate(gates.get(card.id) ?? []),
  }));
  // Most recently active first; projects without runs keep the list's order, after them.
  return withGrades.sort((a, b) => (b.lastRun?.startedAt.getTime() ?? -Infinity) - (a.lastRun?.startedAt.getTime() ?? -Infinity) || 0);
}

async function findRecentRuns(db: ReadDb, projectIds: string[]): Promise<RecentRunRow[]> {
  const rows = await db.$queryRaw<RecentRunRow[]>`
    SELECT p.id AS "projectId", x.id AS "runId", x.started_at AS "startedAt", x.label,
           x.git_branch AS "gitBranch", a.p95_ms AS "p95Ms"
      FROM projects p
      CROSS JOIN LATERAL (
        SELECT id, started_at, label, git_branch FROM runs
         WHERE project_id = p.id
         ORDER BY started_at DESC, id DESC
         LIMIT ${CARD_SERIES_LENGTH}
      ) x
      LEFT JOIN results a ON a.run_id = x.id AND a.endpoint_id IS NULL
     WHERE p.id IN (${Prisma.join(projectIds)})`;
  return rows.map((row) => ({ ...row, startedAt: new Date(row.startedAt) }));
}

export async function findProject(db: ReadDb, slug: string) {
  return db.project.findUnique({ where: { slug } });
}

/**
 * findProject's read as SQL, for a statement that does more in the same round trip (the upload's
 * admission: services/ingest/upload-run.ts): every column of the project row under its Prisma field
 * name, so its rows are what findProject answers (projects.db.test.ts holds the two equal).
 */
export function projectBySlugSql(slug: string): Prisma.Sql {
  return Prisma.sql`
    SELECT id, slug, name, description, default_branch AS "defaultBranch", repo_url AS "repoUrl", is_demo AS "isDemo",
      min_effect_pct AS "minEffectPct", alpha, gate_metric AS "gateMetric", fail_on AS "failOn", webhook_url AS "webhookUrl",
      webhook_format::text AS "webhookFormat", webhook_secret AS "webhookSecret", webhook_digest::text AS "webhookDigest",
      raw_retention_days AS "rawRetentionDays",
      retention_days AS "retentionDays", retention_keep_runs AS "retentionKeepRuns", history_version AS "historyVersion", visibility::text AS visibility, created_at AS "createdAt", updated_at AS "updatedAt"
    FROM projects WHERE slug = ${slug}`;
}

/** The project a use case is about, or the not-found every caller answers for an unknown slug. */
export async function requireProject(db: ReadDb, slug: string) {
  const project = await findProject(db, slug);
  if (!project) throw notFound(`Project "${slug}"`);
  return project;
}

/**
 * Whether every run of a project is a run of benchmarks (docs/benchmarks.md): then nothing of a load
 * test (capacity, load profiles) has data, and the project's pages leave it out. False for a project
 * without runs (its first upload may be either) and for one with any load test.
 */
export async function hasOnlyBenchmarks(db: ReadDb, projectId: string): Promise<boolean> {
  const [benchmark, other] = await Promise.all([
    db.run.findFirst({ where: { projectId, protocol: BENCHMARK_PROTOCOL }, select: { id: true } }),
    db.run.findFirst({ where: { projectId, OR: [{ protocol: null }, { protocol: { not: BENCHMARK_PROTOCOL } }] }, select: { id: true } }),
  ]);
  return benchmark !== null && other === null;
}
